// Full-text search on PostgreSQL: a tsvector column with a GIN index, matched with `@@` (never
// LIKE). The words are cut in JavaScript, the way the SQLite adapter's FTS5 tokenizer (unicode61,
// remove_diacritics 2) cuts them: runs of letters and digits, lower-cased, diacritics removed. So
// both engines find the same entries for the same query; PostgreSQL's own parser would keep
// `node.js`, `a/b/c` or `1.2.3` whole and find less. Lexemes are stored as they are
// (array_to_tsvector) and queried as quoted terms, so no text reaches the tsquery parser raw.
import { ftsQuery } from '../shared.js';

const words = (text: string): string[] =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

/** The distinct words of some texts, for `array_to_tsvector($n::text[])`. */
export function ftsWords(...texts: string[]): string[] {
  return [...new Set(texts.flatMap(words))];
}

/** A query's terms (as the SQLite adapter picks them: ftsQuery) as a tsquery text, all required; null when it has none. */
export function tsQuery(q: string): string | null {
  const m = ftsQuery(q);
  if (m === null) return null;
  const terms = [...new Set(words(m))];
  return terms.length ? terms.map((t) => `'${t}'`).join(' & ') : null;
}

/** The terms of text retrieval cut as the tsvector holds them (at most 16). */
export const anyTerms = (terms: string[]): string[] => [...new Set(terms.flatMap(words))].slice(0, 16);
