// Edges below the routes, on the commons and the catalog: a request without a Host header, nosniff on
// every response and a CSP on every HTML page, sockets that send their headers slowly, and malformed
// MCP bodies in the log (one line, no stack).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limit } from '../../src/core/kernel/limits.js';
import { sdkErrorLog } from '../../src/mcp/modern.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_SEED: '1' }); // the sample KB and services
});
afterAll(async () => s.stop());

/** Writes raw bytes (then `drip` more, one every `every` ms, while the socket is open) and reads until the server closes it. */
function raw(base: string, data: string, drip?: { line: string; every: number }): Promise<{ text: string; ms: number }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const c = connect(Number(u.port), u.hostname);
    let out = '';
    let timer: NodeJS.Timeout | undefined;
    c.on('data', (d) => (out += d.toString('utf8')));
    c.on('close', () => {
      clearInterval(timer);
      resolve({ text: out, ms: Date.now() - t0 });
    });
    c.on('error', (err) => (out ? undefined : reject(err)));
    c.write(data);
    if (drip) timer = setInterval(() => c.writable && c.write(drip.line), drip.every);
  });
}

const HEX = 'ab'.repeat(32);

describe('a request without a Host header', () => {
  it('HTTP/1.1: 400 err bad in one line, on the commons (front lane included) and the catalog; HTTP/1.0 needs none', async () => {
    for (const [base, path] of [
      [s.url, '/healthz'],
      [s.url, `/h/${HEX}`],
      [s.url, '/mcp'],
      [s.catalogUrl, '/api/health'],
    ] as const) {
      const r = await raw(base, `GET ${path} HTTP/1.1\r\nAccept: text/plain\r\n\r\n`);
      expect(r.text, `${base}${path}`).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(r.text.toLowerCase()).toContain('\r\ncontent-type: text/plain; charset=utf-8\r\n');
      expect(r.text.toLowerCase()).toContain('\r\nx-content-type-options: nosniff\r\n');
      expect(r.text.toLowerCase()).toContain('\r\nconnection: close\r\n');
      expect(r.text.endsWith('\r\n\r\nerr bad missing Host header\n')).toBe(true);
    }
    const old = await raw(s.url, 'GET /healthz HTTP/1.0\r\n\r\n');
    expect(old.text).toMatch(/^HTTP\/1\.1 200 /);
    // An empty Host is a Host (RFC 9112 3.2): not refused here.
    expect((await raw(s.url, 'GET /healthz HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n')).text).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('nosniff and CSP', () => {
  it('every response of the commons carries X-Content-Type-Options: nosniff', async () => {
    const before = s.app.front.answered;
    const got: Array<[string, number, string | null]> = [];
    const probe = async (path: string, init: RequestInit = {}) => {
      const r = await fetch(`${s.url}${path}`, init);
      await r.arrayBuffer();
      got.push([`${init.method ?? 'GET'} ${path}`, r.status, r.headers.get('x-content-type-options')]);
    };
    await probe('/llms.txt');
    await probe('/healthz');
    await probe('/openapi.json');
    await probe('/no/such/route');
    await probe('/help', { headers: { accept: 'application/json' } });
    await probe(`/h/${HEX}`);
    await probe(`/h/${HEX}?f=json`);
    await probe('/about', { headers: { accept: 'text/html' } });
    await probe('/favicon.svg');
    await probe('/v1/register', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } });
    await probe('/mcp', {
      method: 'POST',
      body: '{"jsonrpc":',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    await probe('/mcp', { method: 'GET' });
    await probe('/a2a', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } });
    expect(s.app.front.answered).toBeGreaterThan(before);
    for (const [what, , h] of got) expect(h, what).toBe('nosniff');
    // Requests Node's parser refuses, answered on the socket.
    expect((await raw(s.url, 'GARBAGE\r\n\r\n')).text).toContain('\r\nX-Content-Type-Options: nosniff\r\n');
  });

  it('every response of the catalog carries nosniff, early errors included', async () => {
    for (const [path, init] of [
      ['/', { headers: { accept: 'text/html' } }],
      ['/api/catalog.json', {}],
      ['/llms.txt', {}],
      ['/no/such/route', {}],
      [`/o/${'b'.repeat(200)}`, {}],
      ['/api/order', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } }],
    ] as const) {
      const r = await fetch(`${s.catalogUrl}${path}`, init as RequestInit);
      await r.arrayBuffer();
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    expect((await raw(s.catalogUrl, 'GARBAGE\r\n\r\n')).text).toContain('\r\nX-Content-Type-Options: nosniff\r\n');
  });

  it('every HTML page has a Content-Security-Policy: /changelog, /about, /legal and their .html twins too', async () => {
    const html = { headers: { accept: 'text/html' } };
    const pages = ['/', '/reference', '/about', '/legal', '/changelog', '/about.html', '/legal.html', '/changelog.html', '/status', '/gov', '/inj'];
    let seen = 0;
    for (const p of pages) {
      const r = await fetch(`${s.url}${p}`, html);
      const body = await r.text();
      if (!(r.headers.get('content-type') ?? '').startsWith('text/html')) continue;
      seen++;
      expect(body.startsWith('<!doctype html>'), p).toBe(true);
      expect(r.headers.get('content-security-policy'), p).toContain("default-src 'none'");
      expect(r.headers.get('x-content-type-options'), p).toBe('nosniff');
    }
    for (const p of ['/about', '/legal', '/changelog', '/about.html', '/changelog.html']) {
      const r = await fetch(`${s.url}${p}`, html);
      await r.arrayBuffer();
      expect(r.headers.get('content-type'), p).toMatch(/^text\/html/);
      expect(r.headers.get('content-security-policy'), p).toContain("frame-ancestors 'none'");
    }
    expect(seen).toBeGreaterThanOrEqual(8);
    for (const p of ['/', '/terms', '/privacy', '/no/such/page']) {
      const r = await fetch(`${s.catalogUrl}${p}`, html);
      await r.arrayBuffer();
      expect(r.headers.get('content-type'), p).toMatch(/^text\/html/);
      expect(r.headers.get('content-security-policy'), p).toContain("default-src 'none'");
    }
  });
});

describe('headers sent slowly', () => {
  it('http.headers_timeout is published; past it the socket gets 408 err bad and is closed, on both apps', async () => {
    const lim = (await (await fetch(`${s.url}/limits`, { headers: { accept: 'application/json' } })).json()) as {
      limits: Array<{ key: string; value: number }>;
    };
    const t = lim.limits.find((l) => l.key === 'http.headers_timeout');
    expect(t?.value).toBe(limit('http.headers_timeout'));
    expect(t!.value).toBeLessThanOrEqual(10);
    // A header line every 300 ms, never the blank line that ends them.
    const slow = (base: string) => raw(base, 'GET /healthz HTTP/1.1\r\nHost: x\r\n', { line: 'X-Slow: 1\r\n', every: 300 });
    const [commons, catalog] = await Promise.all([slow(s.url), slow(s.catalogUrl)]);
    for (const r of [commons, catalog]) {
      expect(r.text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(r.text.endsWith('\r\n\r\nerr bad request not received in time\n')).toBe(true);
      expect(r.ms).toBeGreaterThanOrEqual(t!.value * 1000 - 100);
      // Node checks the deadline every second.
      expect(r.ms).toBeLessThan(t!.value * 1000 + 3000);
    }
    // A request whose headers come in time is served as usual.
    expect((await raw(s.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).text).toMatch(/^HTTP\/1\.1 200 /);
  }, 20_000);
});

describe('malformed MCP bodies in the log', () => {
  type Call = [string, Record<string, unknown>, string | undefined];
  function spy(): { calls: Call[]; restore(): void } {
    const log = s.core.log as unknown as Record<string, unknown>;
    const calls: Call[] = [];
    const saved = { info: log.info, warn: log.warn, error: log.error };
    for (const level of ['info', 'warn', 'error'] as const) log[level] = (o: Record<string, unknown>, m?: string) => calls.push([level, o, m]);
    return { calls, restore: () => Object.assign(log, saved) };
  }

  it('/mcp and /mcp/svc/{name}: one line at info, the message only (no error object, no stack)', async () => {
    // The sample services are served once their known-answer tests pass.
    for (let i = 0; i < 200; i++) {
      const list = (await (await fetch(`${s.url}/v1/svc`, { headers: { accept: 'application/json' } })).json()) as {
        services: Array<{ name: string; served: boolean }>;
      };
      if (list.services.some((x) => x.name === 'text-stats' && x.served)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const sp = spy();
    try {
      for (const [path, body, extra] of [
        ['/mcp/svc/text-stats', '{}', {}],
        ['/mcp/svc/text-stats', '[]', {}],
        ['/mcp/svc/text-stats', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { 'mcp-protocol-version': '2026-07-28' }],
        ['/mcp', '{}', { 'mcp-protocol-version': '2026-07-28' }],
      ] as const) {
        const r = await fetch(`${s.url}${path}`, { method: 'POST', body, headers: { ...h, ...extra } });
        expect(r.status, `${path} ${body}`).toBe(400);
        await r.arrayBuffer();
      }
    } finally {
      sp.restore();
    }
    const mcpLines = sp.calls.filter(([, , m]) => m?.startsWith('mcp '));
    expect(mcpLines.length).toBe(4);
    for (const [level, o] of mcpLines) {
      expect(level).toBe('info');
      expect(typeof o.err).toBe('string');
      expect(o.err as string).not.toContain('\n');
      expect(JSON.stringify(o)).not.toContain('stack');
    }
    expect(mcpLines.filter(([, o]) => o.svc === 'text-stats')).toHaveLength(3);
    expect(sp.calls.filter(([level]) => level !== 'info')).toEqual([]);
  });

  it('anything but a rejected request is a warn line, still without the stack', () => {
    const calls: Array<[string, Record<string, unknown>]> = [];
    const log = {
      info: (o: object) => calls.push(['info', o as Record<string, unknown>]),
      warn: (o: object) => calls.push(['warn', o as Record<string, unknown>]),
    };
    sdkErrorLog(log, { svc: 'x' })(new Error('transport broke\nsecond line'));
    sdkErrorLog(log)(new Error('Rejected inbound request (empty-batch): Bad Request: empty JSON-RPC batch'));
    expect(calls).toEqual([
      ['warn', { svc: 'x', err: 'transport broke' }],
      ['info', { err: 'Rejected inbound request (empty-batch): Bad Request: empty JSON-RPC batch' }],
    ]);
  });
});
