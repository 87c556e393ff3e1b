// Summary lines of deliveries. Every payload field is untrusted: control, zero-width and bidi
// characters go, each field is clamped (in.field), free text is quoted as a JSON string, and the
// line is clamped to the topic line cap (in.line). Secrets in it are redacted (not refused: a
// delivery must not be lost because a commit message quoted a token); hazards are the caller's.
import { limit } from '../kernel/limits.js';
import { scrubFind } from '../kernel/safety/scrub.js';

/** Payload access that never throws: `at(p, 'repository', 'full_name')`. */
export function at(v: unknown, ...path: string[]): unknown {
  let cur = v;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** A string or number field as text ('' otherwise). */
export const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** Cuts to `max` UTF-16 units without splitting a surrogate pair. */
export function clamp(s: string, max: number): string {
  if (s.length <= max) return s;
  let cut = s.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut + '…';
}

/** One line of text: controls become spaces, invisible formatting goes, runs of space shrink. */
export const clean = (s: string): string => s.replace(INVISIBLE, '').replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim();

/** A word-like field (repo, ref, user, tag): no spaces or quotes, clamped; '-' when empty. */
export function tok(v: unknown): string {
  const s = clamp(clean(str(v)).replace(/[\s"]+/g, '_'), limit('in.field'));
  return s || '-';
}

/** Free text (titles, messages): the first line, clamped, as a JSON string. */
export function quote(v: unknown): string {
  const first = str(v).split(/\r?\n/, 1)[0] ?? '';
  return JSON.stringify(clamp(clean(first), limit('in.field')));
}

/** An integer field ('?' when missing). */
export const num = (v: unknown): string => (typeof v === 'number' && Number.isInteger(v) ? String(v) : '?');

/**
 * Redacts every secret the scrubber finds: from its offset to the next space or quote becomes
 * `[redacted]`. Bounded: after 50 rounds whatever is left is cut off.
 */
export function redact(line: string): { line: string; redacted: number } {
  let out = line;
  let n = 0;
  for (let hit = scrubFind(out); hit; hit = scrubFind(out)) {
    if (++n > 50) return { line: out.slice(0, hit.offset) + '[redacted]', redacted: n };
    const rest = out.slice(hit.offset);
    const m = /[\s"]/.exec(rest.slice(1));
    const end = hit.offset + (m ? m.index + 1 : rest.length);
    out = out.slice(0, hit.offset) + '[redacted]' + out.slice(end);
  }
  return { line: out, redacted: n };
}

/** The published form: one clean line within the cap, secrets redacted. */
export function finish(line: string): { line: string; redacted: number } {
  const r = redact(clean(line));
  return { line: clamp(r.line, limit('in.line')), redacted: r.redacted };
}
