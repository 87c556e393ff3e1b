import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errsig } from '../../src/core/kb/errsig/errsig.js';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { id: string; token: string };
let bob: { id: string; token: string };
let carol: { id: string; token: string };

const PY_ERR = (user: string, line: number) => `Traceback (most recent call last):
  File "/home/${user}/proj/app.py", line ${line}, in <module>
    import zzqfrobnicate
ModuleNotFoundError: No module named 'zzqfrobnicate'`;

beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '1' }); // the sample KB and services
  alice = await register(s.url, 'alice', { 'x-forwarded-for': '10.9.1.1' });
  bob = await register(s.url, 'bob', { 'x-forwarded-for': '10.9.2.1' });
  carol = await register(s.url, 'carol', { 'x-forwarded-for': '10.9.3.1' });
});
afterAll(async () => s.stop());

const auth = (t: { token: string }) => ({ authorization: `Bearer ${t.token}` });
const postE = (body: string, q = '', headers: Record<string, string> = {}) =>
  fetch(`${s.url}/e${q}`, { method: 'POST', body, headers: { 'content-type': 'text/plain', ...headers } });

async function addEntry(who: { token: string }, body: Record<string, unknown>) {
  const r = await fetch(`${s.url}/k`, { method: 'POST', headers: { ...auth(who), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return r;
}

let entryId = '';

describe('POST /e and publishing', () => {
  it('a miss is 404 err notfound, one line naming the next step, and is recorded as wanted', async () => {
    // An error whose code and template the KB has never seen: neither level matches. (A missing
    // module of another name is a coarse match of the sample data's ModuleNotFoundError fixes.)
    const text = 'Traceback (most recent call last):\n  File "/srv/flux.py", line 3, in <module>\n    boot()\nZzqFluxError: capacitor zzq overloaded';
    const r = await postE(text);
    expect(r.status).toBe(404);
    const { sig } = errsig(text);
    expect(await r.text()).toBe(`err notfound no fix yet for ${sig}; recorded as wanted; try GET /brief?q=ZzqFluxError+capacitor+zzq+overloaded\n`);
    const w = await (await fetch(`${s.url}/wanted`)).text();
    expect(w).toContain(sig);
  });

  it('publishing needs a token; a publish returns the id and signature', async () => {
    const anon = await fetch(`${s.url}/k`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anon.status).toBe(401);
    const r = await addEntry(alice, {
      error: PY_ERR('alice', 12),
      fix: 'pip install zzqfrobnicate inside the active virtualenv',
      eco: 'pypi',
      libs: 'zzqfrobnicate@1.2.0',
      tags: ['python', 'import'],
    });
    expect(r.status).toBe(201);
    const t = await r.text();
    const m = /^ok k\/(k[0-9a-z]{8}) sig=(.+)\n/.exec(t);
    expect(m).not.toBeNull();
    entryId = m![1]!;
    expect(m![2]).toBe(errsig(PY_ERR('x', 1)).sig);
  });

  it('the same error with other volatile parts finds the fix, with the exact text form and canonical link', async () => {
    const text = PY_ERR('someoneelse', 99);
    const r = await postE(text);
    expect(r.status).toBe(200);
    const { sig } = errsig(text);
    expect(r.headers.get('link')).toBe(`</e/${encodeURIComponent(sig)}>; rel=canonical`);
    const lines = (await r.text()).trimEnd().split('\n');
    expect(lines[0]).toBe(`e: ${sig} hits=1 raw=${text.length} chars match=exact`);
    expect(lines[1]).toMatch(new RegExp(`^k/${entryId} score=0 confirms=0 fails=0 `));
    expect(lines).toContain('fix: pip install zzqfrobnicate inside the active virtualenv');
    expect(lines).toContain('libs: zzqfrobnicate@1.2.0');
    expect(lines.at(-1)).toMatch(/^next: GET \/k\//);
  });

  it('?f=json, ?f=md and ?f=gha', async () => {
    const j = (await (await postE(PY_ERR('a', 1), '?f=json')).json()) as { sig: string; hits: number; entries: { id: string }[] };
    expect(j.hits).toBe(1);
    expect(j.entries[0]!.id).toBe(entryId);
    const md = await postE(PY_ERR('a', 1), '?f=md');
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await md.text()).toMatch(/^### Agent Commons: `/);
    const gha = await (await postE(PY_ERR('a', 1), '?f=gha')).text();
    expect(gha).toMatch(/^::notice title=Agent Commons%3A [^\n]*::pip install zzqfrobnicate[^\n]*%0A\(untrusted advice/);
    expect(gha.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('accepts the form field text', async () => {
    const r = await fetch(`${s.url}/e`, { method: 'POST', body: new URLSearchParams({ text: PY_ERR('f', 2) }) });
    expect(r.status).toBe(200);
  });

  it('tells a caller who sent raw text labelled as a form (curl -d) how to send it', async () => {
    const r = await fetch(`${s.url}/e`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: PY_ERR('f', 2) });
    expect(r.status).toBe(400);
    expect(await r.text()).toBe('err bad text: required (send the text as Content-Type: text/plain, or as form field text)\n');
  });

  it('enforces 16 KiB and 400 lines at their edges', async () => {
    const pad = (n: number) => `ModuleNotFoundError: No module named 'qq'\n` + 'x'.repeat(n - 42);
    expect(Buffer.byteLength(pad(16384))).toBe(16384);
    expect([200, 404]).toContain((await postE(pad(16384))).status);
    const big = await postE(pad(16385));
    expect(big.status).toBe(413);
    expect(await big.text()).toBe('err size text over 16384 bytes\n');
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join('\n');
    expect([200, 404]).toContain((await postE(lines(400))).status);
    const many = await postE(lines(401));
    expect(many.status).toBe(400);
    expect(await many.text()).toBe('err bad text: 401 lines, at most 400\n');
    // A final newline ends line 400; it is not a 401st line (as `wc -l` and editors count).
    expect([200, 404]).toContain((await postE(lines(400) + '\n')).status);
    const manyNl = await postE(lines(401) + '\n');
    expect(manyNl.status).toBe(400);
    expect(await manyNl.text()).toBe('err bad text: 401 lines, at most 400\n');
    const empty = await postE('   ');
    expect(await empty.text()).toBe('err bad text: empty\n');
    const huge = await postE('x'.repeat(60_000));
    expect(huge.status).toBe(413);
  });

  it('refuses secrets and bad fields on publish', async () => {
    const leak = await addEntry(alice, { error: PY_ERR('a', 1), fix: 'export GITHUB_TOKEN=ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8', eco: 'pypi' });
    expect(leak.status).toBe(400);
    expect(await leak.text()).toMatch(/^err scrub github body@\d+\n$/);
    const badEco = await addEntry(alice, { error: 'x', fix: 'do the thing properly', eco: 'cpan' });
    expect(await badEco.text()).toMatch(/^err bad eco: /);
    const badLib = await addEntry(alice, { error: 'Error: x', fix: 'do the thing properly', eco: 'npm', libs: ['left pad'] });
    expect(await badLib.text()).toMatch(/^err bad libs: /);
  });
});

describe('reads', () => {
  it('GET /e/{msg}, GET /h/{hex}', async () => {
    const { sig, h } = errsig(PY_ERR('p', 5));
    const page = await fetch(`${s.url}/e/${encodeURIComponent("ModuleNotFoundError: No module named 'zzqfrobnicate'")}`);
    expect(page.status).toBe(200);
    const t = await page.text();
    expect(t.split('\n')[1]).toBe(`h: ${h.slice(0, 12)}`);
    expect(t).toContain(sig);
    const miss = await fetch(`${s.url}/e/${encodeURIComponent('TotallyUnknownError: nothing here at all')}`);
    expect(miss.status).toBe(404);
    const hh = await fetch(`${s.url}/h/${h}`);
    expect(hh.status).toBe(200);
    expect(hh.headers.get('x-robots-tag')).toBe('noindex');
    expect(await hh.text()).toMatch(new RegExp(`^h: ${h.slice(0, 12)} hits=1 match=exact\\nk/${entryId} `));
    const bad = await fetch(`${s.url}/h/ABC`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe('err bad hash: want 64 lowercase hex of sha256(sig)\n');
    const none = await fetch(`${s.url}/h/${'0'.repeat(64)}`);
    expect(none.status).toBe(404);
    expect(((await (await fetch(`${s.url}/wanted?f=json`)).json()) as { rows: { h: string }[] }).rows.some((r) => r.h === '0'.repeat(64))).toBe(true);
  });

  it('lookups are counted per signature and show on the entry, written in the background', async () => {
    const hitsOf = async () => ((await (await fetch(`${s.url}/k/${entryId}.json`)).json()) as { hits: number }).hits;
    // Earlier tests' lookups settle first (counts are handed over every 200 ms and written once a
    // second by a lowest-priority thread; on a loaded machine later): wait until the count stays the
    // same for three reads in a row, 500 ms apart.
    let before = await hitsOf();
    for (let i = 0, same = 0; i < 60 && same < 3; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const now = await hitsOf();
      same = now === before ? same + 1 : 0;
      before = now;
    }
    for (let i = 0; i < 3; i++) expect((await postE(PY_ERR(`u${i}`, 40 + i))).status).toBe(200);
    expect((await fetch(`${s.url}/h/${errsig(PY_ERR('x', 1)).h}`)).status).toBe(200);
    let after = before;
    for (let i = 0; i < 150 && after < before + 4; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await hitsOf();
    }
    expect(after).toBe(before + 4);
  });

  it('GET /k/{id}: text and twins; browsers go to /kb/{id}, which escapes agent text', async () => {
    const t = await (await fetch(`${s.url}/k/${entryId}`)).text();
    expect(t).toMatch(new RegExp(`^k ${entryId} score=0 confirms=0 fails=0 hits=\\d+ eco=pypi by ${alice.id} \\d{4}-\\d\\d-\\d\\d untrusted\\n`));
    // The same text but for the live lookup count (earlier lookups' counts may land in between).
    const live = (x: string) => x.replace(/ hits=\d+ /, ' hits=N ');
    expect(live(await (await fetch(`${s.url}/k/${entryId}.txt`)).text())).toBe(live(t));
    const j = (await (await fetch(`${s.url}/k/${entryId}.json`)).json()) as { id: string; license: string };
    expect(j).toMatchObject({ id: entryId, license: 'CC0-1.0' });
    expect(await (await fetch(`${s.url}/k/${entryId}.md`)).text()).toMatch(/^# /);
    const html = await fetch(`${s.url}/k/${entryId}`, { headers: { accept: 'text/html' }, redirect: 'manual' });
    expect(html.status).toBe(301);
    expect(html.headers.get('location')).toBe(`/kb/${entryId}`);
    const evil = await addEntry(bob, {
      error: 'Error: <script>alert(1)</script> boom',
      fix: '<img src=x onerror=alert(1)> use the safe API',
      eco: 'npm',
      title: '<b>bold</b> title',
    });
    const evilId = /k\/(k\w+)/.exec(await evil.text())![1]!;
    const page = await (await fetch(`${s.url}/kb/${evilId}`)).text();
    expect(page).not.toMatch(/<script>alert|<img src=x|<b>bold/);
    expect(page).toContain('&lt;script&gt;');
    expect((await fetch(`${s.url}/k/kzzzzzzzz`)).status).toBe(404);
    expect((await fetch(`${s.url}/k/nope`)).status).toBe(400);
  });
});

describe('votes and reputation', () => {
  it('one confirmation per identity raises score and the author rep; own entries cannot be voted', async () => {
    const ok = (who: { token: string }) => fetch(`${s.url}/k/${entryId}/ok`, { method: 'POST', headers: auth(who) });
    const r1 = await ok(bob);
    expect(r1.status).toBe(200);
    expect(await r1.text()).toBe(`ok k/${entryId} confirms=1 fails=0 score=1\nnext: GET /k/${entryId} for its outcomes and notes\n`);
    const again = await ok(bob);
    expect(again.status).toBe(409);
    expect(await again.text()).toBe('err dup already confirmed\n');
    const own = await ok(alice);
    expect(await own.text()).toBe('err dup own entry: others confirm your fixes\n');
    const fail = await fetch(`${s.url}/k/${entryId}/fail`, { method: 'POST', headers: auth(carol) });
    expect(await fail.text()).toBe(`ok k/${entryId} confirms=1 fails=1 score=0\nnext: GET /k/${entryId} for its outcomes and notes\n`);
    // Carol changes her mind: the vote moves, it does not add.
    expect(await (await ok(carol)).text()).toBe(`ok k/${entryId} confirms=2 fails=0 score=2\nnext: GET /k/${entryId} for its outcomes and notes\n`);
    const me = await (await fetch(`${s.url}/v1/me`, { headers: auth(alice) })).text();
    // Reputation follows weighted outcomes: bob and carol (new, L0) confirm from one network, one
    // principal weighing 0.125: rep round(5 x 0.13) = 1.
    expect(me).toMatch(/ rep=1 confirmed=1 /);
    const anon = await fetch(`${s.url}/k/${entryId}/ok`, { method: 'POST' });
    expect(anon.status).toBe(401);
  });
});

describe('search, hubs, archive, sample data', () => {
  it('search finds by words; hubs list by ecosystem and class', async () => {
    const r = await (await fetch(`${s.url}/search?q=zzqfrobnicate`)).text();
    expect(r).toMatch(new RegExp(`^search hits=1\\nk/${entryId} `));
    expect((await fetch(`${s.url}/search?q=a`)).status).toBe(400);
    const eco = await (await fetch(`${s.url}/eco/pypi`)).text();
    expect(eco).toMatch(/^eco pypi fixes=\d+\n/);
    expect(eco).toContain(`k/${entryId}`);
    const badEco = await fetch(`${s.url}/eco/cpan`);
    expect(badEco.status).toBe(400);
    const cls = await (await fetch(`${s.url}/err/ModuleNotFoundError`)).text();
    // The newest fixes of the class include the one just published; the per-library breakdown is
    // capped (20 libraries, most fixes first), so the sample data's many import errors may push a
    // library with one fix off it.
    expect(cls).toMatch(/^err modulenotfounderror fixes=\d+\nlibs: \S+=\d+/);
    expect(cls).toContain(`k/${entryId}`);
    const counts = [...cls.split('\n')[1]!.matchAll(/=(\d+)/g)].map((m) => Number(m[1]));
    expect(counts.length).toBeLessThanOrEqual(20);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect((await fetch(`${s.url}/err/nosuchclassatall`)).status).toBe(404);
  });

  it('/cutoff lists date lib ver lines of releases confirmed by identities other than the seed account', async () => {
    // The sample data alone confirms nothing: a seed entry's versions are not on the ladder.
    const before = (await (await fetch(`${s.url}/cutoff?f=json`)).json()) as { rows: Array<{ lib: string; ver: string }> };
    // A seed entry of one of the most common libraries (TypeScript): the ladder ranks the top 20.
    const r = await fetch(`${s.url}/e?f=json`, {
      method: 'POST',
      body: "src/a.ts(3,7): error TS2304: Cannot find name 'zzq'.",
      headers: { 'content-type': 'text/plain' },
    });
    // The entries the answer names, a fix or related ones (TS2304 has many entries, told apart by the name).
    const named = (await r.json()) as { entries: Array<{ id: string }>; related: Array<{ id: string }> };
    const ids = [...named.entries, ...named.related].map((e) => e.id);
    const entries = await Promise.all(ids.map(async (id) => (await (await fetch(`${s.url}/k/${id}.json`)).json()) as { id: string; libs: string[] }));
    const seed = entries.find((e) => e.libs.some((l) => /^typescript@\d/.test(l)))!;
    const tsLib = seed.libs.find((l) => /^typescript@\d/.test(l))!;
    const [lib, ver] = [tsLib.slice(0, tsLib.lastIndexOf('@')), tsLib.slice(tsLib.lastIndexOf('@') + 1)];
    expect(before.rows.some((x) => x.lib === lib && x.ver === ver)).toBe(false);
    // Confirmed by an identity: now it is.
    expect((await fetch(`${s.url}/k/${seed.id}/ok`, { method: 'POST', headers: { ...auth(carol), 'x-forwarded-for': '10.9.3.1' } })).status).toBe(200);
    const t = await (await fetch(`${s.url}/cutoff`)).text();
    const lines = t.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(15);
    for (const l of lines) expect(l).toMatch(/^\d{4}-\d\d-\d\d \S+ \S+$/);
    expect(lines.some((l) => l.endsWith(` ${lib} ${ver}`))).toBe(true);
  });

  it('/kb/{ym}/ archive with prev and next; bad ym is 400', async () => {
    const ym = new Date().toISOString().slice(0, 7);
    const t = await (await fetch(`${s.url}/kb/${ym}/`)).text();
    expect(t).toMatch(new RegExp(`^kb ${ym} fixes=\\d+ prev=(\\d{4}-\\d\\d|-) next=-\\n`));
    expect(t).toContain(`k/${entryId}`);
    const html = await fetch(`${s.url}/kb/${ym}/`, { headers: { accept: 'text/html' } });
    expect(await html.text()).toMatch(/<title>Fixes of \d{4}-\d\d<\/title>/);
    const bad = await fetch(`${s.url}/kb/2026-13/`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe('err bad ym: want YYYY-MM\n');
  });

  it('seed entries carry honest dates: the day written or of the release they concern, in archives and feeds', async () => {
    // NumPy 2.0 (2024-06-16): the entry about its removals is filed under that month, at that date.
    const t = await (await fetch(`${s.url}/kb/2024-06/`)).text();
    const line = t.split('\n').find((l) => l.includes('np.float_ was removed'));
    expect(line).toBeDefined();
    const id = /k\/(k[0-9a-z]{8})/.exec(line!)![1]!;
    const e = (await (await fetch(`${s.url}/k/${id}.json`)).json()) as { created: string; author: string };
    expect(e.created.slice(0, 10)).toBe('2024-06-16');
    // Entries written here without a release date carry the day they were written, never a made-up hour.
    const feed = (await (await fetch(`${s.url}/f/kb.json`)).json()) as { items: Array<{ date_published?: string }> };
    for (const it of feed.items) if (it.date_published) expect(Date.parse(it.date_published)).toBeLessThanOrEqual(Date.now());
  });

  it('sample data is loaded on first start and answers common errors', async () => {
    const total = (await (await fetch(`${s.url}/eco/npm?f=json`)).json()) as { count: number };
    expect(total.count).toBeGreaterThan(10);
    const r = await postE(
      'Traceback (most recent call last):\n  File "/home/u/x.py", line 1, in <module>\n    import requests\nModuleNotFoundError: No module named \'requests\'',
    );
    expect(r.status).toBe(200);
  });

  it('common first errors, pasted whole from a terminal, get a real answer from the sample data', async () => {
    // Outputs as agents meet them: other paths, line numbers, hosts and values than the sample
    // data's own texts, so this also holds ErrSig's normalization to what the seed promises.
    // common-first-errors.json, plus any test/kb/realistic/*.json (same shape).
    const dir = new URL('./realistic/', import.meta.url);
    const extra = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((f) => new URL(f, dir))
      : [];
    const cases = [new URL('./common-first-errors.json', import.meta.url), ...extra].flatMap(
      (u) => JSON.parse(readFileSync(u, 'utf8')) as Array<{ name: string; output: string }>,
    );
    expect(cases.length).toBeGreaterThanOrEqual(40);
    // Every one is answered (never a miss). A fix is claimed only when `sure` says so (calibrated
    // to at most 1% confidently wrong on test/kb/eval); the others say `related` and name entries.
    // At the calibration of 2026-11-29, 332 of the 343 got a fix and all 11 others named the right
    // entry first (docs/decisions.md, "POST /e: one model decides every claim off the hot path").
    const missed: string[] = [];
    const unsure: string[] = [];
    for (const c of cases) {
      const r = await postE(c.output, '', { 'x-forwarded-for': `10.9.${cases.indexOf(c)}.1` });
      const t = await r.text();
      if (r.status !== 200) missed.push(`${c.name}: ${r.status} ${t.split('\n')[0]}`);
      else if (!/^fix: \S/m.test(t)) {
        if (!/ match=related\b/.test(t.split('\n')[0]!)) missed.push(`${c.name}: neither a fix nor related: ${t.split('\n')[0]}`);
        unsure.push(c.name);
      }
    }
    expect(missed).toEqual([]);
    expect(unsure.length, unsure.join(', ')).toBeLessThanOrEqual(Math.floor(cases.length * 0.04));
  });
});

describe('/errsig pages', () => {
  it('serves the spec, the very module the server runs, the Python port and the vectors', async () => {
    const { readFileSync } = await import('node:fs');
    const dir = new URL('../../src/core/kb/errsig/', import.meta.url);
    for (const [path, file, type] of [
      ['/errsig', 'errsig.md', 'text/plain'],
      ['/errsig.js', 'errsig.js', 'text/javascript'],
      ['/errsig.py', 'errsig.py', 'text/x-python'],
      ['/errsig.tsv', 'errsig.tsv', 'text/tab-separated-values'],
      ['/errsig-v1.js', 'errsig-v1.js', 'text/javascript'],
      ['/errsig-v1.tsv', 'errsig-v1.tsv', 'text/tab-separated-values'],
      ['/errsig-v2.js', 'errsig-v2.js', 'text/javascript'],
      ['/errsig-v2.tsv', 'errsig-v2.tsv', 'text/tab-separated-values'],
    ] as const) {
      const r = await fetch(`${s.url}${path}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(new RegExp(`^${type}`));
      expect(await r.text()).toBe(readFileSync(new URL(file, dir), 'utf8'));
    }
    // The served module is importable as-is and gives the server's answer.
    const code = await (await fetch(`${s.url}/errsig.js`)).text();
    const mod = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as { errsig: typeof errsig };
    expect(mod.errsig(PY_ERR('z', 1))).toEqual(errsig(PY_ERR('z', 1)));
    // `#` comments only come before the header (one vector's input itself starts with #).
    const lines = (await (await fetch(`${s.url}/errsig.tsv`)).text()).split('\n').filter(Boolean);
    const header = lines.findIndex((l) => l.startsWith('input\tsig\tsha256'));
    expect(header).toBeGreaterThanOrEqual(0);
    expect(lines.length - header - 1).toBe(218);
    // v2 stays published for clients that pinned it: its 107 vectors, and its module gives v2's answers.
    const v2lines = (await (await fetch(`${s.url}/errsig-v2.tsv`)).text()).split('\n').filter(Boolean);
    expect(v2lines.length - v2lines.findIndex((l) => l.startsWith('input\tsig\tsha256\tcoarse')) - 1).toBe(107);
    const v2code = await (await fetch(`${s.url}/errsig-v2.js`)).text();
    const v2mod = (await import(`data:text/javascript;base64,${Buffer.from(v2code).toString('base64')}`)) as { errsig: typeof errsig; ERRSIG_VERSION: number };
    expect(v2mod.ERRSIG_VERSION).toBe(2);
    const push =
      "To github.com:acme/widgets.git\n ! [rejected]        main -> main (non-fast-forward)\nerror: failed to push some refs to 'github.com:acme/widgets.git'";
    expect(v2mod.errsig(push).sig).toBe("other:error: failed to push some refs to 'github.com:acme/widgets.git'");
    expect(errsig(push).sig).toBe('git:! [rejected] <ref> -> <ref> (non-fast-forward)');
  });
});
