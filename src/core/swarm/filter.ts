// Subscription filters: `prefix:<text>` (the line starts with it) or `re:<RE2>` (re2js: linear time
// in the line's length whatever the expression, no backtracking; at most swarm.filter chars).
// Anything else, a longer or an invalid expression, is `400 err bad filter`.
import { RE2JS } from 're2js';
import { CxError } from '../errors.js';
import { limit } from '../limits.js';

export type LineFilter = (text: string) => boolean;

const bad = (why: string) => new CxError('bad', `filter ${why}`);

/** Compiles a filter (throws `err bad filter …`); undefined/null passes every line. */
export function compileFilter(f: string | null | undefined): LineFilter {
  if (f === undefined || f === null) return () => true;
  const max = limit('swarm.filter');
  if (f.startsWith('prefix:')) {
    const p = f.slice(7);
    if (!p || p.length > max) throw bad(`prefix:<text>: 1 to ${max} chars`);
    return (t) => t.startsWith(p);
  }
  if (f.startsWith('re:')) {
    const e = f.slice(3);
    if (!e || e.length > max) throw bad(`re:<RE2 expression>: 1 to ${max} chars`);
    let re: RE2JS;
    try {
      re = RE2JS.compile(e);
    } catch {
      throw bad('re: not a valid RE2 expression (no backreferences or lookaround)');
    }
    return (t) => re.matcher(t).find();
  }
  throw bad('want prefix:<text> or re:<RE2 expression>');
}

/** Compiled filters of this process, by expression (pure functions of the text: a cache is harmless). */
const cache = new Map<string, LineFilter>();
export function filterOf(f: string | null): LineFilter {
  if (f === null) return () => true;
  let fn = cache.get(f);
  if (!fn) {
    if (cache.size > 10_000) cache.clear();
    cache.set(f, (fn = compileFilter(f)));
  }
  return fn;
}
