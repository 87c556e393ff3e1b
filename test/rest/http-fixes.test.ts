// Below routing: a too-long path segment, requests Node's parser refuses, and connections kept
// alive across a shutdown. Every answer is the one-line `err` form; nothing is reset.
import { mkdtempSync, rmSync } from 'node:fs';
import { request, Agent, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { buildCatalogApp } from '../../src/catalog/app.js';
import { loadConfig } from '../../src/config.js';
import { buildCore } from '../../src/compose/core.js';
import { OPS } from '../../src/compose/registry.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { start } from '../helpers/server.js';

/** Log lines written by an app, as text. */
function sink() {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (d: Buffer) => lines.push(...d.toString('utf8').split('\n').filter(Boolean)));
  return { stream, lines };
}

const dir = mkdtempSync(join(tmpdir(), 'cx-wire-'));
const store = openSqliteStore(dir);
const core = buildCore(loadConfig({ CX_DATA: dir, CX_BASE_URL: 'http://commons.test' }), store, pino({ enabled: false }));
const commonsLog = sink();
const catalogLog = sink();
const app = await buildApp(core, OPS, { logStream: commonsLog.stream });
const catalog = await buildCatalogApp({ config: core.config.catalog, dataDir: dir, logger: { level: 'info', stream: catalogLog.stream } });
let url = '';
let curl = '';
beforeAll(async () => {
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  curl = await catalog.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await Promise.all([app.close(), catalog.close()]);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes raw bytes and reads until the server closes the connection. */
function raw(base: string, data: string): Promise<string> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const c = connect(Number(u.port), u.hostname);
    let out = '';
    c.on('data', (d) => (out += d.toString('utf8')));
    c.on('close', () => resolve(out));
    c.on('error', reject);
    c.write(data);
  });
}

describe('a path segment over the router limit', () => {
  it('commons: 414 err bad in one line (problem+json when asked), logged in one line without the path', async () => {
    const seg = 'a'.repeat(3000);
    const r = await fetch(`${url}/k/${seg}`);
    expect(r.status).toBe(414);
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await r.text()).toBe('err bad path: a segment is over 2048 characters\n');
    const p = await fetch(`${url}/k/${seg}`, { headers: { accept: 'application/problem+json' } });
    expect(p.status).toBe(414);
    expect(((await p.json()) as { detail: string }).detail).toBe('err bad path: a segment is over 2048 characters');
    // Just under the limit the route runs (and the op refuses the id as usual).
    expect((await fetch(`${url}/k/${'a'.repeat(2048)}`)).status).toBe(400);
    await new Promise((r) => setTimeout(r, 50));
    const mine = commonsLog.lines.filter((l) => l.includes('aaaaaaaaaa'));
    expect(mine.length).toBeGreaterThan(0);
    for (const l of mine) {
      expect(l).not.toContain('a'.repeat(300));
      expect(JSON.parse(l).level).toBeLessThan(50);
      expect(l).not.toContain('"stack"');
    }
  });

  it('catalog: over 100 characters is 414 err bad, logged without the path', async () => {
    const r = await fetch(`${curl}/o/${'b'.repeat(200)}`);
    expect(r.status).toBe(414);
    expect(await r.text()).toBe('err bad path: a segment is over 100 characters\n');
    await new Promise((r) => setTimeout(r, 50));
    expect(catalogLog.lines.some((l) => l.includes('b'.repeat(120)))).toBe(false);
    expect(catalogLog.lines.some((l) => JSON.parse(l).level >= 50)).toBe(false);
  });
});

describe('parser-level errors are one line, never fastify JSON', () => {
  for (const [name, base] of [
    ['commons', () => url],
    ['catalog', () => curl],
  ] as const) {
    it(`${name}: malformed request line, bad Content-Length, headers too large`, async () => {
      const bad = await raw(base(), 'GARBAGE\r\n\r\n');
      expect(bad).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(bad).toContain('Content-Type: text/plain; charset=utf-8');
      expect(bad.endsWith('\r\n\r\nerr bad malformed HTTP request\n')).toBe(true);
      const cl = await raw(base(), 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n');
      expect(cl.endsWith('\r\n\r\nerr bad malformed HTTP request\n')).toBe(true);
      const big = await raw(base(), `GET /${'h'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(big).toMatch(/^HTTP\/1\.1 431 /);
      expect(big.endsWith('\r\n\r\nerr size request line or headers too large\n')).toBe(true);
    });
  }

  it('commons: bad JSON, odd content type, body over the limit before routing', async () => {
    const post = (path: string, body: string, type: string, accept?: string) =>
      fetch(`${url}${path}`, { method: 'POST', body, headers: { 'content-type': type, ...(accept ? { accept } : {}) } });
    expect(await (await post('/v1/register', '{"pow":', 'application/json')).text()).toBe('err bad json: malformed body\n');
    expect(await (await post('/v1/register', 'x', '/;;')).text()).toBe('err bad content-type not supported: send text/plain, JSON or a form\n');
    const big = await raw(
      url,
      'POST /v1/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999\r\nConnection: close\r\n\r\n{',
    );
    expect(big).toMatch(/^HTTP\/1\.1 413 /);
    expect(big.endsWith('\r\n\r\nerr size body over 65536 bytes\n')).toBe(true);
    const pj = await post('/v1/register', '{', 'application/json', 'application/problem+json');
    expect(pj.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  });

  it('catalog: bad JSON, a text body, body over the limit', async () => {
    const post = (body: string, type: string) => fetch(`${curl}/api/order`, { method: 'POST', body, headers: { 'content-type': type } });
    expect(await (await post('{', 'application/json')).text()).toBe('err bad json: malformed body\n');
    const t = await post('x', 'text/plain');
    expect(t.status).toBe(415);
    expect(await t.text()).toMatch(/^err bad content-type: /);
    const big = await post('a=' + 'x'.repeat(10_000), 'application/x-www-form-urlencoded');
    expect(big.status).toBe(413);
    expect(await big.text()).toBe('err size body over 4096 bytes\n');
  });
});

describe('shutdown with kept-alive connections', () => {
  const get = (base: string, path: string, agent: Agent | false) =>
    new Promise<{ res: IncomingMessage; body: string; reused: boolean }>((resolve, reject) => {
      const req = request(base + path, { agent }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ res, body, reused: req.reusedSocket }));
      });
      req.on('error', reject);
      req.end();
    });

  it('a request on an idle kept-alive connection during close gets 503 err busy with Connection: close, not a reset', async () => {
    const s = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(s.url, '/healthz', agent);
      expect(first.res.statusCode).toBe(200);
      const closing = s.stop();
      // Wait until the server drains (a fresh connection is told so), then use the idle kept-alive socket.
      for (let i = 0; i < 100; i++) {
        const probe = await get(s.url, '/healthz', false);
        if (probe.res.statusCode === 503) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      const during = await get(s.url, '/healthz', agent);
      expect(during.reused).toBe(true);
      expect(during.res.statusCode).toBe(503);
      expect(during.res.headers.connection).toBe('close');
      expect(during.body).toBe('err busy shutting down\n');
      await closing;
    } finally {
      agent.destroy();
    }
  });
});
