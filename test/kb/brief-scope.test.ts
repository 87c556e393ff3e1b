// /brief shows only what concerns the question: `changes` of the question's libraries or about its
// words, and `wanted` signatures about its words, never more of other agents' lookups than the
// scrubbed signature.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errsig } from '../../src/core/kb/errsig/errsig.js';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let tok = '';
beforeAll(async () => {
  s = await start({ CX_SEED: '1' }); // the sample KB
  tok = (await register(s.url, 'scoper')).token;
  const add = (error: string, title: string, libs: string) =>
    fetch(`${s.url}/k`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' },
      body: JSON.stringify({ error, title, libs, fix: 'pin the previous minor version until the upstream fix lands', eco: 'npm' }),
    });
  expect((await add('ZzqRenderError: render crashes on empty props', 'zzqlib render crashes on empty props', 'zzqlib@2.0.0')).status).toBe(201);
  expect((await add('ZzqCacheError: eviction leaks memory', 'zzqlib cache eviction leaks memory', 'zzqlib@2.1.0')).status).toBe(201);
  // Misses other agents made: one about the question, one not; both name a library in a path.
  const miss = (body: string) => fetch(`${s.url}/e`, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });
  expect((await miss('ZzqFrobError: frobnicator broke for bob@example.com\n    at run (/home/bob/app/node_modules/zzqsecretpkg/index.js:3:9)')).status).toBe(
    404,
  );
  expect((await miss('ZzqFluxError: quantum capacitor drained\n    at run (/home/eve/app/node_modules/zzqotherpkg/index.js:3:9)')).status).toBe(404);
  await new Promise((r) => setTimeout(r, 1100)); // briefs read the wanted list at most once a second
});
afterAll(async () => s.stop());

const brief = async (q: Record<string, string>) => {
  const r = await fetch(`${s.url}/brief?${new URLSearchParams({ b: '2000', ...q })}`, { headers: { authorization: `Bearer ${tok}` } });
  expect(r.status).toBe(200);
  const t = await r.text();
  const section = (name: string) => {
    const lines = t.split('\n');
    const from = lines.indexOf(`${name}:`);
    const out: string[] = [];
    for (let i = from + 1; i < lines.length && !/^(kb|changes|digests|cache|wanted):$|^next: /.test(lines[i]!); i++) out.push(lines[i]!);
    return out.filter((l) => l !== '-');
  };
  return { t, changes: section('changes'), wanted: section('wanted') };
};

describe('/brief sections scoped to the question', () => {
  it('changes: only rows about the question words, unless the question names the library', async () => {
    const a = await brief({ q: 'render crashes when props are empty', env: 'zzqlib@1.0.0' });
    expect(a.changes).toHaveLength(1);
    expect(a.changes[0]).toMatch(/^zzqlib@2\.0\.0 \(env 1\.0\.0\): k\/k[0-9a-z]{8} zzqlib render crashes on empty props$/);
    const b = await brief({ q: 'what changed in zzqlib lately', env: 'zzqlib@1.0.0' });
    expect(b.changes).toHaveLength(2);
    const c = await brief({ q: 'kubernetes pod pending', env: 'zzqlib@1.0.0' });
    expect(c.changes).toEqual([]);
  });

  it('kb: an error text as the question finds its coarse match when nothing has its exact signature', async () => {
    const a = await brief({ q: "ModuleNotFoundError: No module named 'zzqwidgets'" });
    const kb = a.t.split('\n').slice(a.t.split('\n').indexOf('kb:') + 1, a.t.split('\n').indexOf('changes:'));
    expect(kb.length).toBeGreaterThan(0);
    // The first row is an entry of the same error type (titles are free text: read its signature).
    const id = /^k\/(k[0-9a-z]{8}) score=-?\d+ /.exec(kb[0]!)?.[1];
    expect(id).toBeDefined();
    const entry = (await (await fetch(`${s.url}/k/${id}?f=json`)).json()) as { sig: string };
    expect(entry.sig).toMatch(/ModuleNotFoundError/);
  });

  it('wanted: only signatures about the question, scrubbed, without the libraries or raw text', async () => {
    const a = await brief({ q: 'frobnicator broke' });
    const sig = errsig('ZzqFrobError: frobnicator broke for bob@example.com\n    at run (/home/bob/app/node_modules/zzqsecretpkg/index.js:3:9)').sig;
    expect(a.wanted).toEqual([`${sig} misses=1`]);
    expect(sig).toContain('<email>');
    expect(a.t).not.toMatch(/bob@example\.com|\/home\/bob|zzqsecretpkg/);
    expect(a.t).not.toContain('quantum capacitor');
    const b = await brief({ q: 'my quantum capacitor is drained' });
    expect(b.wanted).toHaveLength(1);
    expect(b.wanted[0]).toContain('ZzqFluxError');
    expect((await brief({ q: 'unrelated words entirely' })).wanted).toEqual([]);
  });
});
