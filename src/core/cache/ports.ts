// Async port of cached results; src/store/sqlite/cache.ts implements it.
import type { Identity } from '../platform/identity/ports.js';

export interface CacheRow {
  rid: number;
  ns: string;
  key: string;
  producer: string;
  kind: 'inline' | 'blob';
  text: string | null;
  blob: string | null;
  size: number;
  /** Handed off to this identity only. */
  to: string | null;
  hits: number;
  created: number;
  exp: number;
  hidden: boolean;
}

export type NewCacheRow = Omit<CacheRow, 'rid' | 'hits' | 'hidden'>;

/** 'gone': the row was removed or purged after it was looked up (the reader gets the same 404). */
export type ReadGate = 'ok' | 'token' | 'gone';

export interface CacheRepo {
  /**
   * Inserts or replaces the producer's own row of (ns, key), taking over an expired row of anyone.
   * 'held' when another producer holds a live row; 'full' when the producer holds `max` live rows.
   */
  put(row: NewCacheRow, now: number, max: number): Promise<{ row: CacheRow; created: boolean } | 'held' | 'full'>;
  /** A live, visible row and its producer; null otherwise. */
  get(ns: string, key: string, now: number): Promise<{ row: CacheRow; producer: Identity } | null>;
  /**
   * One read as one transaction: counts the hit and records the reader network (a keyed tag; null
   * records nothing) while fewer than `cap` are recorded. With `enforce`, a network that is not one
   * of the first `cap` gets 'token' and nothing is counted; a row gone since `get` gives 'gone' and
   * records nothing. Returns the hit count after the read.
   */
  read(rid: number, net: Buffer | null, cap: number, enforce: boolean): Promise<{ gate: ReadGate; hits: number }>;
  remove(ns: string, key: string, producer: string, now: number): Promise<boolean>;
  purgeExpired(now: number): Promise<number>;
}
