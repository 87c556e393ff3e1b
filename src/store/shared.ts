// Helpers both storage engines use (SQLite in src/store/sqlite, PostgreSQL in src/store/pg): the
// job queue's backoff, the KB/task search terms (both engines cut words the same way so they find
// the same rows), and the drafts an `emit` argument stands for.
import type { Emit, EventDraft } from '../core/events/ports.js';
import { limit } from '../core/limits.js';

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

/** The drafts an `emit` argument stands for, given the row as stored. */
export const draftsOf = <Row>(emit: Emit<Row> | undefined, row: Row): EventDraft[] => (emit === undefined ? [] : typeof emit === 'function' ? emit(row) : emit);
