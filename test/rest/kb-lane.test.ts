// GET /h/{hex} in its plain form is answered by the front (src/rest/kb-lane.ts), before fastify.
// It must answer exactly as the generated route does (which still answers every other form: a
// query string, JSON, HTML, HEAD, a malformed hash), charge the same quota, and stand aside while
// request logging is on or the server is closing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errsig } from '../../src/core/kb/errsig/errsig.js';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { start, type TestServer } from '../helpers/server.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '1' }); // the sample KB and services
});
afterAll(async () => s.stop());

const tb = (mod: string) =>
  `Traceback (most recent call last):\n  File "/home/u/app/x.py", line 2, in <module>\n    import ${mod}\nModuleNotFoundError: No module named '${mod}'`;
const EXACT = errsig(tb('requests')).h; // the sample data has a fix
const COARSE = errsig(tb('zzlanewidgets')).ch;
const MISS = 'f'.repeat(64);
const answered = () => s.app.front.answered;
const HEADERS = ['content-type', 'content-length', 'x-robots-tag', 'cache-control', 'retry-after', 'link', 'x-content-type-options'];
const pick = (r: Response) => Object.fromEntries(HEADERS.map((h) => [h, r.headers.get(h)]));

describe('the front lane of GET /h/{hex}', () => {
  it('answers an exact, a coarse (related) and a missed hash byte for byte as the generated route does', async () => {
    for (const [hex, status] of [
      [EXACT, 200],
      [COARSE, 200],
      [MISS, 404],
    ] as const) {
      const before = answered();
      const lane = await fetch(`${s.url}/h/${hex}`, { headers: { 'x-forwarded-for': '10.1.1.1' } });
      expect(answered()).toBe(before + 1);
      // A query string is left to fastify: the same answer through the generated route.
      const routed = await fetch(`${s.url}/h/${hex}?f=txt`, { headers: { 'x-forwarded-for': '10.1.1.1' } });
      expect(answered()).toBe(before + 1);
      expect(lane.status).toBe(status);
      expect(routed.status).toBe(status);
      const body = await lane.text();
      expect(body).toBe(await routed.text());
      expect(pick(lane)).toEqual(pick(routed));
      expect(lane.headers.get('x-request-id')).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(await (await fetch(`${s.url}/h/${EXACT}`)).text()).toMatch(/^h: [0-9a-f]{12} hits=\d+ match=exact\nk\/k[0-9a-z]{8} /);
    expect(await (await fetch(`${s.url}/h/${COARSE}`)).text()).toMatch(/^h: [0-9a-f]{12} hits=0 match=related\nrelated: k\/k[0-9a-z]{8} /);
    expect(await (await fetch(`${s.url}/h/${MISS}`)).text()).toMatch(
      /^err notfound no fix for this hash; recorded as wanted; try POST \/e with the whole error output\n$/,
    );
  });

  it('answers POST /e with a sized text/plain body as the generated route does: exact, coarse, miss, bad input', async () => {
    const texts: Array<[string, number]> = [
      [tb('requests'), 200],
      [tb('zzlanewidgets'), 200],
      ['ZzqLaneError: nothing like it ever seen \u00e9\u4e2d\ud83d\ude00', 404],
      ['x\n'.repeat(401), 400],
    ];
    for (const [text, status] of texts) {
      const before = answered();
      const post = (q: string) =>
        fetch(`${s.url}/e${q}`, { method: 'POST', body: text, headers: { 'content-type': 'text/plain', 'x-forwarded-for': '10.2.2.2' } });
      const lane = await post('');
      expect(answered()).toBe(before + 1);
      const routed = await post('?f=txt');
      expect(answered()).toBe(before + 1);
      expect([lane.status, routed.status]).toEqual([status, status]);
      expect(await lane.text()).toBe(await routed.text());
      expect(pick(lane)).toEqual(pick(routed));
    }
    // Other bodies are the route's: empty, over the limit, a form, chunked.
    const before = answered();
    const empty = await fetch(`${s.url}/e`, { method: 'POST', body: '', headers: { 'content-type': 'text/plain' } });
    expect(empty.status).toBe(400);
    const big = await fetch(`${s.url}/e`, { method: 'POST', body: 'x'.repeat(3 * 16384 + 1), headers: { 'content-type': 'text/plain' } });
    expect(big.status).toBe(413);
    expect(await big.text()).toMatch(/^err size /);
    const form = await fetch(`${s.url}/e`, { method: 'POST', body: new URLSearchParams({ text: tb('requests') }) });
    expect(form.status).toBe(200);
    const chunked = await fetch(`${s.url}/e`, {
      method: 'POST',
      body: new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(tb('requests'))), c.close()) }),
      headers: { 'content-type': 'text/plain' },
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(200);
    expect(answered()).toBe(before);
  });

  it('keeps a plain X-Request-Id, and leaves JSON, HTML, HEAD and malformed hashes to the route', async () => {
    let before = answered();
    const r = await fetch(`${s.url}/h/${EXACT}`, { headers: { 'x-request-id': 'my-trace.42' } });
    expect(r.headers.get('x-request-id')).toBe('my-trace.42');
    expect(answered()).toBe(before + 1);
    before = answered();
    const j = await fetch(`${s.url}/h/${EXACT}`, { headers: { accept: 'application/json' } });
    expect(((await j.json()) as { match: string }).match).toBe('exact');
    expect((await fetch(`${s.url}/h/${EXACT}`, { method: 'HEAD' })).status).toBe(200);
    const bad = await fetch(`${s.url}/h/${EXACT.toUpperCase()}`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe('err bad hash: want 64 lowercase hex of sha256(sig)\n');
    expect(answered()).toBe(before);
  });

  it('charges the e quota of the caller network: the 121st lookup in a minute is refused, on both paths', async () => {
    const net = { 'x-forwarded-for': '10.77.3.9' };
    let ok = 0;
    for (let i = 0; i < 120; i++) if ((await fetch(`${s.url}/h/${EXACT}`, { headers: net })).status === 200) ok++;
    expect(ok).toBe(120);
    const lane = await fetch(`${s.url}/h/${EXACT}`, { headers: net });
    const routed = await fetch(`${s.url}/h/${EXACT}?f=txt`, { headers: net });
    expect(lane.status).toBe(429);
    expect(routed.status).toBe(429);
    expect(await lane.text()).toMatch(/^err quota e retry in \d+s\n$/);
    expect(lane.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(pick(lane)['cache-control']).toBe('no-store');
    // Another network is not affected.
    expect((await fetch(`${s.url}/h/${EXACT}`, { headers: { 'x-forwarded-for': '10.78.3.9' } })).status).toBe(200);
  });

  it('stands aside while request logging is on (every request then reaches the log)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cx-lane-log-'));
    const config = loadConfig({ CX_DATA: dir, PORT: '0', CATALOG_PORT: '0', HOST: '127.0.0.1', CX_LOG_LEVEL: 'info' });
    const logged = await startServer(config, { logger: true });
    try {
      const r = await fetch(`${logged.url}/h/${EXACT}`);
      expect(r.status).toBe(200);
      expect(logged.app.front.answered).toBe(0);
    } finally {
      await logged.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
