// Freezes and maintenance windows live in the store: set through the core API, they hold for a new
// server on the same data directory, over HTTP, until lifted or until the window ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { del, get, proof, put, secret, wkey, xff } from '../drops/helpers.js';
import { register, start, type TestServer } from '../helpers/server.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-control-'));
const env = { CX_TRUST_PROXY: '1' };
let s: TestServer | null = null;

afterAll(async () => {
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

// The servers' clock: real time plus `shift`, so a test can step past a window instead of waiting
// for it (a restart on a loaded machine can take longer than a short window lasts).
let shift = 0;
const now = () => Date.now() + shift;

async function restart(): Promise<TestServer> {
  await s?.stop();
  s = await start(env, { dir, now });
  return s;
}

const health = async (url: string) =>
  (await (await fetch(`${url}/healthz?v=2`, { headers: { accept: 'application/json' } })).json()) as {
    frozen: string[];
    maintenance_until: string | null;
    shed: number;
    shed_reasons: string[];
  };

describe('persisted control state', () => {
  it('a drops freeze set through the core API holds after a restart (503 err frozen drops) until lifted', async () => {
    let srv = await restart();
    const tok = (await register(srv.url, undefined, xff())).token;
    const sec = secret();
    expect((await put(srv.url, sec, 'before', { token: tok, query: 'reads=5' })).status).toBe(201);
    expect(await srv.core.control.freeze('drops', true, 'admin', 'incident 7')).toBe(true);

    srv = await restart();
    const r = await put(srv.url, secret(), 'during', { token: tok });
    expect(r.status).toBe(503);
    expect(await r.text()).toBe('err frozen drops\n');
    // Other kinds and reads are untouched.
    expect((await get(srv.url, sec)).status).toBe(200);
    expect((await health(srv.url)).frozen).toEqual(['drops']);

    expect(await srv.core.control.freeze('drops', false, 'admin')).toBe(true);
    expect((await put(srv.url, secret(), 'after', { token: tok })).status).toBe(201);
    srv = await restart();
    expect((await put(srv.url, secret(), 'after restart', { token: tok })).status).toBe(201);
    expect((await health(srv.url)).frozen).toEqual([]);
  });

  it('an operator shed level survives a restart and sheds /brief', async () => {
    let srv = await restart();
    await srv.core.control.setShed(2, 'db maintenance');
    srv = await restart();
    const h = await health(srv.url);
    expect(h.shed).toBe(2);
    expect(h.shed_reasons).toContain('operator');
    const b = await fetch(`${srv.url}/brief?q=anything`, { headers: xff() });
    expect(b.status).toBe(503);
    expect(await b.text()).toMatch(/^err busy shed level 2: heavy work .* retry later\n$/); // briefs shed from level 2 (src/core/platform/control/shed.ts)
    await srv.core.control.setShed(0, '');
    expect((await health(srv.url)).shed).toBe(0);
  });

  it('a maintenance window stops anonymous and token writes across a restart until it ends; the PoW proof is not spent', async () => {
    let srv = await restart();
    const tok = (await register(srv.url, undefined, xff())).token;
    const ends = now() + 60_000;
    await srv.core.control.addMaintenance({ starts: now() - 1000, ends, text: 'disk swap' });

    srv = await restart();
    expect((await health(srv.url)).maintenance_until).toBe(new Date(ends).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    const pow = await proof(srv.url);
    const sec = secret();
    const k = wkey();
    const anon = await put(srv.url, sec, 'anonymous', { wk: k, pow });
    expect(anon.status).toBe(503);
    expect(await anon.text()).toBe('err frozen drops\n');
    const note = await fetch(`${srv.url}/v1/notes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tok}`, 'content-type': 'text/plain', ...xff() },
      body: 'during',
    });
    expect(note.status).toBe(503);
    expect(await note.text()).toBe('err frozen notes\n');
    const reg = await fetch(`${srv.url}/v1/register`, {
      method: 'POST',
      headers: xff(),
      body: new URLSearchParams({ pow: await proof(srv.url, xff(), 'reg') }),
    });
    expect(reg.status).toBe(503);
    expect(await reg.text()).toBe('err frozen reg\n');

    // After `ends` the same proof still works: the frozen request never reached the PoW step.
    shift += ends - now() + 200;
    expect((await put(srv.url, sec, 'anonymous', { wk: k, pow })).status).toBe(201);
    expect((await health(srv.url)).maintenance_until).toBeNull();
    expect((await del(srv.url, sec, { wk: k })).status).toBe(200);
  });
});
