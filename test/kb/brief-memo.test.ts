// /brief remembers what it derives from the rows the store hands back (lines, words, token counts,
// whether a row's version is newer than the env's): a change to the KB shows in the next brief,
// and the same row asked with another env version is judged again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice = '';
let bob = '';
beforeAll(async () => {
  s = await start();
  alice = (await register(s.url, 'memoalice')).token;
  bob = (await register(s.url, 'memobob')).token;
});
afterAll(async () => s.stop());

const add = async (error: string, title: string, libs: string) => {
  const r = await fetch(`${s.url}/k`, {
    method: 'POST',
    headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' },
    body: JSON.stringify({ error, title, libs, fix: 'pin the previous minor version until the upstream fix lands', eco: 'npm' }),
  });
  expect(r.status).toBe(201);
  return /k\/(k[0-9a-z]{8})/.exec(await r.text())![1]!;
};
// Signed in: the anonymous 60 s cache does not answer.
const brief = async (q: string, env?: string) => {
  const r = await fetch(`${s.url}/brief?${new URLSearchParams({ q, b: '2000', ...(env ? { env } : {}) })}`, { headers: { authorization: `Bearer ${bob}` } });
  expect(r.status).toBe(200);
  const t = await r.text();
  const lines = t.split('\n');
  const section = (name: string) =>
    lines
      .slice(
        lines.indexOf(`${name}:`) + 1,
        lines.findIndex((l, i) => i > lines.indexOf(`${name}:`) && /^(kb|changes|digests|cache|wanted):$|^next: /.test(l)),
      )
      .filter((l) => l !== '-');
  return { t, kb: section('kb'), changes: section('changes'), digests: section('digests') };
};

describe('/brief after the KB changes', () => {
  it('a new entry of an env library shows in the next brief; the same rows are judged again for another env version', async () => {
    await add('QwmRenderError: qwmlib render crashes on empty props', 'qwmlib render crashes on empty props', 'qwmlib@2.0.0');
    const a = await brief('what changed in qwmlib', 'qwmlib@1.0.0');
    expect(a.changes).toHaveLength(1);
    expect(a.changes[0]).toMatch(/^qwmlib@2\.0\.0 \(env 1\.0\.0\): k\/k[0-9a-z]{8} qwmlib render crashes on empty props$/);
    await add('QwmCacheError: qwmlib cache eviction leaks memory', 'qwmlib cache eviction leaks memory', 'qwmlib@2.1.0');
    const b = await brief('what changed in qwmlib', 'qwmlib@1.0.0');
    expect(b.changes).toHaveLength(2);
    expect(b.changes[0]).toMatch(/^qwmlib@2\.1\.0 \(env 1\.0\.0\): .* cache eviction leaks memory$/);
    // Newer than 2.0.0 only: the 2.0.0 row is left out, then shown again for an older env.
    const c = await brief('what changed in qwmlib', 'qwmlib@2.0.5');
    expect(c.changes).toEqual([expect.stringMatching(/^qwmlib@2\.1\.0 \(env 2\.0\.5\): /)]);
    const d = await brief('what changed in qwmlib', 'qwmlib@1.0.0');
    expect(d.changes).toEqual(b.changes);
  });

  it('digests: a new one shows in the next brief; versions are judged again for another env version', async () => {
    const put = async (ver: string, lines: string) => {
      const r = await fetch(`${s.url}/dg`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' },
        body: JSON.stringify({ lib: 'qwmdg', ver, topic: 'breaking', lines }),
      });
      expect(r.status).toBe(201);
    };
    await put('1.0.0', 'removed qwmfoo');
    expect((await brief('qwmdg upgrade', 'qwmdg@0.9.0')).digests).toEqual(['qwmdg@1.0.0 breaking: removed qwmfoo']);
    await put('2.0.0', 'renamed qwmbar');
    const all = (await brief('qwmdg upgrade', 'qwmdg@0.9.0')).digests;
    expect([...all].sort()).toEqual(['qwmdg@1.0.0 breaking: removed qwmfoo', 'qwmdg@2.0.0 breaking: renamed qwmbar']);
    expect((await brief('qwmdg upgrade', 'qwmdg@1.5.0')).digests).toEqual(['qwmdg@2.0.0 breaking: renamed qwmbar']);
    expect((await brief('qwmdg upgrade', 'qwmdg@0.9.0')).digests).toEqual(all);
  });

  it("a confirmation shows in the next brief's kb line", async () => {
    const id = await add('QwmScoreError: qwmscore widget overflows its frame', 'qwmscore widget overflows its frame', 'qwmscore@1.0.0');
    const line = async () => (await brief('qwmscore widget overflows')).kb.find((l) => l.startsWith(`k/${id} `));
    expect(await line()).toMatch(/ score=0 /);
    const ok = await fetch(`${s.url}/k/${id}/ok`, { method: 'POST', headers: { authorization: `Bearer ${bob}` } });
    expect(ok.status).toBe(200);
    expect(await line()).toMatch(/ score=1 /);
  });
});
