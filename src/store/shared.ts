// Helpers both storage engines use (SQLite in src/store/sqlite, PostgreSQL in src/store/pg): the
// job queue's backoff, the KB/task search terms (both engines cut words the same way so they find
// the same rows), the drafts an `emit` argument stands for, and the sealing of A2A push configs.
import { randomBytes } from 'node:crypto';
import { NONCE, open, seal, subkey } from '../core/kernel/crypto/aead.js';
import type { Emit, EventDraft } from '../core/platform/events/ports.js';
import type { Job } from '../core/platform/jobs/ports.js';
import { limit } from '../core/kernel/limits.js';

/** The job queue's columns, as both engines read a job row. */
export const JOB_COLS = 'n, id, queue, payload, tries, max_tries, lease, lease_until, error';

/** A job row of either engine; `payload` as the engine stores it (JSON text on SQLite, jsonb on PostgreSQL). */
export interface JobRow<P> {
  n: number;
  id: string;
  queue: string;
  payload: P;
  tries: number;
  max_tries: number;
  lease: string | null;
  lease_until: number | null;
  error: string | null;
}

/** The port's Job of a row, its payload decoded by `decode`. */
export const jobOf = <P>(r: JobRow<P>, decode: (p: P) => unknown): Job => ({
  id: r.id,
  queue: r.queue,
  payload: decode(r.payload),
  tries: r.tries,
  maxTries: r.max_tries,
  lease: r.lease ?? '',
  leaseUntil: r.lease_until ?? 0,
  error: r.error,
});

/** Characters of a failed try's error kept on the job. */
export const JOB_ERROR_MAX = 1000;

/** A fresh random token (job ids take 16 characters of one; leases the whole). */
export const jobToken = (): string => randomBytes(16).toString('base64url');

/** Refuses a negative or non-finite delay or lease time (a caller's bug, not input). */
export function checkMs(name: string, v: number | undefined): void {
  if (v !== undefined && (!Number.isFinite(v) || v < 0)) throw new RangeError(`${name} must be a finite number >= 0`);
}

/** Delay before a failed job's next try: exponential from jobs.backoff_base_ms, capped. */
export function backoffMs(tries: number, base = limit('jobs.backoff_base_ms'), max = limit('jobs.backoff_max_ms')): number {
  return Math.min(max, base * 2 ** Math.min(Math.max(tries - 1, 0), 40));
}

/** Search terms of a query, quoted (FTS5 syntax; PostgreSQL turns them into a tsquery). */
export function ftsQuery(q: string): string | null {
  // Short bare numbers (line numbers, counts) match half the corpus and say nothing: left out.
  const terms = (q.toLowerCase().match(/[\p{L}\p{N}_]{2,}/gu) ?? []).filter((t) => !/^\d{1,3}$/.test(t)).slice(0, 12);
  return terms.length ? terms.map((t) => `"${t}"`).join(' ') : null;
}

/**
 * Text retrieval's terms: the distinct words (as the FTS tokenizer cuts them), at most 16. Short
 * bare numbers say nothing.
 */
export function retrievalTerms(words: string[]): string[] {
  return [
    ...new Set(
      words
        .join(' ')
        .toLowerCase()
        .match(/[\p{L}\p{N}_]{2,}/gu) ?? [],
    ),
  ]
    .filter((t) => !/^\d{1,3}$/.test(t))
    .slice(0, 16);
}

/** A term in more entries than this tells nothing apart, and ranking all of them costs (1M entries: ~1 s a query). */
export const RARE_DF = 2000;
/** Terms an answer's text retrieval ORs together at most: the rarest. */
export const RARE_TERMS = 6;

/**
 * The rarest terms (document frequency at most RARE_DF), rarest first. `df` counts a term's entries
 * up to RARE_DF + 1 (a bounded read), memoized by the caller.
 */
export function rareTerms(terms: string[], df: (t: string) => number): string[] {
  return terms
    .map((t) => [t, df(t)] as const)
    .filter(([, n]) => n > 0 && n <= RARE_DF)
    .sort((a, b) => a[1] - b[1])
    .slice(0, RARE_TERMS)
    .map(([t]) => t);
}

/** A small memo of document frequencies (a stale count only moves a term across RARE_DF a little late). */
export class DfMemo {
  private readonly m = new Map<string, number>();
  constructor(private readonly max = 50_000) {}
  get(t: string): number | undefined {
    return this.m.get(t);
  }
  set(t: string, n: number): void {
    if (this.m.size >= this.max) this.m.clear();
    this.m.set(t, n);
  }
}

/** The drafts an `emit` argument stands for, given the row as stored. */
export const draftsOf = <Row>(emit: Emit<Row> | undefined, row: Row): EventDraft[] => (emit === undefined ? [] : typeof emit === 'function' ? emit(row) : emit);

/** Where an A2A push config is: the AAD of its sealed bytes, so a ciphertext copied onto another row fails. */
export interface PushPlace {
  task: string;
  id: string;
  owner: string;
  agent: string;
}

/**
 * Push configs carry the caller's webhook token and credentials: sealed at rest with a subkey of
 * the workspace key (nonce || ciphertext || tag), the AAD naming the row. `open` gives null for a
 * row that is unsealed or fails authentication (moved, tampered, other key): never guessed at.
 */
export function pushSealer(master: Buffer, random: (n: number) => Buffer = randomBytes) {
  const key = subkey(master, 'cx-a2a-push-v1');
  const aad = (p: PushPlace) => JSON.stringify(['a2a-push', p.task, p.id, p.owner, p.agent]);
  return {
    seal(p: PushPlace, body: string): Buffer {
      const nonce = random(NONCE);
      return Buffer.concat([nonce, seal(key, nonce, body, aad(p))]);
    },
    open(p: PushPlace, sealed: Buffer | null): string | null {
      if (!sealed || sealed.length <= NONCE) return null;
      const plain = open(key, sealed.subarray(0, NONCE), sealed.subarray(NONCE), aad(p));
      return plain ? plain.toString('utf8') : null;
    },
  };
}
