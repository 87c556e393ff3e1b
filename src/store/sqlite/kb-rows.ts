// KB rows as the SQLite adapter reads them: the columns, the rank order and the mapping to entries.
import type { KbEntry, KbHit, Lib } from '../../core/kb/ports.js';
import { LIMIT } from './db.js';

export interface Row {
  n: number;
  id: string;
  sig: string;
  h: string;
  ch: string;
  title: string;
  error: string;
  fix: string;
  eco: string;
  cls: string;
  tags: string;
  author: string;
  created: number;
  updated: number;
  confirms: number;
  fails: number;
  hits: number;
  libs: string | null;
  changes: number;
  w_worked: number;
  w_changes: number;
  w_failed: number;
  principals: number;
  disputed: number;
  disputed_at: number;
}

/** A lookup's row: what KbHit holds, libraries still packed. */
export interface HitRow {
  id: string;
  title: string;
  fix: string;
  confirms: number;
  fails: number;
  libs: string | null;
  sig: string;
  eco: string;
  changes: number;
  w_worked: number;
  w_changes: number;
  w_failed: number;
  principals: number;
  disputed: number;
}

/** The outcome figures of an entry (src/core/kb/outcomes.ts), read with every entry and hit. */
const FIGURES = 'e.changes, e.w_worked, e.w_changes, e.w_failed, e.principals, e.disputed';

// Lookups are counted per signature (kb_sig_hits): an entry's hits are its signature's.
export const HITS = '(SELECT hits FROM kb_sig_hits WHERE h = e.h)';
const LIBS = "(SELECT group_concat(name || '@' || ver, ' ') FROM kb_libs WHERE entry = e.n)";
// Error texts live apart (kb_errors): rows of kb_entries stay small for lookups and listings.
export const COLS = `e.n, e.id, e.sig, e.h, e.ch, e.title, (SELECT error FROM kb_errors WHERE n = e.n) AS error, e.fix, e.eco, e.cls, e.tags, e.author, e.created, e.updated, e.confirms, e.fails,
  coalesce(${HITS}, 0) AS hits, ${LIBS} AS libs, ${FIGURES}, e.disputed_at`;
/** What lookups and searches print of an entry (KbHit): no error text, so memoized results stay small. */
export const HIT_COLS = `e.id, e.title, e.fix, e.confirms, e.fails, ${LIBS} AS libs, e.sig, e.eco, ${FIGURES}`;
// Best first: undisputed before disputed, then confirmations outweigh failures, then demand, then recency.
/**
 * The best entries reaching a signature, `from` and `where` naming how (fine hash, coarse hash, an
 * earlier version's alias), in the order of the kb_by_h / kb_by_ch indexes: a signature's entries
 * share its hits, so confirmations and recency decide among them.
 */
export const bestBy = (from: string, where: string) =>
  `SELECT ${HIT_COLS} FROM ${from} WHERE ${where} = ? AND e.hidden = 0 ORDER BY e.disputed, (e.confirms * 3 - e.fails * 2) DESC, e.created DESC ${LIMIT}`;
export const RANK = `e.disputed, (e.confirms * 3 - e.fails * 2) DESC, ${HITS} DESC NULLS LAST, e.created DESC`;

function parseLibs(s: string | null): Lib[] {
  if (!s) return [];
  return s.split(' ').map((x) => {
    const at = x.lastIndexOf('@');
    return { name: x.slice(0, at), ver: x.slice(at + 1) };
  });
}

export const toEntry = (r: Row): KbEntry => ({ ...r, tags: r.tags ? r.tags.split(' ') : [], libs: parseLibs(r.libs), disputed: r.disputed === 1 });
export const toKbHit = (r: HitRow): KbHit => ({ ...r, libs: parseLibs(r.libs), disputed: r.disputed === 1 });
