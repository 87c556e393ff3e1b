// KB full-text search with a bounded cost and a short memo. FTS5 finds the newest matches by
// walking rowids backwards, which stops early when matches are dense; but an AND of common terms
// that rarely meet (say "config cache index") walks every posting of each term: ~12 ms at 1M
// entries, whatever rowid range it is given. So the newest window of rowids is searched first; if
// it holds too few matches, the rest is searched in one more statement, only when the first took
// little enough of the budget (which bounds what follows the first statement, not the first). (A
// rowid window does not make FTS5 read less: measured at 1M entries, each window of the earlier
// doubling walk cost about what the whole rest costs, 0.45 ms for a sparse AND, so the walk paid
// that once per window.) What it found is ranked and kept for 60 s (or until the KB changes),
// since agents ask the same questions again.
import type { KbHit } from '../../core/kb/ports.js';
import { LIMIT, type Db } from './db.js';
import { HIT_COLS, RANK, toKbHit, type HitRow } from './kb-rows.js';
import { Memo } from '../memo.js';
import { DfMemo, RARE_DF, rareTerms } from '../shared.js';

const CANDIDATES = 200;

export interface KbSearchOptions {
  budgetMs?: number;
  /** Rowids in the first (newest) window; the rest are searched together. */
  firstWindow?: number;
  ttlMs?: number;
  memoSize?: number;
  /** The KB's write generation: memoized results from an older one are not served. */
  gen?: () => number;
}

export function kbSearch(db: Db, { budgetMs = 4, firstWindow = 65_536, ttlMs = 60_000, memoSize = 2000, gen }: KbSearchOptions = {}) {
  const maxN = db.prepare('SELECT coalesce(max(n), 0) FROM kb_entries').pluck();
  const window = db.prepare(`SELECT rowid FROM kb_fts WHERE kb_fts MATCH ? AND rowid > ? AND rowid <= ? ORDER BY rowid DESC ${LIMIT}`).pluck();
  const older = db.prepare(`SELECT rowid FROM kb_fts WHERE kb_fts MATCH ? AND rowid <= ? ORDER BY rowid DESC ${LIMIT}`).pluck();
  const ranked = db.prepare(`SELECT ${HIT_COLS} FROM kb_entries e WHERE e.n IN (SELECT value FROM json_each(?)) AND e.hidden = 0 ORDER BY ${RANK} ${LIMIT}`);
  const memo = new Memo<KbHit[]>({ ttlMs, max: memoSize, gen });

  /** Rowids of the newest matches, within the budget. */
  const candidates = (match: string): number[] => {
    const hi = maxN.get() as number;
    const lo = Math.max(0, hi - firstWindow);
    const t0 = performance.now();
    const found = window.all(match, lo, hi, CANDIDATES) as number[];
    // Expect the rest to cost up to about twice the first window (it reads what the first read, and more).
    if (found.length < CANDIDATES && lo > 0 && 3 * (performance.now() - t0) <= budgetMs) {
      for (const r of older.all(match, lo, CANDIDATES - found.length) as number[]) found.push(r);
    }
    return found;
  };

  // Any of the words, best text match first (bm25: title and error weigh most). Only rare terms
  // (RARE_DF) are ORed: ranking every entry that says "module" or "failed" cost ~1 s at 1M entries.
  const best = db.prepare(`SELECT rowid FROM kb_fts WHERE kb_fts MATCH ? ORDER BY bm25(kb_fts, 4.0, 3.0, 0.5, 1.0) ${LIMIT}`).pluck();
  // A literal bound (a number written into the SQL, not a bound parameter: SQLite's planner).
  const dfOf = db.prepare('SELECT count(*) FROM (SELECT rowid FROM kb_fts WHERE kb_fts MATCH ? LIMIT ' + String(RARE_DF + 1) + ')').pluck();
  const dfs = new DfMemo();
  const df = (t: string): number => {
    let n = dfs.get(t);
    if (n === undefined) dfs.set(t, (n = dfOf.get(`"${t}"`) as number));
    return n;
  };
  const byIds = db.prepare(`SELECT ${HIT_COLS}, e.n AS n FROM kb_entries e WHERE e.n IN (SELECT value FROM json_each(?)) AND e.hidden = 0`);

  return {
    /** Entries matching any of the rare ones of `terms` (retrievalTerms), in bm25 order (memoized like searches). */
    any(terms: string[], limit: number, now = Date.now()): KbHit[] {
      const rare = rareTerms(terms, df);
      if (!rare.length) return [];
      const match = rare.map((t) => `"${t}"`).join(' OR ');
      return memo.get(`any\0${limit}\0${match}`, now, () => {
        // Twice the limit is read first (hidden entries are skipped); all CANDIDATES only when
        // hidden ones left too few. Reading 200 rows to keep 10 was most of a lookup's retrieval.
        const hits = (ids: number[]): KbHit[] => {
          const rows = new Map((byIds.all(JSON.stringify(ids)) as Array<HitRow & { n: number }>).map((r) => [r.n, r]));
          const out: KbHit[] = [];
          for (const n of ids) {
            const r = rows.get(n);
            if (!r) continue;
            const { n: _n, ...hit } = r;
            out.push(toKbHit(hit));
            if (out.length >= limit) break;
          }
          return out;
        };
        const first = best.all(match, 2 * limit) as number[];
        const out = hits(first);
        return out.length >= limit || first.length < 2 * limit ? out : hits(best.all(match, CANDIDATES) as number[]);
      });
    },
    run(match: string, limit: number, now = Date.now()): KbHit[] {
      return memo.get(`${limit}\0${match}`, now, () => {
        const ids = candidates(match);
        return ids.length ? (ranked.all(JSON.stringify(ids), limit) as HitRow[]).map(toKbHit) : [];
      });
    },
  };
}
