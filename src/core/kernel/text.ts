// Text helpers every module shares (the kernel: this file imports nothing). One ISO time form and one
// rule for a line of untrusted text, instead of a private copy in each domain.

/** A UTC time to the second, as published everywhere: `2026-11-28T13:09:04Z` (no milliseconds). */
export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

// Controls (C0, DEL, C1) and the Unicode line/paragraph separators end a line in some reader.
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
// Zero-width and bidirectional formatting: invisible, and able to make a line read as another.
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * One line of untrusted text, the one rule: invisible formatting characters go; controls, line
 * separators and every run of whitespace become one space; the ends are trimmed; beyond `max`
 * UTF-16 units it is cut to `max - 1` (never inside a surrogate pair) and ends with `…`, so the
 * result is at most `max` units.
 */
export function oneLine(s: string, max: number): string {
  const f = s.replace(INVISIBLE, '').replace(BREAKS, ' ').replace(/\s+/g, ' ').trim();
  if (f.length <= max) return f;
  let cut = f.slice(0, max - 1);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return cut + '…';
}

/**
 * The older one-line rule of the KB and task text views (whitespace runs become one space, trimmed,
 * cut at `max` with `…`): kept byte for byte where those views are pinned; new code takes oneLine.
 */
export function flat(s: string, max = 400): string {
  const f = s.replace(/\s+/g, ' ').trim();
  return f.length > max ? f.slice(0, max - 1) + '…' : f;
}
