// /brief: everything the commons knows about a question and an environment, in a token budget.
// Sections in fixed order: kb, changes, digests, cache, wanted; counted with a real tokenizer.
import { hash } from 'node:crypto';
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import { defineOp, type Ctx } from '../kernel/types.js';
import { scrubFind } from '../kernel/safety/scrub.js';
import { libStr, parseLib } from './libs.js';
import type { Digest, KbHit, Lib, Wanted } from './ports.js';
import { answer, named } from './answer.js';
import { poolFor } from './space/pool.js';
import { flat, outcomesOf, score } from './render.js';
import { outcomeTokens } from './outcomes.js';
import { counted, line, lineCost, linesTokens, tokens, type Line } from './tokens.js';
import { hint, next, type HintFace } from '../kernel/hints.js';

const SECTIONS = ['kb', 'changes', 'digests', 'cache', 'wanted'] as const;
type Section = (typeof SECTIONS)[number];

const briefOut = z.object({
  q: z.string(),
  libs: z.number(),
  hits: z.number(),
  changes: z.number(),
  cached: z.boolean(),
  used: z.number(),
  total: z.number(),
  sections: z.object({
    kb: z.array(z.string()),
    changes: z.array(z.string()),
    digests: z.array(z.string()),
    cache: z.array(z.string()),
    wanted: z.array(z.string()),
  }),
  text: z.string(),
});
type BriefOut = z.infer<typeof briefOut>;

/** Numeric-aware version order, good enough for 1.10 > 1.9 and v2 > v1. */
function newer(a: string, b: string): boolean {
  const pa = a
    .replace(/^v/, '')
    .split(/[.+-]/)
    .map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  const pb = b
    .replace(/^v/, '')
    .split(/[.+-]/)
    .map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? 0;
    const y = pb[i] ?? 0;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x > y;
    return String(x) > String(y);
  }
  return false;
}

function parseEnv(env: string): Lib[] {
  const parts = env.split(/[\s,]+/).filter(Boolean);
  if (parts.length > limit('brief.env_libs')) throw new CxError('bad', `env: ${parts.length} libraries, at most ${limit('brief.env_libs')}`);
  return parts.map((p) => {
    const l = parseLib(p.includes('@', 1) ? p : `${p}@*`);
    if (!l) throw new CxError('bad', `env: ${flat(p, 40)} is not name@version`);
    return l;
  });
}

interface Candidates {
  hits: number;
  changes: number;
  /** The disputed entries among the kb hits: the header names them. */
  disputed: string[];
  lines: Record<Section, Line[]>;
}

/** The cached result stored under sha256(q) in namespace ns, when the caller may see it inline. */
async function cachedFor(ctx: Ctx, q: string, ns: string): Promise<Line[]> {
  const key = hash('sha256', q, 'hex');
  const got = await ctx.core.store.cache.get(ns, key, ctx.core.now());
  if (!got || got.row.kind !== 'inline' || got.row.text === null) return [];
  const me = ctx.caller.identity?.id;
  if (got.row.to && got.row.to !== me && got.row.producer !== me) return [];
  return [line(`c/${key} ns=${ns} by ${got.row.producer} size=${got.row.size} untrusted: ${flat(got.row.text, 300)}`)];
}

// Every brief scans the 200 most recent wanted signatures: read them at most once a second, and
// do then, once, what does not depend on the question (scrub check, words, library names), so a
// brief only looks up its own words: scrubbing and splitting 200 signatures per brief was half of
// its CPU at 1M entries.
interface WantedIndex {
  /** Scrub-clean rows with a signature, newest first, already rendered. */
  lines: Line[];
  /** Lowercase word or library name -> positions in `lines`, ascending. */
  by: Map<string, number[]>;
}
const wantedSeen = new WeakMap<object, { at: number; idx: WantedIndex }>();
function indexWanted(rows: Wanted[]): WantedIndex {
  const lines: Line[] = [];
  const by = new Map<string, number[]>();
  const note = (k: string, i: number) => {
    const at = by.get(k);
    if (!at) by.set(k, [i]);
    else if (at[at.length - 1] !== i) at.push(i);
  };
  for (const w of rows) {
    if (w.sig === null || scrubFind(w.sig) !== null) continue;
    const i = lines.push(line(`${flat(w.sig, 160)} misses=${w.misses}`)) - 1;
    // Library names keep `lib:` keys apart from words: a row concerns the question through either.
    for (const x of w.libs.split(' ').filter(Boolean)) note(`lib:${x.slice(0, x.lastIndexOf('@') > 0 ? x.lastIndexOf('@') : x.length).toLowerCase()}`, i);
    for (const t of topicWords(w.sig)) note(t, i);
  }
  return { lines, by };
}
async function recentWanted(ctx: Ctx): Promise<WantedIndex> {
  const now = ctx.core.now();
  const seen = wantedSeen.get(ctx.core.store);
  if (seen && now - seen.at < 1000) return seen.idx;
  const idx = indexWanted(await ctx.core.store.kb.wanted(200));
  wantedSeen.set(ctx.core.store, { at: now, idx });
  return idx;
}
/** The first `n` wanted lines that concern the question (same rule as `concerns`), newest first. */
function wantedFor(idx: WantedIndex, qWords: Set<string>, qLibs: Set<string>, n: number): Line[] {
  const hit = new Set<number>();
  for (const w of qWords) for (const i of idx.by.get(w) ?? []) hit.add(i);
  for (const l of qLibs) for (const i of idx.by.get(`lib:${l}`) ?? []) hit.add(i);
  return [...hit]
    .sort((a, b) => a - b)
    .slice(0, n)
    .map((i) => idx.lines[i]!);
}

// Words too common in error texts and questions to say what a row is about.
const STOP = new Set(
  (
    'the and for with not from this that into than then when what why how who are was were has have had does did doing done ' +
    'can cannot could should would will error errors err failed fail fails failure found not_found unable invalid ' +
    'while after before using use used get got set run runs running fix fixed issue problem work works working ' +
    'file line type value object module package version new old all any you your its our out off too very'
  ).split(' '),
);
/** The words of a text that can say what it is about (lowercase, 3+ chars, no placeholders). */
function topicWords(s: string): string[] {
  return (
    s
      .toLowerCase()
      .replace(/<[a-z]+>/g, ' ')
      .match(/[\p{L}\p{N}_]{3,}/gu) ?? []
  ).filter((w) => !STOP.has(w));
}

/**
 * Whether a row concerns the question: it names one of the question's libraries (an env library
 * the question mentions, or a library the question names), or shares a word with the question.
 */
function concerns(qWords: Set<string>, qLibs: Set<string>, libNames: string[], words: string[]): boolean {
  if (libNames.some((n) => qLibs.has(n.toLowerCase()))) return true;
  return words.some((w) => qWords.has(w));
}

// What a brief derives from the rows the store hands back, kept per row object: the SQLite store's
// memos return the same rows while the KB is unchanged, so each line (with its token counts, see
// tokens.ts) and word list is made once; a write gives new rows, hence new lines. WeakMaps: an
// entry goes with its row (an adapter that returns new rows every time just misses).
const kbLineOf = new WeakMap<KbHit, Line>();
function kbLine(e: KbHit): Line {
  let s = kbLineOf.get(e);
  if (s === undefined)
    kbLineOf.set(
      e,
      (s = line(
        `k/${e.id} score=${score(e)}${e.space ? ` space=${e.space}` : ''} ${outcomeTokens(outcomesOf(e))} ${flat(e.title, 100)} | fix: ${flat(e.fix, 240)}`,
      )),
    );
  return s;
}
type LibRow = Awaited<ReturnType<Ctx['core']['store']['kb']['byLib']>>[number];
const libRowOf = new WeakMap<LibRow, { words: string[]; name?: string; ver?: string; line?: Line | null }>();
function libRow(e: LibRow): { words: string[]; name?: string; ver?: string; line?: Line | null } {
  let d = libRowOf.get(e);
  if (d === undefined) libRowOf.set(e, (d = { words: topicWords(e.title) }));
  return d;
}
/** The row's changes line for env library l, or null when the row's version is older than l's. */
function changeLine(l: Lib, e: LibRow): Line | null {
  const d = libRow(e);
  if (d.name !== l.name || d.ver !== l.ver) {
    const v = e.ver;
    d.name = l.name;
    d.ver = l.ver;
    d.line = l.ver === '*' || v === '*' || v === l.ver || newer(v, l.ver) ? line(`${l.name}@${v} (env ${l.ver}): k/${e.id} ${flat(e.title, 100)}`) : null;
  }
  return d.line!;
}

const digestOf = new WeakMap<Digest, { name: string; ver: string; lines: Line[] | null }>();
/** A digest's first lines for env library l, or null when the digest's version is older than l's. */
function digestLines(l: Lib, d: Digest): Line[] | null {
  let x = digestOf.get(d);
  if (x === undefined || x.name !== l.name || x.ver !== l.ver) {
    const lines =
      l.ver !== '*' && d.ver !== l.ver && !newer(d.ver, l.ver)
        ? null
        : d.lines
            .split('\n')
            .slice(0, 10)
            .map((t) => line(`${l.name}@${d.ver} ${d.topic}: ${flat(t, 200)}`));
    digestOf.set(d, (x = { name: l.name, ver: l.ver, lines }));
  }
  return x.lines;
}

async function gather(ctx: Ctx, q: string, libs: Lib[], ns: string): Promise<Candidates> {
  const qWords = new Set(topicWords(q).slice(0, 24));
  // The question's libraries: env libraries it names (`react`, `@types/node`, `numpy`), and any it names as name@version.
  const qLow = q.toLowerCase();
  const qLibs = new Set([
    ...libs.map((l) => l.name.toLowerCase()).filter((n) => qWords.has(n) || qLow.includes(n)),
    ...(q.match(/(?:@[\w.-]+\/)?[\w.-]+@[\w.*+-]+/g) ?? []).map((x) => parseLib(x)?.name.toLowerCase() ?? '').filter(Boolean),
  ]);
  // A member's brief reads their spaces' private entries too (never the anonymous cache's).
  const kb = (await poolFor(ctx)).kb;
  // A question that is an error text: the entries POST /e names for it, in its order (not counted
  // as a lookup), then what search finds.
  const named_ = named(await answer(kb, q, { count: false }), limit('e.related')).map((c) => c.hit);
  const found = await kb.search(q, 10);
  const seen = new Set<string>();
  const entries: KbHit[] = [];
  for (const e of [...named_, ...found]) if (!seen.has(e.id) && seen.add(e.id)) entries.push(e);
  const kbLines = entries.map(kbLine);

  const changes: Line[] = [];
  const digests: Line[] = [];
  for (const l of libs) {
    for (const e of await kb.byLib(l.name, 5)) {
      // Only changes of the question's libraries, or about what the question asks; not older than the env's.
      if (!concerns(qWords, qLibs, [l.name], libRow(e).words)) continue;
      const x = changeLine(l, e);
      if (x) changes.push(x);
    }
    for (const d of await kb.digestsOf(l.name, 10)) digests.push(...(digestLines(l, d) ?? []));
  }
  // Other agents' misses: only the scrubbed signature (never the libraries or anything else they
  // sent), and only those about the question's words or libraries.
  const wanted = wantedFor(await recentWanted(ctx), qWords, qLibs, 10);
  const cache = await cachedFor(ctx, q, ns);
  const disputed = entries.filter((e) => e.disputed).map((e) => `k/${e.id}`);
  return { hits: entries.length, changes: changes.length, disputed, lines: { kb: kbLines, changes, digests, cache, wanted } };
}

// The body's fixed lines, counted once for the life of the process.
const EMPTY = line('');
const NONE = line('-');
const HEADS = Object.fromEntries(SECTIONS.map((s) => [s, line(`${s}:`)])) as Record<Section, Line>;
// The next lines, made once per face wording (a Line keeps its token counts): REST's is the default.
const REST = {};
const nextLines = new WeakMap<object, { none: Line; of: WeakMap<Line, Line> }>();
function nextOf(first: Line | undefined, hints: HintFace | undefined): Line {
  const key = hints && hints.face !== 'rest' ? hints : REST;
  let m = nextLines.get(key);
  if (!m) {
    const none = next({ hints }, hint('kb.e', undefined, 'with the whole error output, or publish a fix with'), ' ', hint('kb.add'));
    nextLines.set(key, (m = { none: line(none), of: new WeakMap() }));
  }
  if (!first) return m.none;
  let n = m.of.get(first);
  // A kb line starts with `k/<id>`.
  if (n === undefined) m.of.set(first, (n = line(next({ hints }, hint('kb.get', { id: first.text.split(' ')[0]!.slice(2) }, 'for the whole entry')))));
  return n;
}

/** Fills sections in order until the budget; the header's own tokens are reserved first. */
function compose(q: string, libs: number, c: Candidates, cached: boolean, total: number, hints: HintFace | undefined): BriefOut {
  const ask = `brief q=${flat(q, 80)}`;
  // A disputed hit is named in the header, so a reader that stops at the first line knows.
  const facts = ` libs=${libs} hits=${c.hits} changes=${c.changes} cached=${cached ? 1 : 0}${c.disputed.length ? ` disputed=${c.disputed.join(',')}` : ''} b=`;
  const head = (used: number) => `${ask}${facts}${used}/${total}`;
  // The pre-split cuts before the space that follows the question (it ends in a non-space) and
  // between the '=' and the digits: only the question's part is new, and it is counted once.
  const prefixCount = tokens(ask) + counted(facts);
  const headTokens = (used: number) => prefixCount + counted(`${used}/${total}`);
  const nextLine = nextOf(c.lines.kb[0], hints);
  const taken: Record<Section, Line[]> = { kb: [], changes: [], digests: [], cache: [], wanted: [] };
  const bodyLines = () => [EMPTY, ...SECTIONS.flatMap((s) => [HEADS[s], ...(taken[s].length ? taken[s] : [NONE])]), nextLine];
  // The header ends in digits and the body starts with a line break, where the tokenizer's
  // pre-split always cuts: the text's count is the header's plus the body's, so settling the
  // header's own digits recounts only the header.
  const headCount = headTokens(total);
  let bodyCount = linesTokens(bodyLines());
  let used = headCount + bodyCount;
  outer: for (const s of SECTIONS) {
    for (const l of c.lines[s]) {
      const cost = lineCost(l);
      if (used + cost > total) break outer;
      taken[s].push(l);
      used += cost;
    }
  }
  // Recount exactly; tokens can merge across lines, so trim until it fits.
  bodyCount = linesTokens(bodyLines());
  let real = headCount + bodyCount;
  for (let i = SECTIONS.length - 1; real > total && i >= 0; ) {
    if (taken[SECTIONS[i]!].length) taken[SECTIONS[i]!].pop();
    else i--;
    bodyCount = linesTokens(bodyLines());
    real = headCount + bodyCount;
  }
  // The header states the true count of the final text; its own digits can change that count,
  // so settle it (it only shrinks, so it converges in a step or two).
  for (let i = 0; i < 4; i++) {
    const again = headTokens(real) + bodyCount;
    if (again === real) break;
    real = again;
  }
  const text =
    head(real) +
    bodyLines()
      .map((l) => l.text)
      .join('\n');
  const sections = Object.fromEntries(SECTIONS.map((s) => [s, taken[s].map((l) => l.text)])) as Record<Section, string[]>;
  return { q, libs, hits: c.hits, changes: c.changes, cached, used: real, total, sections, text };
}

// Per store (one per server), so servers sharing a process never see each other's briefs.
const caches = new WeakMap<object, Map<string, { at: number; c: Candidates }>>();
const CACHE_MAX = 2000;

export const briefOp = defineOp({
  name: 'kb.brief',
  title: 'Brief',
  summary: 'What the commons knows about a question and an environment (name@version list), within a token budget b: kb hits, changes, digests, cache, wanted.',
  input: z
    .object({
      q: z.string().min(1).max(limit('brief.q')),
      env: z.string().max(limit('brief.env')).optional(),
      b: z
        .number()
        .int()
        .min(limit('brief.b.min'))
        .max(limit('brief.b.max'))
        .default(limit('brief.b.default'))
        .describe(`token budget, ${limit('brief.b.min')} to ${limit('brief.b.max')} (anonymous callers get at most ${limit('brief.b.anon_max')})`),
      ns: z
        .string()
        .max(limit('brief.ns'))
        .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . -')
        .optional(),
    })
    .strict(),
  output: briefOut,
  auth: 'anon',
  readOnly: true,
  standby: true,
  shed: 'heavy',
  quota: ['read'],
  rest: { method: 'GET', path: '/brief' },
  async run(ctx, input) {
    const libs = input.env ? parseEnv(input.env) : [];
    const anon = !ctx.caller.identity;
    const cap = anon ? limit('brief.b.anon_max') : limit('brief.b.max');
    // Out of range is refused by the schema; the anonymous cap is a cap, not an error (spec 4.2).
    const total = Math.min(cap, input.b);
    const key = `${input.ns ?? ''}\n${input.q}\n${libs.map(libStr).join(' ')}`;
    const now = ctx.core.now();
    let cache = caches.get(ctx.core.store);
    if (!cache) caches.set(ctx.core.store, (cache = new Map()));
    if (anon) {
      const hit = cache.get(key);
      if (hit && now - hit.at < limit('brief.anon_cache') * 1000) return compose(input.q, libs.length, hit.c, true, total, ctx.hints);
    }
    const c = await gather(ctx, input.q, libs, input.ns ?? 'default');
    if (anon) {
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
      cache.set(key, { at: now, c });
    }
    return compose(input.q, libs.length, c, false, total, ctx.hints);
  },
  text: (o) => o.text,
});
