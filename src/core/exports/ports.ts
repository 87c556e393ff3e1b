// Ports of the open-data exports: the rows an export reads (public rows only, in pages, so memory
// stays bounded at any size) with the removals (tombstones), and the directory the files go to.
// src/store/sqlite/exports.ts and src/store/files/exports.ts implement them.
import type { Readable, Writable } from 'node:stream';
import type { SignedConfirm } from '../platform/trust/ports.js';

export const TOMB_KINDS = ['kb', 'task', 'digest', 'claim', 'identity', 'cp'] as const;
export type TombKind = (typeof TOMB_KINDS)[number];

/** Spec 2.2 "Export tombstone row": ids only, never content. */
export interface Tombstone {
  id: string;
  kind: TombKind;
  removed_at: number;
  reason: string;
}

/** Where a digest page ended: its primary key. */
export interface DigestKey {
  lib: string;
  ver: string;
  topic: string;
  author: string;
}

export type Claim = Omit<SignedConfirm, 'net'>;

/** A KB entry or a task as far as the exports know it: its page cursor and id. */
export interface Numbered {
  n: number;
  id: string;
}

/**
 * Pages in a stable order, each after the cursor of the previous one; `since` (ms) keeps only rows
 * changed at or after it (0: all). Every page holds only what the public reads show: hidden KB
 * entries and rows with a tombstone (their own, or their author's `identity` one) are left out.
 * The rows are the KB's and the tasks' records (`Entry`, `Task`, `Digest`): the composition root
 * binds their shapes (the store type of src/compose); the exports need only their cursors, and the
 * domains that own them show them (Module.exportViews), so the exports name none of them.
 */
export interface ExportRepo<Entry extends Numbered = Numbered, Task extends Numbered = Numbered, Digest extends DigestKey = DigestKey> {
  /** Visible KB entries with n above `after`, by n. */
  kb(after: number, since: number, limit: number): Promise<Entry[]>;
  /** Tasks with n above `after`, by n. */
  tasks(after: number, since: number, limit: number): Promise<Task[]>;
  /** Digests after `after` in key order (lib, ver, topic, author). */
  digests(after: DigestKey | null, since: number, limit: number): Promise<Digest[]>;
  /** Signed confirmations (conf1) after (entry, id), of visible entries; never the network key. */
  claims(after: { entry: string; id: string } | null, since: number, limit: number): Promise<Claim[]>;
  /** Tombstones removed at or after `since`, after the cursor, by (removed_at, kind, id). */
  tombstones(since: number, after: Pick<Tombstone, 'removed_at' | 'kind' | 'id'> | null, limit: number): Promise<Tombstone[]>;
  /** Records a removal (again: the later time and reason win). */
  tombstone(t: Tombstone): Promise<void>;
  /** Takes a removal back (content restored); false when there was none. */
  untomb(kind: TombKind, id: string): Promise<boolean>;
}

/** A file of an export as stored. */
export interface StoredFile {
  size: number;
  /** Last modified, ms. */
  mtime: number;
  stream(opts?: { start?: number; end?: number }): Readable;
}

/** An export being written: nothing is visible until commit. */
export interface ExportDraft {
  /** A new file of the draft, written as a stream. */
  create(name: string): Writable;
  /** Makes the draft the export of its date at once, replacing an earlier one of that date. */
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** The exports' directory (a data-directory folder; an object store later). */
export interface ExportFiles {
  begin(date: string): Promise<ExportDraft>;
  /** Dates (YYYY-MM-DD) of the committed exports, oldest first. */
  dates(): Promise<string[]>;
  open(date: string, name: string): Promise<StoredFile | null>;
  read(date: string, name: string): Promise<Buffer | null>;
  remove(date: string): Promise<void>;
}
