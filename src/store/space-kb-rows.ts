// What both engines share for the private KB entries of spaces (port: src/core/spaces/ports.ts):
// the row mapping, the LIKE patterns of retrieval and its ranking (most query words first).
import type { SpaceEntry } from '../core/spaces/ports.js';

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
}

export const SPACE_KB_COLS = 'id, space, sig, h, ch, title, error, fix, eco, cls, tags, libs, author, created';

const words = (s: string) => (s ? s.split(' ').filter(Boolean) : []);

export function spaceEntryOf(r: SpaceKbRow): SpaceEntry {
  return { ...r, tags: words(r.tags), libs: words(r.libs), created: Number(r.created) };
}

/** The row to insert: list fields joined, and the lower-cased text retrieval reads. */
export function spaceKbRow(e: SpaceEntry): Omit<SpaceKbRow, 'created'> & { created: number; body: string } {
  return { ...e, tags: e.tags.join(' '), libs: e.libs.join(' '), body: `${e.title}\n${e.error}\n${e.fix}\n${e.tags.join(' ')}`.toLowerCase() };
}

/** A LIKE pattern for a word anywhere in the body (escape character `\`). */
export const likeOf = (w: string) => `%${w.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Rows fetched before ranking: a space's pool is bounded by space.kb_entries, a lookup by this. */
export const SPACE_SCAN = 200;

/** The rows holding the most of the words first (then newest), at most `limit`. */
export function rankByWords(rows: SpaceKbRow[], ws: string[], limit: number): SpaceEntry[] {
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
