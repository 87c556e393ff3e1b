// Open-data exports through the real server: the daily job on the job queue and POST /admin/export
// write the same export; /export/ lists it (and its twins); every file matches SHA256SUMS, every
// signature verifies with openssl against /.well-known/cx-key, croissant.json passes a JSON-schema
// check of Croissant 1.0's required fields; private content never reaches a shard, removed content
// only as a tombstone; the delta and the retention across days.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Ajv } from 'ajv';
import * as ed from '@noble/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTombstone, removeKbEntry } from '../../src/core/exports/tombstones.js';
import { scheduleExport } from '../../src/core/exports/job.js';
import { agent, later, req, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';
import { mcp, toolText } from '../helpers/mcp.js';
import { canonical, opensslVerify } from '../trust/verify-helpers.js';

let s: TestServer;
let author: Who;
let other: Who;
let pub = '';
const DAY = 86_400_000;
const today = () => new Date(s.core.now()).toISOString().slice(0, 10);
const ids: Record<string, string> = {};

// Markers of content that must never be exported, and of content that must.
const NOTE_MARK = 'zqnotemarker71';
const MAIL_MARK = 'zqmailmarker72';
const DROP_MARK = 'zqdropmarker73';
const NOTE_SECRET = 'ghp_' + 'Zq8x7Wv6Ut5Sr4Qp3On2Ml1Kj0Ih9Gf8Ed7C';
const LEGACY_SECRET = 'AKIA' + 'ZQ7X6W5V4U3T2S1R';

const bytes = async (r: Response) => Buffer.from(await r.arrayBuffer());
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const ops = (path: string) => req(s, 'POST', path, { headers: { authorization: `Bearer ${s.config.operatorTokens.ops}` } });
const jsonl = (b: Buffer) =>
  b
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function addEntry(who: Who, mod: string): Promise<string> {
  const r = await req(s, 'POST', '/k', {
    as: who,
    json: { error: `ModuleNotFoundError: No module named '${mod}'`, fix: `pip install ${mod} inside the active virtualenv, then run again`, eco: 'pypi' },
  });
  expect(r.status).toBe(201);
  return /^ok k\/(k[0-9a-z]{8})/.exec(await r.text())![1]!;
}

/** Every file of the newest export, by name, fetched through /export/<name>. */
async function download(): Promise<{
  files: Map<string, { body: Buffer; res: Response }>;
  listing: { date: string; files: Array<{ name: string; size: number; sha256: string; rows: number | null }> };
}> {
  const listing = (await (await req(s, 'GET', '/export/index.json')).json()) as Awaited<ReturnType<typeof download>>['listing'];
  const files = new Map<string, { body: Buffer; res: Response }>();
  for (const f of listing.files) {
    const res = await req(s, 'GET', `/export/${f.name}`);
    expect(res.status, f.name).toBe(200);
    files.set(f.name, { body: await bytes(res), res });
  }
  return { files, listing };
}

const shard = (files: Map<string, { body: Buffer }>, kind: string, date = today()) => jsonl(gunzipSync(files.get(`${kind}-${date}.jsonl.gz`)!.body));

beforeAll(async () => {
  s = await start({ CX_SEED: '0', CX_TRUST_PROXY: '1' });
  author = await agent(s, 'author');
  other = await agent(s, 'other');
  pub = ((await (await req(s, 'GET', '/.well-known/cx-key')).json()) as { pub: string }).pub;
});
afterAll(() => s?.stop());

describe('before the first export', () => {
  it('the listing is empty (pages link it), latest and the files are 404 err notfound no export yet; /data/ moves to /export/', async () => {
    const empty = await req(s, 'GET', '/export/');
    expect(empty.status).toBe(200);
    expect((await empty.text()).split('\n')[0]).toBe('export none files=0 bytes=0 license=CC0-1.0');
    expect(await (await req(s, 'GET', '/export/index.json')).json()).toMatchObject({ date: null, files: [], bytes: 0, kid: null });
    for (const p of ['/export/latest.jsonl.gz', '/export/README.md', '/export/SHA256SUMS']) {
      const r = await req(s, 'GET', p);
      expect(r.status, p).toBe(404);
      expect(await r.text(), p).toBe('err notfound no export yet\n');
    }
    const shardR = await req(s, 'GET', `/export/kb-${today()}.jsonl.gz`);
    expect(shardR.status).toBe(404);
    for (const p of ['/export/passwd', '/export/..%2Fcommons.db', '/export/kb-2026-13-99.jsonl.gz', '/export/index.json.sig', '/export/signing.key']) {
      const r = await req(s, 'GET', p);
      expect(r.status, p).toBe(404);
      expect(await r.text(), p).toMatch(/^err notfound /);
    }
    for (const [from, to] of [
      ['/data/', '/export/'],
      ['/data', '/export/'],
      ['/data/latest.jsonl.gz', '/export/latest.jsonl.gz'],
      ['/export', '/export/'],
    ]) {
      const r = await req(s, 'GET', from!);
      expect(r.status, from).toBe(301);
      expect(r.headers.get('location'), from).toBe(to);
    }
  });
});

describe('an export', () => {
  beforeAll(async () => {
    ids.a = await addEntry(author, 'zqexporta');
    ids.b = await addEntry(author, 'zqexportb');
    ids.o = await addEntry(other, 'zqexporto');
    // A signed confirmation (conf1) of entry a by an identity with a published key.
    const priv = ed.utils.randomSecretKey();
    const kpub = Buffer.from(await ed.getPublicKeyAsync(priv)).toString('hex');
    const idsig = Buffer.from(await ed.signAsync(new Uint8Array(canonical('idkey1', `commons.test ${other.id} ${kpub}`)), priv)).toString('base64url');
    expect((await req(s, 'PUT', '/v1/key', { as: other, json: { pub: kpub, sig: idsig } })).status).toBe(200);
    const csig = Buffer.from(await ed.signAsync(new Uint8Array(canonical('conf1', `commons.test ${ids.a} ${other.id}`)), priv)).toString('base64url');
    expect((await req(s, 'POST', `/k/${ids.a}/ok`, { as: other, json: { sig: csig } })).status).toBe(200);
    const task = await req(s, 'POST', '/v1/tasks', {
      as: author,
      json: { title: 'zqexporttask port the parser', body: 'Port the zqexporttask parser to the new API.' },
    });
    expect(task.status).toBe(201);
    expect(
      (await req(s, 'POST', '/dg', { as: author, json: { lib: 'zqlib', ver: '2.0.0', topic: 'breaking', lines: 'zqdigestline removed the old API' } })).status,
    ).toBe(201);
    // Private content: a note (with a token in it: notes are private, so not scrubbed), mail, a drop.
    expect((await req(s, 'POST', '/v1/notes', { as: author, json: { title: 'private', body: `${NOTE_MARK} ${NOTE_SECRET}` } })).status).toBe(201);
    expect((await req(s, 'POST', '/v1/mail', { as: author, json: { to: other.id, subject: 'hello', body: MAIL_MARK } })).status).toBe(201);
    expect((await req(s, 'PUT', '/d/zqexportdropsecret0123456789', { as: author, text: DROP_MARK })).status).toBe(201);
    // A KB row stored before a scrubber rule existed that now flags it: withheld from the export.
    await s.core.store.kb.insertMany([
      {
        id: 'kzqlegacy1',
        sig: 'legacy sig',
        h: sha(Buffer.from('legacy sig')),
        title: 'legacy entry',
        error: `aws key ${LEGACY_SECRET} rejected`,
        fix: 'rotate the key',
        eco: 'api',
        cls: '',
        tags: [],
        libs: [],
        author: author.id,
        created: s.core.now(),
      },
    ]);
  });

  it('the daily job runs on the job queue: scheduled once a day, written by the worker', async () => {
    const job = await scheduleExport(s.core);
    expect(job).toMatch(/.+/);
    let r: Response | null = null;
    for (let i = 0; i < 200; i++) {
      r = await req(s, 'GET', '/export/');
      if (r.status === 200 && !(await r.clone().text()).startsWith('export none')) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    expect(r!.status).toBe(200);
    expect(await r!.text()).toMatch(new RegExp(`^export ${today()} files=13 bytes=\\d+ license=CC0-1.0\n`));
    // Today's export exists: nothing more to schedule, and a job for that day (another process
    // enqueued it) is done without writing it again.
    expect(await scheduleExport(s.core)).toBeNull();
    const generated = ((await (await req(s, 'GET', '/export/index.json')).json()) as { generated: string }).generated;
    await s.core.store.jobs.enqueue('export', { date: today() });
    for (let i = 0; i < 200; i++) {
      const st = await s.core.store.jobs.stats('export');
      if (st.ready + st.leased + st.delayed === 0) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    expect(await s.core.store.jobs.stats('export')).toEqual({ ready: 0, delayed: 0, leased: 0, dead: 0 });
    expect(((await (await req(s, 'GET', '/export/index.json')).json()) as { generated: string }).generated).toBe(generated);
  });

  it('POST /admin/export (ops token) writes it now; other tokens get 401', async () => {
    expect((await req(s, 'POST', '/admin/export', { as: author })).status).toBe(401);
    const r = await ops('/admin/export');
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(new RegExp(`^ok export ${today()} files=13 bytes=\\d+ license=CC0-1.0\nnext: GET /export/\n$`));
  });

  it('/export/ lists every file (name, size, sha256, rows) with index.json, index.md and index.txt twins', async () => {
    const r = await req(s, 'GET', '/export/');
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = (await r.text()).trimEnd().split('\n');
    const [head, ...rest] = lines;
    const files = rest.filter((l) => !l.startsWith('next:'));
    expect(head).toMatch(new RegExp(`^export ${today()} files=${files.length} bytes=(\\d+) license=CC0-1.0$`));
    const names = files.map((l) => l.split(' ')[0]);
    for (const k of ['kb', 'tasks', 'claims', 'digests', 'delta']) expect(names).toContain(`${k}-${today()}.jsonl.gz`);
    for (const n of ['README.md', 'SHA256SUMS', 'SHA256SUMS.sig', 'SIGNATURES', 'croissant.json', 'manifest.json', 'manifest.json.sig', 'tombstones.jsonl'])
      expect(names).toContain(n);
    for (const l of files) expect(l).toMatch(/^\S+ size=\d+ sha256=[0-9a-f]{64} rows=(\d+|-)$/);
    const total = files.reduce((n, l) => n + Number(/size=(\d+)/.exec(l)![1]), 0);
    expect(head).toContain(` bytes=${total} `);
    expect(rest.at(-1)).toMatch(/^next: /);

    const j = (await (await req(s, 'GET', '/export/index.json')).json()) as {
      date: string;
      files: Array<{ name: string; rows: number | null }>;
      license: string;
      kept: string[];
    };
    expect(j.date).toBe(today());
    expect(j.files.map((f) => f.name)).toEqual(names);
    expect(j.files.find((f) => f.name === `kb-${today()}.jsonl.gz`)!.rows).toBe(3);
    expect(j.kept).toEqual([today()]);
    expect(await (await req(s, 'GET', '/export/?f=json')).json()).toEqual(j);
    const md = await req(s, 'GET', '/export/index.md');
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await md.text()).toContain(`| [kb-${today()}.jsonl.gz](/export/kb-${today()}.jsonl.gz) |`);
    const txt = await (await req(s, 'GET', '/export/index.txt')).text();
    expect(txt).toBe(lines.join('\n') + '\n');
    expect((await req(s, 'GET', '/export/?f=xml')).status).toBe(400);
    // The listing is an operation: the MCP tool says the same.
    const m = await mcp(s);
    try {
      const r = await m.call('export_index');
      expect(r.isError).toBeFalsy();
      expect(toolText(r)).toBe(lines.join('\n'));
      expect(r.structuredContent).toMatchObject({ date: j.date, license: 'CC0-1.0' });
    } finally {
      await m.close();
    }
  });

  it('every file matches SHA256SUMS and the listing; shards are application/gzip with max-age 3600', async () => {
    const { files, listing } = await download();
    const sums = files.get('SHA256SUMS')!.body.toString('utf8');
    const summed = sums
      .trimEnd()
      .split('\n')
      .map((l) => /^([0-9a-f]{64}) {2}(\S+)$/.exec(l)!);
    expect(summed.every(Boolean)).toBe(true);
    // Every file but the three that sign the others is in SHA256SUMS.
    expect(summed.map((m) => m[2]).sort()).toEqual(
      listing.files
        .map((f) => f.name)
        .filter((n) => !['SHA256SUMS', 'SHA256SUMS.sig', 'SIGNATURES'].includes(n))
        .sort(),
    );
    for (const [, hex, name] of summed) expect(sha(files.get(name!)!.body), name).toBe(hex);
    for (const f of listing.files) {
      const got = files.get(f.name)!;
      expect(sha(got.body), f.name).toBe(f.sha256);
      expect(got.body.length, f.name).toBe(f.size);
      expect(got.res.headers.get('cache-control'), f.name).toBe('public, max-age=3600');
      expect(got.res.headers.get('etag'), f.name).toBe(`"${f.sha256}"`);
      if (f.name.endsWith('.jsonl.gz')) {
        expect(got.res.headers.get('content-type')).toBe('application/gzip');
        expect(jsonl(gunzipSync(got.body)).length, f.name).toBe(f.rows);
      }
    }
    const etag = files.get(`kb-${today()}.jsonl.gz`)!.res.headers.get('etag')!;
    expect((await req(s, 'GET', `/export/kb-${today()}.jsonl.gz`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect(files.get('croissant.json')!.res.headers.get('content-type')).toMatch(/^application\/ld\+json/);
    expect(files.get('README.md')!.body.toString()).toContain('License: CC0-1.0');
  });

  it('every signature verifies with openssl under /.well-known/cx-key: SHA256SUMS.sig, manifest.json(.sig), SIGNATURES, X-Cx-Sig-Server', async () => {
    const { files } = await download();
    const detached = (name: string) => {
      const m = /^kid=(\d+); t=(manifest1); sig=([A-Za-z0-9_-]{86})\n$/.exec(files.get(name)!.body.toString('utf8'))!;
      expect(m, name).not.toBeNull();
      return Buffer.from(m[3]!, 'base64url');
    };
    expect(opensslVerify(pub, canonical('manifest1', files.get('SHA256SUMS')!.body), detached('SHA256SUMS.sig'))).toBe(true);
    expect(opensslVerify(pub, canonical('manifest1', files.get('manifest.json')!.body), detached('manifest.json.sig'))).toBe(true);
    // A signature of one file does not verify another (the check can fail).
    expect(opensslVerify(pub, canonical('manifest1', files.get('manifest.json')!.body), detached('SHA256SUMS.sig'))).toBe(false);

    const manifest = JSON.parse(files.get('manifest.json')!.body.toString()) as {
      date: string;
      generated: string;
      files: Array<{ name: string; size: number; sha256: string; rows: number | null }>;
      license: string;
      retention: object;
      latest: string;
      kid: number;
      sig: string;
    };
    expect(Object.keys(manifest)).toEqual(['date', 'generated', 'files', 'license', 'retention', 'latest', 'kid', 'sig']);
    expect(manifest).toMatchObject({ date: today(), license: 'CC0-1.0', latest: `kb-${today()}.jsonl.gz`, kid: 1 });
    const manSums = manifest.files.map((f) => `${f.sha256}  ${f.name}\n`).join('');
    expect(opensslVerify(pub, canonical('manifest1', manSums), Buffer.from(manifest.sig, 'base64url'))).toBe(true);
    for (const f of manifest.files) expect(sha(files.get(f.name)!.body)).toBe(f.sha256);

    const sigLines = files.get('SIGNATURES')!.body.toString('utf8').trimEnd().split('\n');
    const sums = files.get('SHA256SUMS')!.body.toString('utf8').trimEnd().split('\n');
    expect(sigLines.length).toBe(sums.length);
    for (const l of sigLines) {
      const m = /^(\S+) sha256=([0-9a-f]{64}) sig=([A-Za-z0-9_-]{86})$/.exec(l)!;
      expect(m, l).not.toBeNull();
      const [, name, hex, sig] = m;
      expect(sha(files.get(name!)!.body)).toBe(hex);
      expect(opensslVerify(pub, canonical('export1', `${name} sha256=${hex}`), Buffer.from(sig!, 'base64url')), name).toBe(true);
      // The file is served with the same export1 signature.
      expect(files.get(name!)!.res.headers.get('x-cx-sig-server')).toBe(`kid=1; t=export1; sig=${sig}`);
    }
    // The three signing files carry a resp1 signature of their exact bytes.
    for (const name of ['SHA256SUMS', 'SHA256SUMS.sig', 'SIGNATURES']) {
      const h = /^kid=1; t=resp1; sig=([A-Za-z0-9_-]{86})$/.exec(files.get(name)!.res.headers.get('x-cx-sig-server') ?? '')!;
      expect(h, name).not.toBeNull();
      expect(opensslVerify(pub, canonical('resp1', files.get(name)!.body), Buffer.from(h[1]!, 'base64url')), name).toBe(true);
    }
    // The openssl recipe of the README works as written.
    const dir = mkdtempSync(join(tmpdir(), 'cx-export-'));
    try {
      for (const n of ['SHA256SUMS', 'SHA256SUMS.sig']) writeFileSync(join(dir, n), files.get(n)!.body);
      const readmeText = files.get('README.md')!.body.toString('utf8');
      const recipe = readmeText
        .slice(readmeText.indexOf("    printf '302a"), readmeText.indexOf('-sigfile sig') + '-sigfile sig'.length)
        .replace(/^ {4}/gm, '');
      expect(recipe.split('\n').length).toBe(5);
      const out = execFileSync('bash', ['-c', recipe], { cwd: dir, env: { ...process.env, PUB: pub }, encoding: 'utf8' });
      expect(out).toContain('Signature Verified Successfully');
      writeFileSync(join(dir, 'SHA256SUMS'), files.get('SIGNATURES')!.body);
      expect(() => execFileSync('bash', ['-c', recipe], { cwd: dir, env: { ...process.env, PUB: pub }, stdio: 'pipe' })).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The listing is signed too.
    const lr = await req(s, 'GET', '/export/');
    const lbody = await bytes(lr);
    const lh = /sig=([A-Za-z0-9_-]{86})$/.exec(lr.headers.get('x-cx-sig-server')!)!;
    expect(opensslVerify(pub, canonical('resp1', lbody), Buffer.from(lh[1]!, 'base64url'))).toBe(true);
  });

  it('croissant.json has every Croissant 1.0 required field (JSON schema) and each data file as a FileObject with its sha256', async () => {
    const { files } = await download();
    const doc = JSON.parse(files.get('croissant.json')!.body.toString()) as { distribution: Array<{ name: string; sha256: string; contentUrl: string }> };
    const schema = JSON.parse(readFileSync(new URL('./croissant-required.schema.json', import.meta.url), 'utf8')) as object;
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const data = [...files.keys()].filter((n) => n.endsWith('.jsonl.gz') || n === 'tombstones.jsonl').sort();
    expect(doc.distribution.map((d) => d.name).sort()).toEqual(data);
    for (const d of doc.distribution) {
      expect(d.sha256).toBe(sha(files.get(d.name)!.body));
      expect(d.contentUrl).toBe(`http://commons.test/export/${d.name}`);
    }
    // The schema rejects a document missing a required field or a checksum (it can fail).
    const { datePublished: _d, ...noDate } = doc as Record<string, unknown>;
    expect(validate(noDate)).toBe(false);
    expect(validate({ ...doc, distribution: doc.distribution.map(({ sha256: _s, ...rest }) => rest) })).toBe(false);
  });

  it('shards hold the public rows and nothing private: no notes, mail, drops, secrets; a flagged legacy row is withheld', async () => {
    const { files } = await download();
    const kb = shard(files, 'kb');
    expect(kb.map((r) => r.id).sort()).toEqual([ids.a, ids.b, ids.o].sort());
    const a = kb.find((r) => r.id === ids.a)!;
    const page = (await (await req(s, 'GET', `/k/${ids.a}.json`)).json()) as Record<string, unknown>;
    for (const k of ['id', 'url', 'title', 'sig', 'h', 'eco', 'libs', 'tags', 'error', 'fix', 'author', 'created', 'license']) expect(a[k], k).toEqual(page[k]);
    const tasks = shard(files, 'tasks');
    expect(tasks.map((t) => t.title)).toEqual(['zqexporttask port the parser']);
    const claims = shard(files, 'claims');
    expect(claims.length).toBe(1);
    const c = claims[0] as { entry: string; id: string; type: string; payload: string; pub: string; sig: string };
    expect(c).toMatchObject({ entry: ids.a, id: other.id, type: 'conf1', payload: `commons.test ${ids.a} ${other.id}` });
    expect(Object.keys(c)).not.toContain('net');
    expect(opensslVerify(c.pub, canonical('conf1', c.payload), Buffer.from(c.sig, 'base64url'))).toBe(true);
    expect(shard(files, 'digests')).toMatchObject([{ lib: 'zqlib', ver: '2.0.0', topic: 'breaking', lines: ['zqdigestline removed the old API'] }]);
    // Nothing private in any file, compressed or not.
    for (const [name, f] of files) {
      const text = (name.endsWith('.gz') ? gunzipSync(f.body) : f.body).toString('utf8');
      for (const bad of [NOTE_MARK, NOTE_SECRET, MAIL_MARK, DROP_MARK, LEGACY_SECRET, 'zqexportdropsecret', 'kzqlegacy1', author.token, other.token])
        expect(text, `${name} holds ${bad}`).not.toContain(bad);
    }
    // The markers are really stored (so their absence above means something).
    expect(await (await req(s, 'GET', '/d/zqexportdropsecret0123456789', { as: author })).text()).toContain(DROP_MARK);
  });

  it('latest.jsonl.gz → 302 to the newest kb shard', async () => {
    const r = await req(s, 'GET', '/export/latest.jsonl.gz');
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(`/export/kb-${today()}.jsonl.gz`);
  });

  it('a removed entry is absent from the next export and present in tombstones (ids only); an identity tombstone removes its rows', async () => {
    expect(await removeKbEntry(s.core, ids.b, 'notice')).toBe(true);
    expect((await req(s, 'GET', `/k/${ids.b}`)).status).toBe(404);
    await recordTombstone(s.core, { kind: 'identity', id: other.id, reason: 'purged' });
    // A later millisecond: the next delta starts at this export's time, inclusive (a change at that
    // very millisecond is in both, so none is lost), and the next-day test wants an exact delta.
    await new Promise((r) => setTimeout(r, 5));
    expect((await ops('/admin/export')).status).toBe(200);
    const { files } = await download();
    const kb = shard(files, 'kb');
    expect(kb.map((r) => r.id)).toEqual([ids.a]);
    expect(shard(files, 'claims')).toEqual([]); // the claim was by the purged identity
    const tombs = jsonl(files.get('tombstones.jsonl')!.body);
    expect(tombs.map((t) => Object.keys(t))).toEqual([
      ['id', 'kind', 'removed_at', 'reason'],
      ['id', 'kind', 'removed_at', 'reason'],
    ]);
    expect(tombs).toMatchObject([
      { id: ids.b, kind: 'kb', reason: 'notice' },
      { id: other.id, kind: 'identity', reason: 'purged' },
    ]);
    for (const t of tombs) expect(Date.parse(t.removed_at as string)).toBeGreaterThan(0);
    for (const [name, f] of files) {
      const text = (name.endsWith('.gz') ? gunzipSync(f.body) : f.body).toString('utf8');
      expect(text, name).not.toContain('zqexportb');
      expect(text, name).not.toContain('zqexporto');
    }
    // The delta of the first day carries the tombstones too.
    expect(
      shard(files, 'delta')
        .filter((d) => d.kind === 'tombstone')
        .map((d) => (d.row as { id: string }).id),
    ).toEqual([ids.b, other.id]);
  });

  it('the next day: the delta holds only what changed since the previous export; old shards stay reachable; the newest export.keep are kept', async () => {
    const d1 = today();
    await later(s, DAY, async () => {
      const c = await addEntry(author, 'zqexportc');
      expect((await ops('/admin/export')).status).toBe(200);
      const { files, listing } = await download();
      expect(listing.date).toBe(today());
      const delta = shard(files, 'delta');
      expect(delta.map((d) => [d.kind, (d.row as { id: string }).id])).toEqual([['kb', c]]);
      expect(
        shard(files, 'kb')
          .map((r) => r.id)
          .sort(),
      ).toEqual([ids.a, c].sort());
      // The earlier day's shard is still served by name; the listing is the newest.
      expect((await req(s, 'GET', `/export/kb-${d1}.jsonl.gz`)).status).toBe(200);
      expect((await req(s, 'GET', '/export/latest.jsonl.gz')).headers.get('location')).toBe(`/export/kb-${today()}.jsonl.gz`);
    });
    // Eight more days: only the newest 7 exports stay.
    for (let i = 2; i <= 9; i++) await later(s, i * DAY, async () => expect((await ops('/admin/export')).status).toBe(200));
    const kept = ((await (await req(s, 'GET', '/export/index.json')).json()) as { kept: string[] }).kept;
    expect(kept.length).toBe(7);
    expect(kept[0]).toBe(new Date(Date.parse(d1) + 3 * DAY).toISOString().slice(0, 10));
    expect((await req(s, 'GET', `/export/kb-${d1}.jsonl.gz`)).status).toBe(404);
    expect(await s.core.store.exportFiles.dates()).toEqual(kept);
  });
});
