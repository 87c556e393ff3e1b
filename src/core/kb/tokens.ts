// Token counts of the brief's text (o200k, gpt-tokenizer), remembered: the same entries answer the
// same questions and the same libraries recur, so most of a brief's lines were counted before, and
// counting the assembled text whole on every request was a fifth of its CPU.
import { countTokens } from 'gpt-tokenizer';
import { remembered } from '../kernel/remember.js';

// Agents' text is data: a special-token marker such as <|endoftext|> in a question or a fix is
// counted as the plain text it is (the tokenizer's default throws on it).
const PLAIN = { disallowedSpecial: new Set<string>() };
export const tokens = (s: string) => countTokens(s, PLAIN);

/** tokens(s), remembered for the last 8,000 strings counted. */
export const counted = remembered(tokens, 8000);

/**
 * A line of text and its counts, filled on first use. A line kept with the row it shows (see
 * brief.ts) keeps its counts as long as the row is kept, whatever the string memo lets go.
 */
export interface Line {
  readonly text: string;
  /** tokens(text) + 1: the line with its line break, as the greedy fill estimates it. */
  cost?: number;
  /** tokens(text + '\n'): the exact count of the line and its break when the next line starts fresh. */
  piece?: number;
  /** Whether the line starts fresh: a line break before it is never carried into it. */
  fresh?: boolean;
}
export const line = (text: string): Line => ({ text });

/** A line's count with its line break, as the brief's greedy fill estimates it (the final text is counted exactly). */
export const lineCost = (l: Line) => (l.cost ??= counted(l.text) + 1);

// o200k's pre-split never carries a line break into a next line that starts with anything but
// whitespace or '/' (only `[\r\n/]*` after punctuation, and runs of whitespace, cross a "\n"), and
// BPE works within a pre-token; so cut after such breaks, the text's count is the sum of its
// pieces' counts. test/kb/tokens.test.ts checks this against whole-text counts.
const STARTS_FRESH = /^[^\s/]/;
// A line ending in a letter or digit is never joined by its line break, itself one token: its
// piece costs what lineCost says.
const ENDS_WORD = /[\p{L}\p{N}]$/u;
const pieceOf = (l: Line) => (l.piece ??= ENDS_WORD.test(l.text) ? lineCost(l) : counted(`${l.text}\n`));
const pieceStr = (s: string) => (ENDS_WORD.test(s) ? counted(s) + 1 : counted(`${s}\n`));

/** The exact token count of the lines' texts joined with '\n', from remembered counts of its pieces. */
export function linesTokens(lines: readonly Line[]): number {
  if (!lines.length) return 0;
  let n = 0;
  let cur = lines[0]!;
  // Lines that the next one continues are counted together, as one string.
  let joined: string | null = null;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!;
    if ((l.fresh ??= STARTS_FRESH.test(l.text))) {
      n += joined === null ? pieceOf(cur) : pieceStr(joined);
      cur = l;
      joined = null;
    } else joined = `${joined ?? cur.text}\n${l.text}`;
  }
  return n + (joined === null ? lineCost(cur) - 1 : counted(joined));
}
