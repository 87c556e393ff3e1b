// Port of the git mirror: a repository the mirror job writes and real `git upload-pack` serves.
// src/store/git/repo.ts implements it by spawning the git binary (plumbing: no work tree).
import type { Readable } from 'node:stream';

/** The default branch's tip. */
export interface MirrorHead {
  commit: string;
  /** Commit time, epoch ms. */
  time: number;
}

/** One file of the next commit: `content` written at `path`, or the path deleted when absent. */
export interface FileChange {
  path: string;
  content?: Buffer;
}

export interface CommitMeta {
  name: string;
  email: string;
  /** Epoch ms. */
  time: number;
  /** Called once every change was taken, so it can count them. */
  message(): string;
}

/** The daily tarball of the default branch. */
export interface Snapshot {
  commit: string;
  /** When it was made, epoch ms (Last-Modified). */
  time: number;
  size: number;
  /** Bytes start..end (inclusive). */
  open(start: number, end: number): Readable;
}

/** A running `git upload-pack`: its output, its end (exit code, null when killed). */
export interface PackProcess {
  stdout: Readable;
  done: Promise<number | null>;
  kill(): void;
}

export interface MirrorRepo {
  /** Creates the bare repository when missing; false when git cannot run here. */
  init(): Promise<boolean>;
  head(): Promise<MirrorHead | null>;
  /** Every file of the head commit: path → blob id (sha1 hex). Empty before the first commit. */
  files(): Promise<Map<string, string>>;
  /**
   * One commit on the default branch on top of `parent` (null: the first) with the changes the
   * iterable yields; nothing is written and null returned when it yields none. Resolves to the new
   * commit id. The branch only moves forward from `parent` (a concurrent writer makes it fail).
   */
  commit(parent: string | null, changes: AsyncIterable<FileChange>, meta: CommitMeta): Promise<string | null>;
  /** The newest tarball, null before the first. */
  snapshot(): Promise<Snapshot | null>;
  /** Writes the tarball of `commit` (made at `time`), replacing the previous one atomically. */
  writeSnapshot(commit: string, time: number): Promise<Snapshot>;
  /**
   * Spawns `git upload-pack --stateless-rpc` (with `--advertise-refs` for `adv`) on the repository,
   * `body` on its stdin; protocol v2 when `v2`. Killed after `timeoutMs`.
   */
  uploadPack(kind: 'adv' | 'rpc', body: Buffer | null, opts: { v2: boolean; timeoutMs: number }): PackProcess;
  /** A pack of the objects reachable from `to` and not from `from` (null: all of them). */
  pack(from: string | null, to: string): Promise<Buffer>;
  /** Stores the objects of a pack made by `pack` (nothing else moves). */
  applyPack(pack: Buffer): Promise<void>;
  /** True when the repository has the commit `commit`. */
  has(commit: string): Promise<boolean>;
  /** Points the default branch at `commit` (which must be in the repository), whatever it pointed at. */
  setHead(commit: string): Promise<void>;
}

/** One commit of the mirror's history as the store keeps it: the pack of the objects it added. */
export interface MirrorPack {
  seq: number;
  commit: string;
  /** The commit it follows (the previous row's), null for the first. */
  parent: string | null;
  /** Commit time, epoch ms. */
  time: number;
  pack: Buffer;
}

/**
 * The mirror's history in the store every replica shares (table git_packs): the one truth of which
 * commits the default branch has, from which each replica's own repository is rebuilt.
 */
export interface GitPackRepo {
  /** The newest row, without its pack; null before the first commit. */
  tip(): Promise<Omit<MirrorPack, 'pack'> | null>;
  /** The rows after `seq`, oldest first, at most `limit`. */
  after(seq: number, limit: number): Promise<MirrorPack[]>;
  /** The seq of a recorded commit, or null. */
  seqOf(commit: string): Promise<number | null>;
  /**
   * Records `commit` as the next row when the newest row is `parent` (null: when there is none);
   * false when another process recorded a commit first (the branch only moves forward).
   */
  append(p: Omit<MirrorPack, 'seq'>): Promise<boolean>;
}
