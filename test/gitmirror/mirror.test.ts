// The mirror's domain rules with an in-memory repository in place of git: 503 before the first
// commit, at most git.concurrent requests at once (503 beyond, the slot freed when git ends), a
// pass that changes nothing commits nothing, the tarball made once and then at most daily; and
// the rendering: paths from ids alone, untrusted text kept inside fences.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildCore } from '../../src/compose/core.js';
import { CxError } from '../../src/core/kernel/errors.js';
import { MIRROR_QUEUE, startMirrorJob } from '../../src/core/gitmirror/job.js';
import { GitMirror } from '../../src/core/gitmirror/mirror.js';
import type { FileChange, MirrorRepo, PackProcess, Snapshot } from '../../src/core/gitmirror/ports.js';
import { blobId, fenced, mdText, pathOf, renderEntry } from '../../src/core/gitmirror/render.js';
import type { KbEntry } from '../../src/core/kb/ports.js';
import { limit } from '../../src/core/kernel/limits.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-mirror-'));
const store = openSqliteStore(dir);
let clock = Date.parse('2026-11-01T00:00:00Z');
const core = buildCore(loadConfig({ CX_DATA: dir, CX_SEED: '0' }), store, pino({ enabled: false }), { now: () => clock, random: (n) => Buffer.alloc(n, 7) });
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every commit any memory repository made: its files (what a pack of it carries), by commit id. */
const objects = new Map<string, Map<string, string>>();
let commitN = 0;

/** Empties the history kept in the store: the next memory repository starts a mirror from nothing. */
async function freshHistory(): Promise<void> {
  const db = (await import('better-sqlite3')).default(join(dir, 'commons.db'));
  db.prepare('DELETE FROM git_packs').run();
  db.close();
}

/** A repository in memory: files of the head, commits counted, upload-packs held open until ended. */
function memoryRepo() {
  let files = new Map<string, string>();
  let head: { commit: string; time: number } | null = null;
  let snap: Snapshot | null = null;
  const commits: Array<{ put: string[]; del: string[]; message: string }> = [];
  const running: Array<{ end(): void }> = [];
  let snapshots = 0;
  const have = new Set<string>();
  const applied: string[] = [];
  const repo: MirrorRepo = {
    async init() {
      return true;
    },
    async head() {
      return head;
    },
    async files() {
      return new Map(files);
    },
    async commit(parent, changes, meta) {
      expect(parent).toBe(head?.commit ?? null);
      const next = new Map(files);
      const put: string[] = [];
      const del: string[] = [];
      for await (const c of changes as AsyncIterable<FileChange>) {
        if (c.content) {
          next.set(c.path, blobId(c.content));
          put.push(c.path);
        } else {
          next.delete(c.path);
          del.push(c.path);
        }
      }
      if (!put.length && !del.length) return null;
      files = next;
      head = { commit: String(++commitN).padStart(40, '0'), time: meta.time };
      objects.set(head.commit, next);
      have.add(head.commit);
      commits.push({ put, del, message: meta.message() });
      return head.commit;
    },
    async snapshot() {
      return snap;
    },
    async writeSnapshot(commit, time) {
      snapshots++;
      snap = { commit, time, size: 3, open: () => Readable.from([Buffer.from('tar')]) };
      return snap;
    },
    uploadPack(): PackProcess {
      const stdout = new PassThrough();
      let end!: () => void;
      const done = new Promise<number | null>((r) => (end = () => r(0)));
      running.push({ end });
      return { stdout, done, kill: end };
    },
    async pack(_from, to) {
      return Buffer.from(to);
    },
    async applyPack(pack) {
      applied.push(pack.toString());
      have.add(pack.toString());
    },
    async has(commit) {
      return have.has(commit);
    },
    async setHead(commit) {
      expect(have.has(commit)).toBe(true);
      files = new Map(objects.get(commit)!);
      head = { commit, time: clock };
    },
  };
  return { repo, commits, running, applied, snapshots: () => snapshots };
}

const entry = (id: string, o: Partial<KbEntry> = {}) => ({
  id,
  sig: `py:E:${id}`,
  h: id.padEnd(64, '0'),
  title: `t ${id}`,
  error: `E: ${id}`,
  fix: `fix ${id}`,
  eco: 'pypi',
  cls: 'E',
  tags: ['a'],
  libs: [{ name: 'x', ver: '1' }],
  author: 'a000001',
  created: clock,
  ...o,
});

describe('GitMirror', () => {
  it('serving before the first commit is 503; after it, at most git.concurrent at once (503 beyond), a slot freed when git ends', async () => {
    await freshHistory();
    const m = memoryRepo();
    const mirror = new GitMirror(core, m.repo);
    expect(await mirror.init()).toBe(true);
    const early = await mirror.serve('adv', null, false).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(CxError);
    expect(early).toMatchObject({ status: 503, code: 'busy' });
    await mirror.sync();
    expect(mirror.ready).toBe(true);
    const max = limit('git.concurrent');
    const held: PackProcess[] = [];
    for (let i = 0; i < max; i++) held.push(await mirror.serve('rpc', Buffer.from('0000'), false));
    await expect(mirror.serve('rpc', Buffer.from('0000'), false)).rejects.toMatchObject({ status: 503, code: 'busy' });
    m.running[0]!.end();
    await held[0]!.done;
    await new Promise((r) => setImmediate(r));
    const again = await mirror.serve('rpc', Buffer.from('0000'), false);
    expect(again).toBeDefined();
    for (const r of m.running) r.end();
  });

  it('commits only what changed; deletes entries that left the KB; the tarball is made once, then again only a day later', async () => {
    await store.kb.insertMany([entry('kaaaa01'), entry('kaaaa02'), entry('kaaaa03')]);
    await freshHistory();
    const m = memoryRepo();
    const mirror = new GitMirror(core, m.repo);
    await mirror.init();
    const first = await mirror.sync();
    expect(first).toMatchObject({ written: 5, deleted: 0, files: 3 }); // README, LICENSE and three entries
    expect(m.commits[0]!.put.sort()).toEqual(['LICENSE', 'README.md', 'entries/01/kaaaa01.md', 'entries/02/kaaaa02.md', 'entries/03/kaaaa03.md']);
    expect(m.snapshots()).toBe(1);
    expect((await mirror.sync()).commit).toBeNull();
    expect(m.commits).toHaveLength(1);
    // An entry gone from the store (hidden or purged) is deleted in the next commit.
    const db = (await import('better-sqlite3')).default(join(dir, 'commons.db'));
    db.prepare('UPDATE kb_entries SET hidden = 1 WHERE id = ?').run('kaaaa02');
    db.close();
    await store.kb.insertMany([entry('kaaaa04')]);
    clock += 3_600_000;
    const second = await mirror.sync();
    expect(second).toMatchObject({ written: 1, deleted: 1, files: 3 });
    expect(m.commits[1]).toMatchObject({ put: ['entries/04/kaaaa04.md'], del: ['entries/02/kaaaa02.md'], message: 'kb: 1 written, 1 deleted, 3 entries' });
    expect(m.snapshots()).toBe(1); // an hour later: still yesterday's tarball
    expect(mirror.snapshot().commit).toBe(first.commit);
    clock += limit('git.tarball_cache') * 3_600_000;
    await mirror.sync();
    expect(m.snapshots()).toBe(2);
    expect(mirror.snapshot().commit).toBe(second.commit);
  });
});

describe('replicas: the history kept in the store', () => {
  it("a second repository on the same store copies the first one's commits; commits made by either are served by both; of two passes on one parent one is kept", async () => {
    await freshHistory();
    await store.kb.insertMany([entry('krepl01')]);
    const a = memoryRepo();
    const ma = new GitMirror(core, a.repo);
    await ma.init();
    const first = await ma.sync();
    expect(first.commit).not.toBeNull();
    // A fresh replica (empty data directory): its start copies the history and it is ready at once.
    const b = memoryRepo();
    const mb = new GitMirror(core, b.repo);
    await mb.init();
    expect(mb.ready).toBe(true);
    expect(b.applied).toEqual([first.commit]);
    expect(await b.repo.head()).toMatchObject({ commit: first.commit });
    // B commits the next change on top; A's next advertisement serves it.
    await store.kb.insertMany([entry('krepl02')]);
    const second = await mb.sync();
    expect(second).toMatchObject({ written: 1, deleted: 0 });
    expect(b.commits).toHaveLength(1);
    (await ma.serve('adv', null, false)).kill();
    expect(await a.repo.head()).toMatchObject({ commit: second.commit });
    expect((await ma.sync()).commit).toBeNull(); // nothing left to commit: A has B's tree
    // Both pass on the same parent: the first recorded wins, the other drops its commit and takes it.
    await store.kb.insertMany([entry('krepl03')]);
    const both = await Promise.all([ma.sync(), mb.sync()]);
    const kept = both.filter((r) => r.commit !== null);
    expect(kept).toHaveLength(1);
    expect((await store.gitPacks.tip())!.commit).toBe(kept[0]!.commit);
    expect(await a.repo.head()).toMatchObject({ commit: kept[0]!.commit });
    expect(await b.repo.head()).toMatchObject({ commit: kept[0]!.commit });
  });
});

describe('the git.mirror job', () => {
  it('runs a pass through the job queue (first one due at once here) and commits; stop waits for it', async () => {
    await store.kb.insertMany([entry('kjobb01')]);
    await freshHistory();
    const m = memoryRepo();
    const mirror = new GitMirror(core, m.repo);
    await mirror.init();
    const stop = startMirrorJob(core, mirror, { firstDelayMs: 0 });
    for (let i = 0; i < 200 && !m.commits.length; i++) await new Promise((r) => setTimeout(r, 25));
    await stop();
    expect(m.commits).toHaveLength(1);
    expect(m.commits[0]!.put).toContain('entries/01/kjobb01.md');
    expect(mirror.ready).toBe(true);
    expect(await store.jobs.stats(MIRROR_QUEUE)).toMatchObject({ ready: 0, leased: 0, dead: 0 });
  });

  it('by default the first pass waits git.first_delay', async () => {
    await freshHistory();
    const m = memoryRepo();
    const mirror = new GitMirror(core, m.repo);
    await mirror.init();
    const stop = startMirrorJob(core, mirror);
    await new Promise((r) => setTimeout(r, 200));
    await stop();
    expect(m.commits).toHaveLength(0);
    expect(limit('git.first_delay')).toBeGreaterThan(0);
  });
});

describe('rendering', () => {
  it('paths come from plain ids only', () => {
    expect(pathOf('k1b2c3d')).toBe('entries/3d/k1b2c3d.md');
    for (const bad of ['../x', 'k/../../x', 'K12', '', 'k', 'k1 2', 'k.md', 'k'.repeat(40)]) expect(pathOf(bad), bad).toBeNull();
  });

  it('untrusted text stays data: fences outgrow backtick runs, one-line values are escaped', () => {
    expect(fenced('a ``` b')).toBe('````text\na ``` b\n````');
    expect(fenced('plain')).toBe('```text\nplain\n```');
    expect(mdText('<script>x</script> [l](http://e) # h\nnext')).toBe('&lt;script&gt;x&lt;/script&gt; \\[l\\](http://e) \\# h next');
    // A whole KB entry, counters included: they must stay out of the file.
    const full: KbEntry = {
      ...entry('kzzzz01', { title: '<img src=x onerror=alert(1)>', fix: '```\n# not a heading\n```' }),
      n: 1,
      ch: '',
      updated: 0,
      confirms: 3,
      fails: 1,
      hits: 9,
      changes: 0,
      w_worked: 3,
      w_changes: 0,
      w_failed: 1,
      principals: 4,
      disputed: false,
      disputed_at: 0,
    };
    const md = renderEntry(full, 'http://commons.test');
    expect(md.split('\n')[0]).toBe('# &lt;img src=x onerror=alert(1)&gt;');
    expect(md).toContain('````text\n```\n# not a heading\n```\n````');
    expect(md).not.toMatch(/confirms|hits/); // counters that move on every vote stay out of the file
  });
});
