// Async port of checkpoints; src/store/sqlite/checkpoints.ts implements it.
import type { Identity } from '../platform/identity/ports.js';

export interface CheckpointRow {
  rid: number;
  id: string;
  owner: string;
  name: string;
  /** Counts the saves of (owner, name), from 1. */
  seq: number;
  body: string;
  size: number;
  created: number;
  exp: number;
  published: boolean;
  /** Publication lost by the reader-network rule; cannot be published again. */
  lost: boolean;
  hidden: boolean;
}

export type CheckpointMeta = Omit<CheckpointRow, 'body'>;

export type NewCheckpoint = Pick<CheckpointRow, 'id' | 'owner' | 'name' | 'body' | 'size' | 'created' | 'exp'>;

export type ReadVerdict = 'ok' | 'over' | 'gone';

export interface CheckpointRepo {
  /**
   * One transaction: draws the next seq of (owner, name), inserts, deletes the oldest saves of that
   * name beyond `keep`. 'full' when the owner holds `max` live checkpoints; 'taken' on an id clash.
   */
  save(row: NewCheckpoint, now: number, max: number, keep: number): Promise<CheckpointRow | 'full' | 'taken'>;
  /** The owner's live checkpoint (hidden ones too: the owner may still delete them). */
  own(id: string, owner: string, now: number): Promise<CheckpointRow | null>;
  /** A live, published, visible checkpoint and its owner; null otherwise. */
  published(id: string, now: number): Promise<{ cp: CheckpointRow; owner: Identity } | null>;
  /**
   * Records a reader network (a keyed tag) of a published checkpoint, as one transaction: a network
   * beyond the first `cap` distinct ones unpublishes it for good ('over'). `cap` null (owner at L2+)
   * records nothing. 'gone' when it stopped being published meanwhile.
   */
  read(rid: number, net: Buffer, cap: number | null): Promise<ReadVerdict>;
  /** Distinct reader networks recorded. */
  readers(rid: number): Promise<number>;
  setPublished(id: string, owner: string, on: boolean, now: number): Promise<CheckpointMeta | null>;
  list(owner: string, name: string | null, before: number | null, n: number, now: number): Promise<CheckpointMeta[]>;
  remove(id: string, owner: string): Promise<boolean>;
  purgeExpired(now: number): Promise<number>;
}
