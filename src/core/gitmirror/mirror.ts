// The git mirror of the KB (spec 4.3, 8): what goes in the repository and when it is committed,
// and who may read it. `sync` walks every visible entry, compares each file's blob id with the
// head commit's tree, and commits what differs (new and changed files written, files of entries no
// longer visible deleted); nothing differs, nothing is committed. The tree itself is the state: no
// cursor to lose, and an entry hidden or purged by any path is gone from the next commit.
// Serving admits a request (ready, at most git.concurrent at once) before the adapter spawns `git
// upload-pack`; the per-network day quotas are declared on the routes (src/rest/git.ts).
//
// Replicas (issue 37): the history lives in the store (GitPackRepo: each commit with the pack of
// the objects it added), and each process's repository is a copy rebuilt from it. A pass first
// brings the repository to the store's newest commit, commits on top of it, and records the new
// commit with its pack; when another process recorded one first, the local commit is dropped and
// the next pass starts from theirs. Before answering any upload-pack request a process catches up
// with the store, so every replica advertises the same commits, and a fresh one (an empty data
// directory) rebuilds the whole history from the packs. The commit ids are the same everywhere
// because the objects are: they are copied, never made again.
import type { Logger } from '../kernel/log.js';
import { readFileSync } from 'node:fs';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import type { Config } from '../../config.js';
import type { Store } from '../kernel/types.js';
import type { FileChange, MirrorHead, MirrorRepo, PackProcess, Snapshot } from './ports.js';
import { blobId, pathOf, readme, renderEntry } from './render.js';

/** The legal code of CC0-1.0 (as Debian ships it), the LICENSE file of the mirror's tree. */
const LICENSE_TEXT = readFileSync(new URL('./CC0-1.0.txt', import.meta.url));

export interface SyncResult {
  commit: string | null;
  head: string | null;
  written: number;
  deleted: number;
  files: number;
}

/** What the mirror uses of the core: not Core itself, whose type names the mirror (no import circle). */
export interface MirrorCore {
  config: Config;
  store: Store;
  log: Logger;
  now(): number;
}

export class GitMirror {
  private head: MirrorHead | null = null;
  private snap: Snapshot | null = null;
  private usable = false;
  private active = 0;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private core: MirrorCore,
    private repo: MirrorRepo,
  ) {}

  /** Commit time of the head (metrics: the mirror's age); null before the first commit. */
  headTime(): number | null {
    return this.head?.time ?? null;
  }

  /** Creates the repository when missing, brings it to the store's history and reads its head; false when git cannot run. */
  async init(): Promise<boolean> {
    this.usable = await this.repo.init();
    if (this.usable) {
      this.head = await this.repo.head();
      this.snap = await this.repo.snapshot();
      await this.catchUp().catch((err: unknown) => this.core.log.error({ err }, 'git mirror: catching up with the store failed'));
    }
    return this.usable;
  }

  /** Brings the repository to the store's newest commit (one at a time with the passes). */
  catchUp(): Promise<void> {
    const run = this.chain.then(() => this.catchUpNow());
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** True when the store has a newer commit than the one served (one small query; no wait for a running pass). */
  private async behind(): Promise<boolean> {
    const tip = await this.core.store.gitPacks.tip();
    return tip !== null && tip.commit !== this.head?.commit;
  }

  /** The newest commit the store knows, applied here when this repository does not have it yet. */
  private async catchUpNow(): Promise<void> {
    const packs = this.core.store.gitPacks;
    const tip = await packs.tip();
    if (!tip) return;
    const local = await this.repo.head();
    if (local?.commit !== tip.commit) {
      // From the local head's row on; a head the store does not know (a repository made before the
      // history was kept in the store, or one that lost a race) starts from the first row.
      let seq = local ? ((await packs.seqOf(local.commit)) ?? 0) : 0;
      for (;;) {
        const rows = await packs.after(seq, limit('git.catchup_page'));
        if (!rows.length) break;
        for (const r of rows) if (!(await this.repo.has(r.commit))) await this.repo.applyPack(r.pack);
        seq = rows[rows.length - 1]!.seq;
      }
      await this.repo.setHead(tip.commit);
    }
    this.head = { commit: tip.commit, time: tip.time };
    await this.snapshotIfDue();
  }

  /** Served once a first commit exists. */
  get ready(): boolean {
    return this.usable && this.head !== null;
  }

  /** One pass of the job: commit what changed, then the tarball when it is a day old (or missing). Runs one at a time. */
  sync(): Promise<SyncResult> {
    const run = this.chain.then(() => this.syncNow());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async syncNow(): Promise<SyncResult> {
    if (!this.usable) throw new Error('git mirror unavailable: git did not run');
    const { core, repo } = this;
    const base = core.config.baseUrl;
    await this.catchUpNow();
    let head = await repo.head();
    if (head && !(await core.store.gitPacks.tip())) {
      // A repository from before its history was kept in the store: its history becomes the first row.
      await core.store.gitPacks.append({ commit: head.commit, parent: null, time: head.time, pack: await repo.pack(null, head.commit) });
      await this.catchUpNow();
      head = await repo.head();
    }
    const have = head ? await repo.files() : new Map<string, string>();
    let written = 0;
    let deleted = 0;
    let files = 0;
    const page = limit('git.page');
    async function* changes(): AsyncGenerator<FileChange> {
      const want = (path: string, content: Buffer): FileChange | null => {
        files++;
        const old = have.get(path);
        have.delete(path);
        if (old === blobId(content)) return null;
        written++;
        return { path, content };
      };
      const r = want('README.md', Buffer.from(readme(base)));
      if (r) yield r;
      // The licence travels with the data: CC0-1.0's legal code beside the entries.
      const l = want('LICENSE', LICENSE_TEXT);
      if (l) yield l;
      for (let after = 0; ; ) {
        const rows = await core.store.kb.pageAfter(after, page);
        if (!rows.length) break;
        after = rows[rows.length - 1]!.n;
        for (const e of rows) {
          const path = pathOf(e.id);
          if (!path) continue; // file names come from ids alone; an id that is not plain is left out
          const c = want(path, Buffer.from(renderEntry(e, base)));
          if (c) yield c;
        }
      }
      // What is left in the tree is no longer in the KB.
      for (const path of have.keys()) {
        deleted++;
        yield { path };
      }
    }
    const time = core.now();
    const commit = await repo.commit(head?.commit ?? null, changes(), {
      name: 'Agent Commons',
      email: `mirror@${new URL(base).hostname}`,
      time,
      message: () => `kb: ${written} written, ${deleted} deleted, ${files - 2} entries`,
    });
    if (commit) {
      const kept = await core.store.gitPacks.append({ commit, parent: head?.commit ?? null, time, pack: await repo.pack(head?.commit ?? null, commit) });
      if (!kept) {
        // Another process recorded a commit first: theirs is the branch, this one is dropped.
        await this.catchUpNow();
        return { commit: null, head: this.head?.commit ?? null, written: 0, deleted: 0, files: files - 2 };
      }
      this.head = { commit, time };
    } else this.head = head;
    await this.snapshotIfDue();
    return { commit, head: this.head?.commit ?? null, written, deleted, files: files - 2 };
  }

  /** A new tarball when there is none, or when it is git.tarball_cache old and the branch moved. */
  private async snapshotIfDue(): Promise<void> {
    const head = this.head;
    if (!head) return;
    const snap = this.snap ?? (await this.repo.snapshot());
    const now = this.core.now();
    const due = !snap || (snap.commit !== head.commit && now - snap.time >= limit('git.tarball_cache') * 3_600_000);
    this.snap = due ? await this.repo.writeSnapshot(head.commit, now) : snap;
  }

  /** The tarball to serve; 503 before the first. */
  snapshot(): Snapshot {
    if (!this.snap) throw new CxError('busy', 'git mirror has no snapshot yet, retry later', 503, { 'Retry-After': String(limit('git.commit_every')) });
    return this.snap;
  }

  /**
   * Admits one upload-pack request and spawns it: 503 when the mirror is not ready or
   * git.concurrent requests already run.
   */
  async serve(kind: 'adv' | 'rpc', body: Buffer | null, v2: boolean): Promise<PackProcess> {
    const retry = { 'Retry-After': String(limit('shed.retry_after')) };
    // Every request, not only the advertisement: behind a balancer the rounds of one fetch (v2's
    // ls-refs, then fetch) may reach different replicas, and each must have what another advertised.
    if (this.usable && (await this.behind()))
      await this.catchUp().catch((err: unknown) => this.core.log.error({ err }, 'git mirror: catching up with the store failed'));
    if (!this.ready) throw new CxError('busy', 'git mirror not ready yet, retry later', 503, retry);
    if (this.active >= limit('git.concurrent'))
      throw new CxError('busy', `git mirror serves ${limit('git.concurrent')} fetches at once, retry later`, 503, retry);
    this.active++;
    let p: PackProcess;
    try {
      p = this.repo.uploadPack(kind, body, { v2, timeoutMs: limit('git.timeout') * 1000 });
    } catch (err) {
      this.active--;
      throw err;
    }
    void p.done.finally(() => this.active--);
    return p;
  }
}
