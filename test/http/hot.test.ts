// The lean path (src/http/hot.ts, src/rest/hot.ts) answers POST /e, GET /h/{hex} and GET /brief
// before fastify. These tests send each request twice through the real server, once in the plain
// form the lean path takes and once in a form it leaves to fastify's generated route (`?f=txt`,
// `?f=json`), and check the two answers are the same; they also check the lean path really served
// the first (a counter around tryServe) and the limits and errors at its edges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let lean = 0;
const PY = 'Traceback (most recent call last):\n  File "/srv/app/x.py", line 3, in <module>\nModuleNotFoundError: No module named \'requests\'';

beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  const hot = s.app.hot;
  const serve = hot.tryServe.bind(hot);
  hot.tryServe = (req, res) => {
    const took = serve(req, res);
    if (took) lean++;
    return took;
  };
});
afterAll(async () => s.stop());

/** Status, the headers both paths must agree on, and the body. */
async function answer(path: string, init: RequestInit = {}): Promise<{ status: number; type: string | null; link: string | null; cache: string | null; robots: string | null; retry: string | null; body: string }> {
  const r = await fetch(s.url + path, init);
  return { status: r.status, type: r.headers.get('content-type'), link: r.headers.get('link'), cache: r.headers.get('cache-control'), robots: r.headers.get('x-robots-tag'), retry: r.headers.get('retry-after'), body: await r.text() };
}

/** Sends `path` plainly (lean) and with `extra` query (fastify); both answers must match. */
async function same(path: string, extra: string, init: RequestInit = {}): Promise<{ status: number; body: string }> {
  const before = lean;
  const a = await answer(path, init);
  expect(lean, `lean path took ${path}`).toBe(before + 1);
  const b = await answer(path + (path.includes('?') ? '&' : '?') + extra, init);
  expect(lean, `fastify took ${path} with ${extra}`).toBe(before + 1);
  expect(a).toEqual(b);
  return { status: a.status, body: a.body };
}

const text = (body: string): RequestInit => ({ method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body });

describe('lean path', () => {
  it('POST /e: a hit, a coarse hit and a miss answer as the generated route does (text and JSON)', async () => {
    const hit = await same('/e', 'f=txt', text(PY));
    expect(hit.status).toBe(200);
    expect(hit.body).toMatch(/^e: py:ModuleNotFoundError: No module named 'requests' hits=\d+ raw=\d+ chars match=exact\n/);
    const json = await same('/e', 'f=json', { ...text(PY), headers: { 'content-type': 'text/plain', accept: 'application/json' } });
    expect(JSON.parse(json.body)).toMatchObject({ match: 'exact', sig: "py:ModuleNotFoundError: No module named 'requests'" });
    const miss = await same('/e', 'f=txt', text('NeverSeenLeanError: nothing like it at all'));
    expect(miss.status).toBe(404);
    expect(miss.body).toMatch(/^err notfound no fix yet for .*; recorded as wanted; try GET \/brief\?q=/);
    expect(miss.body.split('\n').length).toBe(2);
  });

  it('GET /h/{hex}: found, not found and malformed', async () => {
    const { h } = JSON.parse((await answer('/e', { ...text(PY), headers: { 'content-type': 'text/plain', accept: 'application/json' } })).body) as { h: string };
    const found = await same(`/h/${h}`, 'f=txt');
    expect(found.status).toBe(200);
    expect(found.body).toMatch(new RegExp(`^h: ${h.slice(0, 12)} hits=\\d+ match=exact`));
    expect((await same(`/h/${'0'.repeat(64)}`, 'f=txt')).status).toBe(404);
    const bad = await same('/h/zz', 'f=txt');
    expect(bad).toEqual({ status: 400, body: 'err bad hash: want 64 lowercase hex of sha256(sig)\n' });
  });

  it('GET /brief: answers and refuses an unknown query parameter alike', async () => {
    // The first answer to a question is memoized (`cached=1` after it): both compared answers come from the memo.
    await answer('/brief?q=requests%20module&f=txt');
    const ok = await same('/brief?q=requests%20module', 'f=txt');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatch(/^brief q=requests module /);
    const bad = await same('/brief?q=x&bogus=1', 'f=txt');
    expect(bad.status).toBe(400);
    expect(bad.body).toBe('err bad input: unknown field bogus\n');
  });

  it('errors at the edges: empty text, text over 16 KiB, body over the route limit', async () => {
    expect(await same('/e', 'f=txt', text(''))).toEqual({ status: 400, body: 'err bad text: empty\n' });
    expect((await same('/e', 'f=txt', text('a'.repeat(16_385)))).body).toBe('err size text over 16384 bytes\n');
    const before = lean;
    const huge = await answer('/e', text('a'.repeat(3 * 16_384 + 1)));
    expect(lean).toBe(before + 1);
    expect(huge.status).toBe(413);
    expect(huge.body).toMatch(/^err size body over \d+ bytes\n$/);
    // And the connection still serves the next request.
    expect((await answer('/h/zz')).status).toBe(400);
  });

  it('leaves to fastify what it does not take: forms, browsers, repeated keys, encoded segments', async () => {
    const before = lean;
    const form = await answer('/e', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ text: PY }).toString() });
    expect(form.status).toBe(200);
    await answer('/brief?q=a&q=b');
    await answer('/h/%30');
    await answer('/e', { method: 'POST', headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' }, body: 'x' });
    expect(lean).toBe(before);
  });

  it('keeps a plain X-Request-Id, counts quotas per forwarded network and logs nothing of the body', async () => {
    const r = await fetch(`${s.url}/h/zz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(r.headers.get('x-request-id')).toBe('abc-123');
    // The `e` quota is per network: one network spends its bucket, another still gets answers.
    let limited = 0;
    for (let i = 0; i < 400 && !limited; i++) {
      const a = await answer('/h/zz', { headers: { 'x-forwarded-for': '203.0.113.9' } });
      if (a.status === 429) limited = i;
    }
    expect(limited).toBeGreaterThan(0);
    const limitedAns = await answer('/h/zz', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(limitedAns.status).toBe(429);
    expect(limitedAns.retry).toMatch(/^\d+$/);
    expect(limitedAns.body).toMatch(/^err quota e retry in \d+s\n$/);
    expect((await answer('/h/zz', { headers: { 'x-forwarded-for': '198.51.100.7' } })).status).toBe(400);
  });
});
