// The git mirror through the real server and the real git client: clone, fetch, history, removal,
// push refused, protocol v2, the request rules (404, 403, 413, 415, gzip), the per-network day
// quotas at their edges, and the daily tarball (Range, HEAD, conditional GETs).
// The mirror job is run on demand with `core.mirror.sync()` (the same pass the `git.mirror` job runs).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathOf } from '../../src/core/gitmirror/render.js';
import { sql } from '../helpers/db.js';
import { register, start, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
let s: TestServer;
let work: string;
let who: { id: string; token: string };
let netSeq = 0;
/** A fresh network per use (the server trusts X-Forwarded-For here), so quotas of one test do not touch another. */
const newNet = () => `10.77.${++netSeq}.9`;

const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
};

async function git(args: string[], cwd = work, net = newNet()): Promise<{ stdout: string; stderr: string }> {
  return run('git', ['-c', `http.extraHeader=X-Forwarded-For: ${net}`, ...args], { cwd, env: GIT_ENV, maxBuffer: 64 << 20 });
}

async function gitFails(args: string[], cwd = work): Promise<string> {
  try {
    await git(args, cwd);
  } catch (err) {
    return String((err as { stderr?: string }).stderr ?? err);
  }
  throw new Error(`git ${args.join(' ')} succeeded`);
}

async function addEntry(n: number): Promise<string> {
  const error = `Traceback (most recent call last):\n  File "/srv/app.py", line ${n}, in <module>\nMirrorTestError${n}: gadget ${n} <b>misaligned</b> \`rm -rf\``;
  const r = await fetch(`${s.url}/k`, {
    method: 'POST',
    headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json', 'x-forwarded-for': '10.70.0.1' },
    body: JSON.stringify({
      error,
      fix: `Realign gadget ${n} with \`\`\`gadgetctl align\`\`\` then restart.`,
      eco: 'pypi',
      libs: `gadget@${n}.0`,
      tags: ['mirror'],
    }),
  });
  expect(r.status).toBe(201);
  return /^ok k\/(k[0-9a-z]+) /.exec(await r.text())![1]!;
}

/** Ids of every visible KB entry, read from the store. */
async function visibleIds(): Promise<string[]> {
  const ids: string[] = [];
  for (let after = 0; ; ) {
    const page = await s.core.store.kb.pageAfter(after, 500);
    if (!page.length) return ids.sort();
    ids.push(...page.map((e) => e.id));
    after = page[page.length - 1]!.n;
  }
}

async function treeIds(repo: string, rev: string): Promise<string[]> {
  const { stdout } = await git(['ls-tree', '-r', '--name-only', rev], repo);
  return stdout
    .split('\n')
    .filter((p) => p.startsWith('entries/'))
    .map((p) => p.replace(/^.*\/(k[0-9a-z]+)\.md$/, '$1'))
    .sort();
}

const url = () => `${s.url}/git/kb.git`;
const post = (body: Buffer | string, headers: Record<string, string> = {}) =>
  fetch(`${url()}/git-upload-pack`, {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { 'content-type': 'application/x-git-upload-pack-request', 'x-forwarded-for': newNet(), ...headers },
  });
/** A protocol v2 `ls-refs` request: a cheap, complete upload-pack round. */
const LS_REFS = Buffer.from('0014command=ls-refs\n0001000bsymrefs0000');

beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '1' }); // the sample KB and services
  work = mkdtempSync(join(tmpdir(), 'cx-git-'));
  who = await register(s.url, 'mirror', { 'x-forwarded-for': '10.70.0.1' });
  // The job's first pass is due git.first_delay after start: before any pass, nothing is served.
  const early = await fetch(`${s.url}/git/kb.git/info/refs?service=git-upload-pack`, { headers: { 'x-forwarded-for': newNet() } });
  expect(s.core.mirror!.ready).toBe(false);
  expect(early.status).toBe(503);
  expect(early.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(await early.text()).toBe('err busy git mirror not ready yet, retry later\n');
  const tar = await fetch(`${s.url}/git/kb.tar.gz`);
  expect(tar.status).toBe(503);
  expect(await tar.text()).toBe('err busy git mirror has no snapshot yet, retry later\n');
  await s.core.mirror!.sync();
  expect(s.core.mirror!.ready).toBe(true);
}, 90_000); // the first pass commits the sample KB and keeps its pack in the store
afterAll(async () => {
  await s.stop();
  rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('git mirror: clone, fetch, removal, history', () => {
  let first: string[] = [];
  let firstCommit = '';

  it('a clone with the real git client gets every visible entry as a markdown file; content is kept as data', async () => {
    first = [await addEntry(1), await addEntry(2), await addEntry(3)];
    const r = await s.core.mirror!.sync();
    expect(r.head).toMatch(/^[0-9a-f]{40}$/);
    firstCommit = r.head!;
    await git(['clone', '--quiet', url(), 'one']);
    const repo = join(work, 'one');
    expect(await treeIds(repo, 'HEAD')).toEqual(await visibleIds());
    const file = readFileSync(join(repo, pathOf(first[0]!)!), 'utf8');
    expect(file).toContain(`- id: ${first[0]}`);
    expect(file).toContain('MirrorTestError1: gadget 1 <b>misaligned</b> `rm -rf`'); // inside a fence, as stored
    expect(file).toMatch(/````text\nRealign gadget 1 with ```gadgetctl align``` then restart\.\n````/); // the fence outgrows the text's backticks
    expect(file).not.toMatch(/^# .*<b>/m);
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toContain('/git/kb.tar.gz');
    // The licence travels with the data: CC0-1.0's legal code, and a README saying what it is.
    expect(readFileSync(join(repo, 'LICENSE'), 'utf8')).toMatch(/^Creative Commons Legal Code\n\nCC0 1\.0 Universal\n/);
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toMatch(/License: CC0-1\.0 \(public domain dedication\), in the LICENSE file/);
    // Nothing changed: no new commit.
    expect((await s.core.mirror!.sync()).commit).toBeNull();
  });

  it('after new entries a second clone and a git fetch get them', async () => {
    const more = [await addEntry(4), await addEntry(5)];
    await s.core.mirror!.sync();
    await git(['clone', '--quiet', url(), 'two']);
    const ids = await visibleIds();
    expect(ids).toEqual(expect.arrayContaining([...first, ...more]));
    expect(await treeIds(join(work, 'two'), 'HEAD')).toEqual(ids);
    const one = join(work, 'one');
    await git(['fetch', '--quiet', 'origin'], one);
    expect(await treeIds(one, 'origin/main')).toEqual(ids);
  });

  it('a removed entry disappears from the next commit; history keeps it', async () => {
    const gone = first[1]!;
    sql(s, 'UPDATE kb_entries SET hidden = 1 WHERE id = ?', gone);
    await s.core.mirror!.sync();
    const one = join(work, 'one');
    await git(['fetch', '--quiet', 'origin'], one);
    const ids = await treeIds(one, 'origin/main');
    expect(ids).not.toContain(gone);
    expect(ids).toEqual(await visibleIds());
    const { stdout } = await git(['show', `${firstCommit}:${pathOf(gone)}`], one);
    expect(stdout).toContain(`- id: ${gone}`);
    const log = await git(['log', '--format=%H %s', 'origin/main'], one);
    expect(log.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(3);
    expect(log.stdout).toContain('0 written, 1 deleted');
  });

  it('a protocol v2 clone works (the server answers in v2), and so does a v0 clone', async () => {
    await git(['-c', 'protocol.version=2', 'clone', '--quiet', url(), 'v2']);
    expect(await treeIds(join(work, 'v2'), 'HEAD')).toEqual(await visibleIds());
    await git(['-c', 'protocol.version=0', 'clone', '--quiet', url(), 'v0']);
    expect(await treeIds(join(work, 'v0'), 'HEAD')).toEqual(await visibleIds());
    const adv = await fetch(`${url()}/info/refs?service=git-upload-pack`, { headers: { 'git-protocol': 'version=2', 'x-forwarded-for': newNet() } });
    expect(adv.status).toBe(200);
    expect(adv.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    expect(await adv.text()).toMatch(/^000eversion 2\n/);
    const v0 = await fetch(`${url()}/info/refs?service=git-upload-pack`, { headers: { 'x-forwarded-for': newNet() } });
    expect(await v0.text()).toMatch(/^001e# service=git-upload-pack\n0000[0-9a-f]{4}[0-9a-f]{40} HEAD\0/);
  });

  it('git push is refused with 403; so are the receive-pack routes', async () => {
    const one = join(work, 'one');
    writeFileSync(join(one, 'x.md'), 'x');
    await git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', 'x.md'], one);
    await git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'x'], one);
    expect(await gitFails(['push', 'origin', 'HEAD:refs/heads/main'], one)).toMatch(/403/);
    const adv = await fetch(`${url()}/info/refs?service=git-receive-pack`);
    expect(adv.status).toBe(403);
    expect(await adv.text()).toBe('err auth read-only mirror: push is refused\n');
    const rp = await fetch(`${url()}/git-receive-pack`, {
      method: 'POST',
      body: '0000',
      headers: { 'content-type': 'application/x-git-receive-pack-request' },
    });
    expect(rp.status).toBe(403);
  });
});

describe('git mirror: request rules', () => {
  it('anything but info/refs?service=git-upload-pack and the upload-pack POST is 404', async () => {
    for (const path of [
      '/git/kb.git/info/refs',
      '/git/kb.git/info/refs?service=git-upload-packx',
      '/git/kb.git/info/refs?service=',
      '/git/kb.git/HEAD',
      '/git/kb.git/objects/info/packs',
      '/git/other.git/info/refs?service=git-upload-pack',
      '/git/kb.git/git-upload-pack',
    ]) {
      const r = await fetch(`${s.url}${path}`);
      expect(r.status, path).toBe(404);
      expect(await r.text(), path).toMatch(/^err notfound /);
    }
  });

  it('415 for a wrong Content-Type or Content-Encoding', async () => {
    const t = await post(LS_REFS, { 'content-type': 'text/plain' });
    expect(t.status).toBe(415);
    expect(await t.text()).toBe('err bad content-type must be application/x-git-upload-pack-request\n');
    const e = await post(LS_REFS, { 'content-encoding': 'br', 'git-protocol': 'version=2' });
    expect(e.status).toBe(415);
  });

  it('413 for a body over 1 MiB, and for a gzip body that inflates beyond its cap', async () => {
    const big = await post(Buffer.alloc(1024 * 1024 + 1, 0x30));
    expect(big.status).toBe(413);
    expect(await big.text()).toMatch(/^err size /);
    const exactly = await post(Buffer.concat([LS_REFS, Buffer.alloc(1024 * 1024 - LS_REFS.length, 0x30)]), { 'git-protocol': 'version=2' });
    expect(exactly.status).toBe(200); // at the cap: accepted (git answers what it can of the bytes)
    await exactly.arrayBuffer();
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x30));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const b = await post(bomb, { 'content-encoding': 'gzip' });
    expect(b.status).toBe(413);
    const notGzip = await post(LS_REFS, { 'content-encoding': 'gzip' });
    expect(notGzip.status).toBe(400);
  });

  it('a gzip body is accepted (v2 ls-refs lists the default branch)', async () => {
    const r = await post(gzipSync(LS_REFS), { 'content-encoding': 'gzip', 'git-protocol': 'version=2' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/x-git-upload-pack-result');
    expect(await r.text()).toMatch(/[0-9a-f]{40} refs\/heads\/main/);
  });
});

describe('git mirror: quotas per network per day', () => {
  it('10 advertisements, then 429 naming the tarball; another network is not affected', async () => {
    const net = newNet();
    const adv = () => fetch(`${url()}/info/refs?service=git-upload-pack`, { headers: { 'x-forwarded-for': net } });
    for (let i = 0; i < 10; i++) {
      const r = await adv();
      expect(r.status, `advertisement ${i + 1}`).toBe(200);
      await r.arrayBuffer();
    }
    const over = await adv();
    expect(over.status).toBe(429);
    expect(await over.text()).toBe('err quota use /git/kb.tar.gz\n');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3600);
    const other = await fetch(`${url()}/info/refs?service=git-upload-pack`, { headers: { 'x-forwarded-for': newNet() } });
    expect(other.status).toBe(200);
    await other.arrayBuffer();
    // The git client says what the server said.
    expect(await gitFailsFrom(net, ['clone', url(), 'quota'])).toMatch(/429/);
  });

  it('30 rounds, then 429 naming the tarball', async () => {
    const net = newNet();
    for (let i = 0; i < 30; i++) {
      const r = await post(LS_REFS, { 'x-forwarded-for': net, 'git-protocol': 'version=2' });
      expect(r.status, `round ${i + 1}`).toBe(200);
      await r.arrayBuffer();
    }
    const over = await post(LS_REFS, { 'x-forwarded-for': net, 'git-protocol': 'version=2' });
    expect(over.status).toBe(429);
    expect(await over.text()).toBe('err quota use /git/kb.tar.gz\n');
  });
});

async function gitFailsFrom(net: string, args: string[]): Promise<string> {
  try {
    await git(args, work, net);
  } catch (err) {
    return String((err as { stderr?: string }).stderr ?? err);
  }
  throw new Error('git succeeded');
}

describe('git mirror: the daily tarball', () => {
  it('GET is the snapshot of the default branch: tar lists its files; HEAD gives the headers only', async () => {
    const r = await fetch(`${s.url}/git/kb.tar.gz`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/gzip');
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    const body = Buffer.from(await r.arrayBuffer());
    expect(Number(r.headers.get('content-length'))).toBe(body.length);
    const file = join(work, 'kb.tar.gz');
    writeFileSync(file, body);
    const { stdout } = await run('tar', ['-tzf', file]);
    const listed = stdout
      .split('\n')
      .filter((p) => p && !p.endsWith('/'))
      .sort();
    const commit = r.headers.get('x-git-commit')!;
    const { stdout: tree } = await git(['ls-tree', '-r', '--name-only', commit], join(work, 'two'));
    expect(listed).toEqual(
      tree
        .trim()
        .split('\n')
        .map((p) => `kb/${p}`)
        .sort(),
    );
    expect(listed).toContain('kb/LICENSE');
    expect(listed.length).toBeGreaterThan(2);
    const h = await fetch(`${s.url}/git/kb.tar.gz`, { method: 'HEAD' });
    expect(h.status).toBe(200);
    expect(h.headers.get('content-length')).toBe(String(body.length));
    expect(h.headers.get('etag')).toBe(r.headers.get('etag'));
    expect((await h.arrayBuffer()).byteLength).toBe(0);
  });

  it('Range: 206 with exactly those bytes, suffix ranges, 416 past the end', async () => {
    const full = Buffer.from(await (await fetch(`${s.url}/git/kb.tar.gz`)).arrayBuffer());
    const size = full.length;
    const part = await fetch(`${s.url}/git/kb.tar.gz`, { headers: { range: 'bytes=10-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-99/${size}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(full.subarray(10, 100));
    const tail = await fetch(`${s.url}/git/kb.tar.gz`, { headers: { range: 'bytes=-5' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(full.subarray(size - 5));
    const open = await fetch(`${s.url}/git/kb.tar.gz`, { headers: { range: `bytes=${size - 1}-` } });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer())).toEqual(full.subarray(size - 1));
    const past = await fetch(`${s.url}/git/kb.tar.gz`, { headers: { range: `bytes=${size}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
    expect(await past.text()).toMatch(/^err bad range /);
    // A range for another snapshot (If-Range) gets the whole file.
    const stale = await fetch(`${s.url}/git/kb.tar.gz`, { headers: { range: 'bytes=0-9', 'if-range': '"other"' } });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(size);
  });

  it('If-Modified-Since and If-None-Match give 304; an older date gives 200', async () => {
    const r = await fetch(`${s.url}/git/kb.tar.gz`, { method: 'HEAD' });
    const lm = r.headers.get('last-modified')!;
    expect(lm).toMatch(/GMT$/);
    expect((await fetch(`${s.url}/git/kb.tar.gz`, { headers: { 'if-modified-since': lm } })).status).toBe(304);
    expect((await fetch(`${s.url}/git/kb.tar.gz`, { headers: { 'if-none-match': r.headers.get('etag')! } })).status).toBe(304);
    const older = new Date(Date.parse(lm) - 1000).toUTCString();
    const g = await fetch(`${s.url}/git/kb.tar.gz`, { headers: { 'if-modified-since': older } });
    expect(g.status).toBe(200);
    await g.arrayBuffer();
  });
});

describe('git mirror: off or not ready', () => {
  it('with the mirror off (CX_GIT_MIRROR=0) the git routes answer 503 err busy with Retry-After; push is still 403', async () => {
    const off = await start({ CX_GIT_MIRROR: '0', CX_SEED: '0' });
    try {
      for (const [method, path, headers] of [
        ['GET', '/git/kb.git/info/refs?service=git-upload-pack', {}],
        ['POST', '/git/kb.git/git-upload-pack', { 'content-type': 'application/x-git-upload-pack-request' }],
        ['GET', '/git/kb.tar.gz', {}],
      ] as const) {
        const r = await fetch(`${off.url}${path}`, { method, headers, ...(method === 'POST' ? { body: '0000' } : {}) });
        expect(r.status, path).toBe(503);
        expect(r.headers.get('retry-after'), path).toMatch(/^\d+$/);
        expect(await r.text(), path).toMatch(/^err busy git mirror /);
      }
      expect((await fetch(`${off.url}/git/kb.git/info/refs?service=git-receive-pack`)).status).toBe(403);
    } finally {
      await off.stop();
    }
  });
});
