// Token counts of the brief's text (o200k, gpt-tokenizer), remembered per piece: the same entries
// answer the same questions and the same libraries recur, so most of a brief's lines were counted
// before, and counting the assembled text whole on every request was a fifth of its CPU.
import { countTokens } from 'gpt-tokenizer';

// Agents' text is data: a special-token marker such as <|endoftext|> in a question or a fix is
// counted as the plain text it is (the tokenizer's default throws on it).
const PLAIN = { disallowedSpecial: new Set<string>() };
export const tokens = (s: string) => countTokens(s, PLAIN);

const counts = new Map<string, number>();
const COUNTS_MAX = 8000;
/** tokens(s), remembered. */
export function counted(s: string): number {
  let n = counts.get(s);
  if (n === undefined) {
    n = tokens(s);
    if (counts.size >= COUNTS_MAX) counts.delete(counts.keys().next().value!);
    counts.set(s, n);
  }
  return n;
}

/** A line's count with its line break, as the brief's greedy fill estimates it (the final text is counted exactly). */
export const lineCost = (line: string) => counted(line) + 1;

// o200k's pre-split never carries a line break into a next line that starts with anything but
// whitespace or '/' (only `[\r\n/]*` after punctuation, and runs of whitespace, cross a "\n"), and
// BPE works within a pre-token; so cut after such breaks, the text's count is the sum of its
// pieces' counts. test/kb/tokens.test.ts checks this against whole-text counts.
const STARTS_FRESH = /^[^\s/]/;
// A line ending in a letter or digit is never joined by its line break, itself one token: its
// piece costs what lineCost says, from the same remembered count.
const ENDS_WORD = /[\p{L}\p{N}]$/u;
const piece = (s: string) => (ENDS_WORD.test(s) ? counted(s) + 1 : counted(`${s}\n`));

/** The exact token count of lines.join('\n'), from remembered counts of its pieces. */
export function linesTokens(lines: readonly string[]): number {
  if (!lines.length) return 0;
  let n = 0;
  let cur = lines[0]!;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (STARTS_FRESH.test(line)) {
      n += piece(cur);
      cur = line;
    } else cur += `\n${line}`;
  }
  return n + counted(cur);
}
