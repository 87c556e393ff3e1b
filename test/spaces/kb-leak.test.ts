// Issue 39, "never published": private space entries, their signatures, the misses of members and
// the outcomes members record on private entries (notes and evidence) appear on no public surface.
// Unique strings (all holding `zqx`) are planted in space entries, in members' misses and in
// outcome notes; then every GET route of the server's own route table is walked (anonymous,
// as a browser, and as a token holder outside the space), with path parameters set to the private
// ids and to the public values that would list them (ecosystem, class, library, tag, month, the
// space), and every export file and every object of the git mirror is read. A route whose reply
// echoes a private id it was asked for must reply the same to an id nobody has.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { agent, call, req, type Who } from '../helpers/http.js';
import { mcp } from '../helpers/mcp.js';
import { skill, skillText } from '../helpers/faces.js';

let s: TestServer;
let owner: Who;
let member: Who;
let outsider: Who;
let pubId = '';
const privIds: string[] = [];
const secrets: string[] = ['zqx'];

const PRIV = [
  {
    error: 'zqxErrSecretOne: the zqxwordone fault in zqxmodule stopped the line',
    fix: 'zqxfixsecret: restart the zqxmodule with the zqxflag set.',
    title: 'zqxtitlesecret one',
    tags: ['sharedtag', 'zqxtagsecret'],
    libs: ['sharedlib@2.0', 'zqxlibsecret@1.0'],
  },
  {
    error: "KeyError: 'zqxkeysecret'",
    fix: 'zqxfixsecret two: define zqxkeysecret in the settings first.',
    title: 'zqxtitlesecret two',
    tags: ['sharedtag'],
    libs: ['sharedlib@3.0'],
  },
];
const MISS = 'zqxMissSecret: zqxmisssecret blew up in the zqxmissmodule';
const MISS_HEX = 'f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f';
const ym = () => new Date(s.core.now()).toISOString().slice(0, 7);
const today = () => new Date(s.core.now()).toISOString().slice(0, 10);

/** Pages whose counts would grow if a private entry were counted: the same bytes before and after planting. */
const COUNTED = () => [
  '/eco/pypi',
  '/err/keyerror',
  `/kb/${ym()}/`,
  '/b/live.json',
  '/b/s/vault.json',
  `/a/${member.id}.json`,
  `/b/a/${member.id}.json`,
  // The authors of the private entries that members' outcomes confirm: no reputation moves.
  `/a/${owner.id}.json`,
  `/b/a/${owner.id}.json`,
  '/f/ch.json',
  '/v1/spaces/vault.json',
  '/cutoff',
  '/search?q=sharedtag',
  '/dg/sharedlib',
  '/f/v/sharedlib.json',
  '/f/kb/sharedtag.json',
];
async function counted(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const p of COUNTED())
    out.set(p, `${(await req(s, 'GET', p, { net: '10.97.0.1' })).status} ${await (await req(s, 'GET', p, { net: '10.97.0.1' })).text()}`);
  return out;
}
let before: Map<string, string>;

beforeAll(async () => {
  // No sample data (a small KB walks fast); no measured shedding or quotas in the way of the walk.
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '0', CX_SHED: '0', CX_QUOTA_MULT: '50' });
  [owner, member, outsider] = await Promise.all([agent(s), agent(s), agent(s)]);
  await call(s, 'POST', '/v1/spaces', { as: owner, json: { slug: 'vault', closed: true } });
  const inv = JSON.parse((await call(s, 'POST', '/v1/spaces/vault/invite', { as: owner, json: {}, headers: { accept: 'application/json' } })).text)
    .invite as string;
  expect((await call(s, 'POST', '/v1/spaces/vault/join', { as: member, json: { invite: inv } })).status).toBe(200);
  // Public entries beside them: same ecosystem, class, library and tag, so every hub has rows.
  for (const [error, fix] of [
    ["KeyError: 'public_key_name'", 'Define public_key_name in the settings before reading it.'],
    ['SprocketError: sprocket slipped in the public module', 'Tighten the public sprocket and re-run the job.'],
  ]) {
    const r = await call(s, 'POST', '/k', {
      as: outsider,
      json: { error, fix, eco: 'pypi', tags: ['sharedtag'], libs: ['sharedlib@1.0'] },
      headers: { accept: 'application/json' },
    });
    expect(r.status).toBe(201);
    pubId ||= JSON.parse(r.text).id;
  }
  // Other identities confirm the public one (so /cutoff and confirmed counts have rows).
  await call(s, 'POST', `/k/${pubId}/ok`, { as: owner });
  before = await counted();

  for (const [i, e] of PRIV.entries()) {
    const r = await call(s, 'POST', '/k', { as: i ? owner : member, json: { ...e, eco: 'pypi', space: 's:vault' }, headers: { accept: 'application/json' } });
    expect(r.status, r.text).toBe(201);
    const o = JSON.parse(r.text) as { id: string; sig: string; h: string };
    privIds.push(o.id);
    secrets.push(o.id, o.h, o.h.slice(0, 12));
  }
  // Members use them, and miss, on every face: nothing of it may reach a public surface.
  for (const e of PRIV) expect((await call(s, 'POST', '/e', { as: member, text: e.error })).status).toBe(200);
  expect((await call(s, 'POST', '/e', { as: member, text: MISS })).status).toBe(404);
  expect((await call(s, 'GET', `/e/${encodeURIComponent(MISS)}`, { as: owner })).status).toBe(404);
  expect((await call(s, 'GET', `/h/${MISS_HEX}`, { as: member })).status).toBe(404);
  expect((await call(s, 'GET', `/brief?q=${encodeURIComponent(MISS)}`, { as: member })).status).toBe(200);
  const m = await mcp(s, member);
  try {
    await m.call('kb_e', { text: `${MISS} again` });
    await m.call('kb_search', { q: 'zqxmisssecret' });
  } finally {
    await m.close();
  }
  await skill(s, owner, 'kb.e', { text: `${MISS} once more` });
  // Outcomes on private entries, with notes and evidence, on every face: they stay in the space.
  const oc = await call(s, 'POST', `/k/${privIds[1]}/outcome`, {
    as: member,
    json: { kind: 'worked-with-changes', note: 'zqxoutcomenote: bled the zqxvalve first', evidence: { cmd: 'zqxcmd --reset', versions: 'zqxlibsecret@1.0' } },
  });
  expect(oc.status, oc.text).toBe(200);
  const om = await mcp(s, owner);
  try {
    const t = await om.call('kb_outcome', { id: privIds[0], kind: 'did-not-work', note: 'zqxfailnote: the zqxmodule still stops' });
    expect(t.isError, JSON.stringify(t)).toBeFalsy();
  } finally {
    await om.close();
  }
  expect((await call(s, 'POST', `/k/${privIds[1]}/ok`, { as: member })).status).toBe(200);
  expect(skillText(await skill(s, member, 'kb.outcome', { id: privIds[1], kind: 'did-not-work', note: 'zqxa2anote: broke again' }))).toMatch(/^ok /);
  // Members see the notes; the planted strings are there to be found.
  expect((await call(s, 'GET', `/k/${privIds[1]}`, { as: owner })).text).toContain('zqxa2anote');
  secrets.push(MISS_HEX, MISS_HEX.slice(0, 12));
  // A non-member's miss is demand as ever: /wanted has rows, just none of the members'.
  expect((await call(s, 'POST', '/e', { as: outsider, text: 'PublicMissError: the public gizmo failed to start' })).status).toBe(404);
  // The open-data export and the git mirror, as their daily jobs make them.
  expect((await req(s, 'POST', '/admin/export', { headers: { authorization: `Bearer ${s.config.operatorTokens.ops}` } })).status).toBe(200);
  await s.core.mirror!.sync();
}, 120_000);
afterAll(async () => s.stop());

/** The bytes as text (gzip taken off: exports, the mirror's tarball). */
function textOf(b: Buffer): string {
  return (b[0] === 0x1f && b[1] === 0x8b ? gunzipSync(b) : b).toString('latin1');
}
// Base64 runs (the signatures in SIGNATURES and index.json) are left out: three random letters in
// one matched `zqx` by chance (seen once in a full run). Only runs of 40 or more characters with
// upper and lower case and a digit are: a slug or a word (lower case, or short) is still read.
const B64_RUN = /[A-Za-z0-9+/_-]{40,}={0,2}/g;
const unrandom = (t: string) => t.replace(B64_RUN, (r) => (/[A-Z]/.test(r) && /[a-z]/.test(r) && /\d/.test(r) ? ' ' : r));
const count = (t: string, x: string) => unrandom(t).toLowerCase().split(x.toLowerCase()).length - 1;
/** Secrets a text shows more often than `base` (the reply to a value nobody has) does. */
const found = (t: string, base = '') => secrets.filter((x) => count(t, x) > count(base, x));

/** Full paths of the fastify route tree with their methods (printRoutes is a radix tree: segments concatenate). */
function routeTable(): Array<{ path: string; methods: string[] }> {
  const out: Array<{ path: string; methods: string[] }> = [];
  const stack: string[] = [];
  for (const l of s.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)(?:├── |└── )(.*?)(?: \(([^)]*)\))?$/.exec(l);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack[depth] = (depth ? stack[depth - 1]! : '') + m[2]!;
    stack.length = depth + 1;
    if (m[3]) out.push({ path: stack[depth]!, methods: m[3].split(', ') });
  }
  return out;
}

const PUBLIC_VALUES = (): Record<string, string[]> => ({
  id: [pubId, member.id, owner.id],
  slug: ['vault'],
  eco: ['pypi'],
  class: ['keyerror'],
  ym: [ym()],
  lib: ['sharedlib'],
  x: ['2.0'],
  topic: ['install'],
  key: ['sharedtag'],
  target: ['sharedlib', 'vault'],
  name: ['sharedlib'],
  file: [`kb-${today()}.jsonl.gz`, `wanted-${today()}.jsonl.gz`],
  code: ['notfound'],
});
// Streams and protocols that never end or need their own client; operator routes are not public.
const SKIP = /\/mcp|\/sse|stream|^\/git\/kb\.git|^\/admin|\*|:token/;

it('no public route, export file or mirror object shows a private entry or a member miss; counted pages do not count them', async () => {
  const leaks: string[] = [];
  const visit = async (path: string, base?: { path: string; echo: [string, string] }) => {
    for (const [who, accept] of [
      [null, '*/*'],
      [null, 'text/html'],
      [outsider, 'application/json'],
    ] as const) {
      const get = async (p: string) => textOf(Buffer.from(await (await req(s, 'GET', p, { as: who, net: '10.98.0.1', headers: { accept } })).arrayBuffer()));
      const t = await get(path);
      const f = found(t, base ? (await get(base.path)).replaceAll(base.echo[0], base.echo[1]) : '');
      if (f.length) leaks.push(`${who ? 'outsider' : 'anon'} ${accept} GET ${path}: ${f.join(', ')}`);
    }
  };
  const routes = routeTable().filter((r) => r.methods.includes('GET') && !SKIP.test(r.path));
  expect(routes.length).toBeGreaterThan(120);
  const values = PUBLIC_VALUES();
  let visited = 0;
  for (const r of routes) {
    const params = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    if (!params.length) {
      await visit(r.path);
      visited++;
      continue;
    }
    // The public values that would list a private entry, then each private id against an id nobody has.
    const fill = (v: (p: string) => string) => r.path.replace(/:(\w+)/g, (_m, p: string) => encodeURIComponent(v(p)));
    const n = Math.max(...params.map((p) => (values[p] ?? ['x']).length));
    for (let i = 0; i < n; i++) await visit(fill((p) => (values[p] ?? ['x'])[Math.min(i, (values[p] ?? ['x']).length - 1)]!));
    if (params.includes('id'))
      for (const id of privIds)
        await visit(
          fill((p) => (p === 'id' ? id : (values[p] ?? ['x'])[0]!)),
          { path: fill((p) => (p === 'id' ? 'kqqqqqqqq' : (values[p] ?? ['x'])[0]!)), echo: ['kqqqqqqqq', id] },
        );
    visited++;
  }
  // Routes behind wildcards: feeds, sitemap and site files, the export directory.
  const listing = (await (await req(s, 'GET', '/export/index.json')).json()) as { files: Array<{ name: string }> };
  expect(listing.files.length).toBeGreaterThan(3);
  const extra = [
    ...[
      'kb',
      'kb/sharedtag',
      'v/sharedlib',
      't',
      `a/${member.id}`,
      `a/${owner.id}`,
      's/vault',
      'q/sharedtag',
      'ch',
      'wanted',
      'log',
      'ps',
      'sys',
      'p',
      'st/sharedlib',
    ].flatMap((f) => [`/f/${f}.atom`, `/f/${f}.json`]),
    '/sitemap.xml',
    '/robots.txt',
    '/kb/',
    '/wanted?n=100',
    '/search?q=sharedlib',
    '/brief?q=KeyError&env=sharedlib@2.0',
    '/git/kb.tar.gz',
    '/export/latest.jsonl.gz',
    ...listing.files.map((f) => `/export/${f.name}`),
  ];
  for (const p of extra) await visit(p);
  const wanted = await (await req(s, 'GET', '/wanted?n=100')).text();
  expect(wanted).toMatch(/^wanted rows=[1-9]/);
  expect(wanted).toContain('PublicMissError');
  expect(wanted).not.toMatch(/zqx/i);
  // Last, as they record an anonymous miss: the lookups of a private hash and a private error text
  // by outsiders get what a hash or a text nobody filed gets.
  const h = secrets[2]!;
  await visit(`/h/${h}`, { path: `/h/${'e'.repeat(64)}`, echo: ['e'.repeat(64), h] });
  for (const e of PRIV) {
    const own = secrets.filter((x) => /^[0-9a-f]{12,64}$/.test(x));
    // The signature and hash of a text are the sender's own (derived from what they sent).
    const t = await (await req(s, 'GET', `/e/${encodeURIComponent(e.error)}`, { as: outsider })).text();
    const c = await (await req(s, 'GET', `/e/${encodeURIComponent(e.error.replace(/zqx/g, 'qqw'))}`, { as: outsider })).text();
    const f = found(t, c.replace(/qqw/g, 'zqx')).filter((x) => !own.includes(x));
    if (f.length) leaks.push(`GET /e/<private error>: ${f.join(', ')}`);
  }

  // Every file the export job and the mirror wrote (the database files are not published).
  const files: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  for (const d of ['export', 'git']) if (existsSync(join(s.dir, d))) walk(join(s.dir, d));
  expect(files.some((f) => f.includes(`${join(s.dir, 'export')}`))).toBe(true);
  for (const f of files) {
    const hit = found(textOf(readFileSync(f)));
    if (hit.length) leaks.push(`file ${f.slice(s.dir.length)}: ${hit.join(', ')}`);
  }
  // Git objects are compressed: read each one through git itself.
  const repos = files.filter((f) => f.endsWith('/HEAD') && existsSync(join(f, '..', 'objects'))).map((f) => join(f, '..'));
  expect(repos.length).toBeGreaterThan(0);
  for (const repo of repos) {
    const all = execFileSync('git', ['--git-dir', repo, 'cat-file', '--batch-all-objects', '--batch'], { maxBuffer: 64 << 20 }).toString('latin1');
    expect(all).toContain(pubId);
    const hit = found(all);
    if (hit.length) leaks.push(`git objects of ${repo.slice(s.dir.length)}: ${hit.join(', ')}`);
  }
  expect(leaks).toEqual([]);
  expect(visited).toBe(routes.length);
  // The walk saw the public data, so it would have seen the private data had it been there.
  expect(textOf(Buffer.from(await (await req(s, 'GET', `/export/kb-${today()}.jsonl.gz`)).arrayBuffer()))).toContain(pubId);

  // Counts: every page that counts entries reads as it did before the private ones existed.
  expect(await counted()).toEqual(before);
}, 300_000);
