import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start();
});
afterAll(async () => s.stop());

const post = (path: string, body: string, type: string, headers: Record<string, string> = {}) =>
  fetch(`${s.url}${path}`, { method: 'POST', body, headers: { 'content-type': type, ...headers } });

describe('error paths, each with its exact one-line body', () => {
  it('unknown route → 404 err notfound', async () => {
    const res = await fetch(`${s.url}/nope/x?y=1`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('err notfound no route GET /nope/x\n');
  });

  it('body over its limit → 413 err size', async () => {
    const res = await post('/v1/register', 'pow=' + 'x'.repeat(70_000), 'application/x-www-form-urlencoded');
    expect(res.status).toBe(413);
    expect(await res.text()).toBe('err size body over 65536 bytes\n');
    const j = await post('/v1/register', JSON.stringify({ pow: 'x'.repeat(70_000) }), 'application/json');
    expect(j.status).toBe(413);
    expect(await j.text()).toBe('err size body over 65536 bytes\n');
  });

  it('an empty JSON body means no fields', async () => {
    const r = await post('/v1/challenge', '', 'application/json');
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/^challenge /);
  });

  it('malformed JSON → 400 err bad', async () => {
    const res = await post('/v1/register', '{"pow": ', 'application/json');
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('err bad json: malformed body\n');
    const arr = await post('/v1/register', '[1,2]', 'application/json');
    expect(await arr.text()).toBe('err bad body: want an object, not an array\n');
  });

  it('malformed query and unknown fields → 400 err bad', async () => {
    const r1 = await fetch(`${s.url}/healthz?v=abc`);
    expect(r1.status).toBe(400);
    expect(await r1.text()).toMatch(/^err bad v: .+\n$/);
    const r2 = await fetch(`${s.url}/healthz?v=3`);
    expect(await r2.text()).toMatch(/^err bad v: .*2.*\n$/);
    const r3 = await fetch(`${s.url}/healthz?zzz=1`);
    expect(await r3.text()).toBe('err bad input: unknown field zzz\n');
    const r4 = await fetch(`${s.url}/v1/challenge?for=reg&for=w`, { method: 'POST' });
    expect(r4.status).toBe(400);
    expect(await r4.text()).toMatch(/^err bad for: .+\n$/);
  });

  it('a field of the wrong type is named as such, a missing one as required', async () => {
    expect(await (await fetch(`${s.url}/brief?q=x&b=abc`)).text()).toBe('err bad b: want a number, not text\n');
    expect(await (await fetch(`${s.url}/brief?q=x&q=y`)).text()).toBe('err bad q: want text, not a list\n');
    expect(await (await post('/e', JSON.stringify({ text: 5 }), 'application/json')).text()).toBe('err bad text: want text, not a number\n');
    expect(await (await fetch(`${s.url}/brief?b=300`)).text()).toBe('err bad q: required\n');
  });

  it('a malformed URL → 400 err bad, not a stack', async () => {
    const res = await fetch(`${s.url}/help/err/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^err bad .+\n$/);
  });

  it('a text body where a form is expected → 400 err bad', async () => {
    const res = await post('/v1/register', 'hello', 'text/plain');
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('err bad body: send JSON or a form, not text\n');
    const odd = await post('/v1/register', 'hello', 'application/x-unknown');
    expect(await odd.text()).toBe('err bad body: send JSON or a form, not text\n');
  });

  it('renders problem+json and JSON when asked', async () => {
    const p = await fetch(`${s.url}/nope`, { headers: { accept: 'application/problem+json' } });
    expect(p.status).toBe(404);
    expect(p.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    const pj = (await p.json()) as Record<string, unknown>;
    expect(pj).toMatchObject({ type: 'http://commons.test/help/err/notfound', status: 404, detail: 'err notfound no route GET /nope', code: 'notfound' });
    const j = await fetch(`${s.url}/nope?f=json`);
    expect(await j.json()).toEqual({ error: 'notfound', detail: 'no route GET /nope', status: 404, line: 'err notfound no route GET /nope' });
  });

  it('every error body is a single line', async () => {
    const paths = ['/nope', '/help/err/nosuch', '/healthz?v=x', '/llms.txt?rev=0', '/llms.txt?rev=99'];
    for (const p of paths) {
      const body = await (await fetch(`${s.url}${p}`)).text();
      expect(body).toMatch(/^err [a-z]+( [^\n]*)?\n$/);
    }
  });

  it('help pages come from the one code table', async () => {
    const list = await (await fetch(`${s.url}/help/err`)).text();
    for (const c of ['bad', 'auth', 'pow', 'scrub', 'hazard', 'size', 'notfound', 'dup', 'decided', 'quota', 'busy', 'frozen'])
      expect(list).toMatch(new RegExp(`^${c}\\t\\d{3}\\t`, 'm'));
    const one = await fetch(`${s.url}/help/err/quota`);
    expect(one.status).toBe(200);
    expect(await one.text()).toMatch(/^err quota\nstatus: 429\n/);
    const md = await fetch(`${s.url}/help/err/quota`, { headers: { accept: 'text/markdown' } });
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await md.text()).toMatch(/^# err quota/);
    const unknown = await fetch(`${s.url}/help/err/nosuch`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe('err notfound no such error code; see /help/err\n');
  });

  it('responses carry a request id', async () => {
    const res = await fetch(`${s.url}/healthz`);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('allowed hosts', () => {
  it('rejects a Host outside CX_ALLOWED_HOSTS (DNS rebinding)', async () => {
    const h = await start({ CX_ALLOWED_HOSTS: 'commons.test,127.0.0.1' });
    try {
      expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
      const { request } = await import('node:http');
      const status = await new Promise<number>((resolve, reject) => {
        const u = new URL(h.url);
        request({ host: u.hostname, port: u.port, path: '/healthz', headers: { host: 'evil.example' } }, (r) => {
          r.resume();
          resolve(r.statusCode!);
        })
          .on('error', reject)
          .end();
      });
      expect(status).toBe(421);
    } finally {
      await h.stop();
    }
  });
});
