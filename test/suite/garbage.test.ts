// Transport-level garbage for every REST route of the registry (bad JSON, invalid UTF-8, NUL bytes,
// oversized bodies and path segments, duplicate query parameters, wrong methods, random bytes in any
// content type), malformed HTTP on a raw socket, and the JSON-RPC faces' protocol errors. Every
// answer holds the reply properties of faces.ts; the server is alive after.
import fc from 'fast-check';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limit } from '../../src/core/kernel/limits.js';
import { OPS } from '../../src/compose/registry.js';
import type { AnyOperation } from '../../src/core/kernel/types.js';
import { start, type TestServer } from '../helpers/server.js';
import { inputSchema, validArb, type Json } from './arbitraries.js';
import { a2aSend, freshNet, mcpRpc, restProblems, restRequests, send, type Req } from './faces.js';
import { alive, FUZZ, OPERATORS, prepare, type Target } from './harness.js';

let s: TestServer;
let t: Target;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  t = await prepare(s);
});
afterAll(async () => {
  if (t) expect(await alive(t)).toBe(true);
  await s?.stop();
});

const ROUTED = OPS.filter((o) => o.rest);
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

function who(op: AnyOperation): Record<string, string> {
  const tok = (OPERATORS as string[]).includes(op.auth) ? t.operator[op.auth as keyof Target['operator']] : t.users[3]!.token;
  return { authorization: `Bearer ${tok}`, 'x-forwarded-for': freshNet() };
}

/** The op's path with schema-valid parameters (one fixed sample), so only the garbage varies. */
function pathOf(op: AnyOperation): string {
  const sample = fc.sample(validArb(inputSchema(op)), { numRuns: 1, seed: FUZZ.seed })[0] as Json;
  const params: Record<string, Json> = {};
  const rest = op.rest!;
  for (const m of rest.path.matchAll(/:(\w+)|\*/g)) {
    const f = rest.paramAlias?.[m[1] ?? '*'] ?? m[1] ?? '*';
    params[f] = (sample as Record<string, Json>)?.[f] ?? 'x';
  }
  return restRequests(op, params, {})[0]!.path.split('?')[0]!;
}

async function expectHolds(reqs: Req[]): Promise<void> {
  const problems: string[] = [];
  for (const r of reqs) problems.push(...restProblems(await send(t.url, r), r, t.roots));
  expect(problems).toEqual([]);
}

describe('garbage on every REST route', () => {
  it('bad JSON, invalid UTF-8, NUL bytes, oversized bodies: one err line, never a 5xx', { timeout: 120_000 }, async () => {
    const reqs: Req[] = [];
    for (const op of ROUTED) {
      const rest = op.rest!;
      const path = pathOf(op);
      const h = who(op);
      if (rest.method === 'POST' || rest.method === 'PUT') {
        const m = rest.method;
        reqs.push({ label: 'bad-json', method: m, path, headers: { ...h, 'content-type': 'application/json' }, body: '{"a": [1, 2,' });
        reqs.push({ label: 'json-array', method: m, path, headers: { ...h, 'content-type': 'application/json' }, body: '[1,{"__proto__":{"x":1}}]' });
        reqs.push({ label: 'deep-json', method: m, path, headers: { ...h, 'content-type': 'application/json' }, body: '['.repeat(5000) + ']'.repeat(5000) });
        reqs.push({
          label: 'utf8',
          method: m,
          path,
          headers: { ...h, 'content-type': 'text/plain; charset=utf-8' },
          body: Buffer.from([0x61, 0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
        });
        reqs.push({
          label: 'utf8-json',
          method: m,
          path,
          headers: { ...h, 'content-type': 'application/json' },
          body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
        });
        reqs.push({ label: 'nul-body', method: m, path, headers: { ...h, 'content-type': 'text/plain' }, body: 'a\u0000b\u0000' });
        reqs.push({ label: 'nul-form', method: m, path, headers: { ...h, 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=%00&%00=b&=&&' });
        reqs.push({ label: 'odd-type', method: m, path, headers: { ...h, 'content-type': 'multipart/form-data; boundary=x' }, body: '--x\r\nbroken' });
        reqs.push({
          label: 'oversized',
          method: m,
          path,
          headers: { ...h, 'content-type': 'application/json' },
          body: Buffer.alloc((rest.bodyLimit ?? limit('body.default')) + 1, 0x20),
        });
      }
      reqs.push({ label: 'nul-query', method: rest.method, path: `${path}?f=%00&${'x%00'}=1`, headers: h });
    }
    await expectHolds(reqs);
  });

  it('oversized and NUL path segments, malformed escapes, duplicate query parameters', { timeout: 120_000 }, async () => {
    const reqs: Req[] = [];
    for (const op of ROUTED) {
      const rest = op.rest!;
      const h = who(op);
      const m = rest.method;
      if (/[:*]/.test(rest.path)) {
        const fill = (v: string) => rest.path.replace(/:(\w+)|\*/g, v);
        reqs.push({ label: 'long-seg', method: m, path: fill('a'.repeat(limit('url.param') + 1)), headers: h });
        reqs.push({ label: 'nul-seg', method: m, path: fill('a%00b'), headers: h });
        reqs.push({ label: 'bad-escape', method: m, path: fill('%E0%A4%A'), headers: h });
        reqs.push({ label: 'dot-seg', method: m, path: fill('..%2F..%2Fetc%2Fpasswd'), headers: h });
      }
      const path = pathOf(op);
      const schema = inputSchema(op);
      const fields = rest.query ?? Object.keys(schema.properties ?? {}).filter((k) => !rest.path.includes(`:${k}`));
      const dup = fields.map((k) => `${encodeURIComponent(k)}=1&${encodeURIComponent(k)}=2`).join('&');
      if (dup) reqs.push({ label: 'dup-query', method: m, path: `${path}?${dup}&f=json&f=txt`, headers: h });
    }
    await expectHolds(reqs);
  });

  it('wrong methods on every route path', { timeout: 120_000 }, async () => {
    const bound = new Map<string, Set<string>>();
    for (const op of ROUTED) {
      const set = bound.get(op.rest!.path) ?? new Set();
      set.add(op.rest!.method);
      bound.set(op.rest!.path, set);
    }
    const reqs: Req[] = [];
    for (const op of ROUTED) {
      const path = pathOf(op);
      for (const m of METHODS)
        if (!bound.get(op.rest!.path)!.has(m) && !(m === 'GET' && bound.get(op.rest!.path)!.has('HEAD')))
          reqs.push({
            label: 'wrong-method',
            method: m,
            path,
            headers: { ...who(op), 'content-type': 'application/json' },
            ...(m === 'GET' ? {} : { body: '{}' }),
          });
    }
    await expectHolds(reqs);
  });

  it('random bytes in any content type on every route (seeded)', { timeout: 120_000 }, async () => {
    const arb = fc.record({
      op: fc.constantFrom(...ROUTED),
      type: fc.constantFrom(
        'application/json',
        'application/x-www-form-urlencoded',
        'text/plain',
        'application/octet-stream',
        'text/plain; charset=latin1',
        'application/json; charset=utf-16',
        '',
      ),
      body: fc.uint8Array({ maxLength: 512 }),
      query: fc.string({ maxLength: 40, unit: 'binary' }),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ op, type, body, query }) => {
        const m = op.rest!.method;
        const r: Req = {
          label: 'bytes',
          method: m,
          path: `${pathOf(op)}?${encodeURIComponent(query)}`,
          headers: { ...who(op), ...(type ? { 'content-type': type } : {}) },
          ...(m === 'GET' || m === 'HEAD' ? {} : { body: Buffer.from(body) }),
        };
        const p = restProblems(await send(t.url, r), r, t.roots);
        if (p.length) throw new Error(p.join('; '));
      }),
      { numRuns: FUZZ.runs * 40, seed: FUZZ.seed, endOnFailure: true },
    );
  });
});

/** Raw bytes on a socket: what Node's HTTP parser refuses still gets a status line and one err line. */
function rawHttp(data: string | Buffer): Promise<string> {
  const u = new URL(t.url);
  return new Promise((resolve) => {
    const sock = connect(Number(u.port), u.hostname);
    let out = '';
    const timer = setTimeout(() => (sock.destroy(), resolve(out || 'TIMEOUT')), 5_000);
    sock.on('data', (d) => (out += d.toString('latin1')));
    sock.on('close', () => (clearTimeout(timer), resolve(out)));
    sock.on('error', () => (clearTimeout(timer), resolve(out || 'RESET')));
    sock.end(data);
  });
}

describe('malformed HTTP', () => {
  it('bad request lines, headers and lengths answer 4xx with one err line', async () => {
    const cases = [
      'GET /healthz\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n',
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
      'POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello',
      'POST /e HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nzz\r\n',
      'BREW /pot HTCPCP/1.0\r\n\r\n',
      `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ];
    for (const c of cases) {
      const out = await rawHttp(c);
      const [head, body = ''] = out.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]);
      expect(status, c.slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(status, c.slice(0, 60)).toBeLessThan(500);
      if (!/transfer-encoding: chunked/i.test(head!)) expect(body, c.slice(0, 60)).toMatch(/^err [a-z]+ [^\n]*\n$/);
    }
  });
});

describe('JSON-RPC protocol errors', () => {
  const h = () => ({ 'x-forwarded-for': freshNet() });
  it('MCP: -32601 unknown method, -32602 bad params, -32700 malformed JSON', async () => {
    expect((await mcpRpc(t.url, '/mcp?toolsets=all', 'tools/frobnicate', {}, h())).json.error.code).toBe(-32601);
    for (const params of [
      { name: 'sys_limits', arguments: [1] },
      { name: 'sys_limits', arguments: 'x' },
      { name: 'no_such_tool', arguments: {} },
      { arguments: {} },
      { name: 42 },
    ]) {
      const r = await mcpRpc(t.url, '/mcp?toolsets=all', 'tools/call', params, h(), typeof params.name === 'string' ? params.name : undefined);
      expect(r.json?.error?.code, JSON.stringify(params)).toBe(-32602);
    }
    const bad = await send(t.url, {
      label: 'mcp',
      method: 'POST',
      path: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...h() },
      body: '{"jsonrpc":"2.0","id":1,',
    });
    expect(bad.status).toBeLessThan(500);
    expect(JSON.parse(bad.body).error.code).toBe(-32700);
  });

  it('A2A: -32601 unknown method, -32602 bad params', async () => {
    const rpc = async (method: string, params: unknown) => {
      const r = await send(t.url, {
        label: 'a2a',
        method: 'POST',
        path: '/a2a',
        headers: { 'content-type': 'application/json', ...h() },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      expect(r.status).toBeLessThan(500);
      return JSON.parse(r.body) as { error?: { code: number } };
    };
    expect((await rpc('message/frobnicate', {})).error?.code).toBe(-32601);
    for (const p of [{}, { message: 'x' }, { message: { kind: 'message', parts: 'x' } }, []])
      expect((await rpc('message/send', p)).error?.code, JSON.stringify(p)).toBe(-32602);
    // A data part that names no skill, or input that is not an object: a failed task, err bad.
    const r = await a2aSend(t.url, 'no.such.skill', {}, h());
    expect(r.json.result.status.state).toBe('failed');
    expect(r.json.result.status.message.parts[0].text).toMatch(/^err bad unknown skill/);
  });
});
