// A 2025-era session answers a plain tools/list and tools/call from the registry directly
// (src/mcp/fastpost.ts), without the SDK's protocol layer. The same request with `_meta` goes
// through the SDK Server: both must answer the same bytes, errors included, and answers must never
// cross between sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
});
afterAll(async () => s.stop());

const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
let netN = 0;

/** A raw 2025-06-18 session: initialize, notifications/initialized, then a poster. */
async function session(path = '/mcp', headers: Record<string, string> = {}) {
  const h = { ...H, 'x-forwarded-for': `10.88.${++netN}.1`, ...headers };
  const init = await fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: h,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  const sid = init.headers.get('mcp-session-id')!;
  await init.text();
  const post = async (body: unknown) => {
    const r = await fetch(`${s.url}${path}`, { method: 'POST', headers: { ...h, 'mcp-session-id': sid }, body: JSON.stringify(body) });
    return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
  };
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  return post;
}

/** The same request twice: plain (answered directly) and with an empty `_meta` (through the SDK Server). */
async function bothPaths(post: Awaited<ReturnType<typeof session>>, id: number, method: string, params?: Record<string, unknown>) {
  const direct = await post({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
  const sdk = await post({ jsonrpc: '2.0', id, method, params: { ...params, _meta: {} } });
  return { direct, sdk };
}

describe('MCP session fast path', () => {
  it('tools/list and tools/call answer the same bytes directly as through the SDK Server, errors too', async () => {
    const post = await session('/mcp?toolsets=sys,kb');
    const cases: Array<[string, Record<string, unknown> | undefined]> = [
      ['tools/list', undefined],
      ['tools/call', { name: 'sys_limits', arguments: {} }],
      ['tools/call', { name: 'sys_limits' }],
      // An op failure is a tool result with isError.
      ['tools/call', { name: 'kb_get', arguments: { id: 'k00000000' } }],
      ['tools/call', { name: 'kb_get', arguments: { id: 42 } }],
      // A tool this URL did not mount, and one that does not exist: -32602, one line.
      ['tools/call', { name: 'drop_get', arguments: {} }],
      ['tools/call', { name: 'nope', arguments: {} }],
    ];
    let id = 1;
    for (const [method, params] of cases) {
      const { direct, sdk } = await bothPaths(post, id++, method, params);
      expect(direct.status).toBe(200);
      expect(direct.type).toBe('application/json');
      expect(direct.text).toBe(sdk.text);
      const body = JSON.parse(direct.text);
      if (body.error) {
        expect(body.error.code).toBe(-32602);
        expect(body.error.message).not.toContain('\n');
      }
    }
    const list = JSON.parse((await post({ jsonrpc: '2.0', id: 'l', method: 'tools/list' })).text);
    expect(list.id).toBe('l');
    expect(list.result.tools.map((t: { name: string }) => t.name)).toContain('kb_get');
    expect(list.result.tools.map((t: { name: string }) => t.name)).not.toContain('drop_get');
    // Non-object arguments: the one-line -32602 before either path.
    const bad = JSON.parse((await post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'sys_limits', arguments: [1] } })).text);
    expect(bad.error).toEqual({ code: -32602, message: 'arguments must be an object, got array' });
  });

  it('without a session too: plain requests answered from fresh handlers match the one-shot SDK server', async () => {
    const h = { ...H, 'x-forwarded-for': '10.88.200.1' };
    const post = async (body: unknown) => {
      const r = await fetch(`${s.url}/mcp?toolsets=sys,kb`, { method: 'POST', headers: h, body: JSON.stringify(body) });
      return { status: r.status, type: r.headers.get('content-type'), session: r.headers.get('mcp-session-id'), text: await r.text() };
    };
    const cases: Array<[string, Record<string, unknown> | undefined]> = [
      ['tools/list', undefined],
      ['tools/call', { name: 'sys_limits', arguments: {} }],
      ['tools/call', { name: 'kb_get', arguments: { id: 'k00000000' } }],
      ['tools/call', { name: 'drop_get', arguments: {} }],
      ['tools/call', { name: 'nope' }],
    ];
    let id = 1;
    for (const [method, params] of cases) {
      const direct = await post({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
      const sdk = await post({ jsonrpc: '2.0', id: id++, method, params: { ...params, _meta: {} } });
      expect(direct).toEqual(sdk);
      expect(direct.status).toBe(200);
      expect(direct.session).toBeNull();
    }
    // An extra top-level key is the SDK's parse error on both paths, never answered directly.
    const extra = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', extra: true });
    expect(extra.status).toBe(400);
  });

  it('interleaved calls of two sessions with the same JSON-RPC ids: every answer reaches its own caller', async () => {
    const a = await register(s.url, 'fast-alice', { 'x-forwarded-for': '10.89.1.1' });
    const b = await register(s.url, 'fast-bob', { 'x-forwarded-for': '10.89.2.1' });
    const postA = await session('/mcp', { authorization: `Bearer ${a.token}` });
    const postB = await session('/mcp', { authorization: `Bearer ${b.token}` });
    const jobs: Promise<{ who: string; body: { id: unknown; result: { content: { text: string }[] } } }>[] = [];
    for (let i = 0; i < 20; i++) {
      const req = { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'id_me', arguments: {} } };
      jobs.push(postA(req).then((r) => ({ who: a.id, body: JSON.parse(r.text) })));
      jobs.push(postB(req).then((r) => ({ who: b.id, body: JSON.parse(r.text) })));
    }
    const answers = await Promise.all(jobs);
    answers.forEach((x, k) => {
      expect(x.body.id).toBe(k >> 1);
      expect(x.body.result.content[0]!.text).toMatch(new RegExp(`^me ${x.who} `));
    });
  });
});
