// What both engines share for the private KB entries of spaces (port: src/core/kb/space/ports.ts):
// the row mapping, the LIKE patterns of retrieval and its ranking (most query words first), the
// rank within a signature, and the rows of outcomes as the tally reads them.
import type { OutcomeKind, OutcomeRow } from '../core/kb/outcomes.js';
import type { SpaceEntry, SpaceKbEntry } from '../core/kb/space/ports.js';

export interface SpaceKbRow {
  id: string;
  space: string;
  sig: string;
  h: string;
  ch: string;
  title: string;
  error: string;
  fix: string;
  eco: string;
  cls: string;
  tags: string;
  libs: string;
  author: string;
  created: number | string;
  confirms: number;
  fails: number;
  changes: number;
  w_worked: number;
  w_changes: number;
  w_failed: number;
  principals: number;
  disputed: number | boolean;
  disputed_at: number | string;
}

export const SPACE_KB_COLS =
  'id, space, sig, h, ch, title, error, fix, eco, cls, tags, libs, author, created, confirms, fails, changes, w_worked, w_changes, w_failed, principals, disputed, disputed_at';
/** The same columns of `space_kb` under the alias `e` (reads through another table). */
export const SPACE_KB_COLS_E = SPACE_KB_COLS.split(', ')
  .map((c) => `e.${c}`)
  .join(', ');
/** Best first within a signature, as public entries rank (kb_by_h): undisputed, then outcomes, then newest. */
export const spaceSigRank = (p = '') => `${p}disputed, (${p}confirms * 3 - ${p}fails * 2) DESC, ${p}created DESC, ${p}id`;
export const SPACE_SIG_RANK = spaceSigRank();

const words = (s: string) => (s ? s.split(' ').filter(Boolean) : []);

export function spaceEntryOf(r: SpaceKbRow): SpaceKbEntry {
  return {
    ...r,
    tags: words(r.tags),
    libs: words(r.libs),
    created: Number(r.created),
    w_worked: Number(r.w_worked),
    w_changes: Number(r.w_changes),
    w_failed: Number(r.w_failed),
    disputed: !!r.disputed,
    disputed_at: Number(r.disputed_at),
  };
}

/** The row to insert: list fields joined, the lower-cased text retrieval reads, the ErrSig version (0: unknown). */
export function spaceKbRow(e: SpaceEntry): Omit<SpaceKbRow, 'created' | keyof Figures> & { created: number; body: string; sigv: number } {
  const { sigv, ...rest } = e;
  return {
    ...rest,
    tags: e.tags.join(' '),
    libs: e.libs.join(' '),
    body: spaceBody(e.title, e.error, e.fix, e.tags.join(' ')),
    sigv: sigv ?? 0,
  };
}
type Figures = Omit<SpaceKbEntry, keyof SpaceEntry>;

/** The lower-cased text retrieval reads (written again when re-signing changes the title). */
export const spaceBody = (title: string, error: string, fix: string, tags: string) => `${title}\n${error}\n${fix}\n${tags}`.toLowerCase();

/** An outcome row joined with its voter's identity (null columns: the identity is gone), as the tally takes it. */
export interface SpaceOutcomeRow {
  voter: string;
  kind: OutcomeKind;
  net: string;
  root: string;
  created: number | string | null;
  rep: number;
  confirmed: number;
  frozen: number | boolean;
}
export const outcomeRowOf = (r: SpaceOutcomeRow): OutcomeRow => ({
  voter: r.voter,
  kind: r.kind,
  net: r.net,
  root: r.root,
  who: r.created === null ? null : { created: Number(r.created), rep: r.rep, confirmed: r.confirmed, frozen: !!r.frozen },
});

/** A LIKE pattern for a word anywhere in the body (escape character `\`). */
export const likeOf = (w: string) => `%${w.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Rows fetched before ranking: a space's pool is bounded by space.kb_entries, a lookup by this. */
export const SPACE_SCAN = 200;

/** The rows holding the most of the words first (then newest), at most `limit`. */
export function rankByWords(rows: SpaceKbRow[], ws: string[], limit: number): SpaceKbEntry[] {
  const low = ws.map((w) => w.toLowerCase());
  return rows
    .map((r) => {
      const body = `${r.title}\n${r.error}\n${r.fix}\n${r.tags}`.toLowerCase();
      return { r, n: low.filter((w) => body.includes(w)).length };
    })
    .filter((x) => x.n > 0)
    .sort((a, b) => b.n - a.n || Number(b.r.created) - Number(a.r.created))
    .slice(0, limit)
    .map((x) => spaceEntryOf(x.r));
}
