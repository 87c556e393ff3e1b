// Subscription filters: `prefix:<text>` (the line starts with it) or `re:<RE2>` (re2js: no
// backtracking, at most swarm.filter chars). Anything else, a longer or an invalid expression, is
// `400 err bad filter`. re2js runs a search in time proportional to (program size) x (line length):
// its matchers (one-pass, bit-state backtracker, NFA) step at most every instruction of the
// compiled program once per character. Short text does not mean a small program (`(?i)(\w|\pL){999}z`
// is 26 chars and about 3,000 instructions, ~15-60 ms on one 1,000-char line), so the compiled
// program is capped too: more than swarm.filter_prog instructions is refused at SubCreate. What is
// left of a filter's cost is timed per line and budgeted per subscription (budget.ts, deliver.ts).
import { RE2JS } from 're2js';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';

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
    // The program re2js's matchers step through (RE2's "program size"): the bound on the work per
    // character of a line. The matcher (`find`, not the lazy DFA of `test`) keeps that bound: the
    // DFA is faster on ordinary expressions but can build states until its memory budget on small
    // programs (e.g. `a(\w|\pL|\pN|\pP){30}$`, 94 instructions, ~20 ms a line) before falling back.
    const prog = re.programSize();
    const cap = limit('swarm.filter_prog');
    if (prog > cap)
      throw bad(`re: program of ${prog} instructions over the cap of ${cap} (swarm.filter_prog at /limits: fewer or smaller repetitions, fewer classes)`);
    return (t) => re.matcher(t).find();
  }
  throw bad('want prefix:<text> or re:<RE2 expression>');
}

/** Compiled filters of this process, by expression (pure functions of the text: a cache is harmless). */
const cache = new Map<string, LineFilter>();
/** The compiled filter of a stored expression; throws `err bad filter …` as compileFilter does (a filter stored before a cap was lowered). */
export function filterOf(f: string | null): LineFilter {
  if (f === null) return () => true;
  let fn = cache.get(f);
  if (!fn) {
    if (cache.size > 10_000) cache.clear();
    cache.set(f, (fn = compileFilter(f)));
  }
  return fn;
}
