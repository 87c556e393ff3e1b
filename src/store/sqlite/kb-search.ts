// KB full-text search with a bounded cost and a short memo. FTS5 finds the newest matches by
// walking rowids backwards, which stops early when matches are dense; but an AND of common terms
// that rarely meet (say "config cache index") walks every posting of each term: ~10 ms at 1M
// entries. So the walk goes through windows of rowids, newest first and doubling, and stops once
// the next window would overrun the budget; what it found is ranked and kept for 60 s (or until
// the KB changes), since agents ask the same questions again.
import type { KbHit } from '../../core/kb/ports.js';
import { LIMIT, type Db } from './db.js';
import { HIT_COLS, RANK, toKbHit, type HitRow } from './kb-rows.js';
import { Memo } from './memo.js';

const CANDIDATES = 200;

export interface KbSearchOptions {
  budgetMs?: number;
  /** Rowids in the first (newest) window; each next one is twice as wide. */
  firstWindow?: number;
  ttlMs?: number;
  memoSize?: number;
  /** The KB's write generation: memoized results from an older one are not served. */
  gen?: () => number;
}

export function kbSearch(db: Db, { budgetMs = 4, firstWindow = 65_536, ttlMs = 60_000, memoSize = 2000, gen }: KbSearchOptions = {}) {
  const maxN = db.prepare('SELECT coalesce(max(n), 0) FROM kb_entries').pluck();
  const window = db.prepare(`SELECT rowid FROM kb_fts WHERE kb_fts MATCH ? AND rowid > ? AND rowid <= ? ORDER BY rowid DESC ${LIMIT}`).pluck();
  const ranked = db.prepare(`SELECT ${HIT_COLS} FROM kb_entries e WHERE e.n IN (SELECT value FROM json_each(?)) AND e.hidden = 0 ORDER BY ${RANK} ${LIMIT}`);
  const memo = new Memo<KbHit[]>({ ttlMs, max: memoSize, gen });

  /** Rowids of the newest matches, within the budget. */
  const candidates = (match: string): number[] => {
    const found: number[] = [];
    let hi = maxN.get() as number;
    let size = firstWindow;
    const t0 = performance.now();
    while (hi > 0 && found.length < CANDIDATES) {
      const tw = performance.now();
      const lo = Math.max(0, hi - size);
      for (const r of window.all(match, lo, hi, CANDIDATES - found.length) as number[]) found.push(r);
      hi = lo;
      size *= 2;
      const now = performance.now();
      // The next window is twice as wide: expect about twice the time.
      if (now - t0 + 2 * (now - tw) > budgetMs) break;
    }
    return found;
  };

  return {
    run(match: string, limit: number, now = Date.now()): KbHit[] {
      return memo.get(`${limit}\0${match}`, now, () => {
        const ids = candidates(match);
        return ids.length ? (ranked.all(JSON.stringify(ids), limit) as HitRow[]).map(toKbHit) : [];
      });
    },
  };
}
