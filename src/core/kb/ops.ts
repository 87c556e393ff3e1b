// Knowledge-base operations: write, look up by error text or hash, read, vote, search, hubs.
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { newId } from '../platform/identity/tokens.js';
import { limit } from '../kernel/limits.js';
import { defineOp, type Ctx } from '../kernel/types.js';
import type { AnyOperation } from '../kernel/types.js';
import { scrubFind } from '../kernel/safety/scrub.js';
import type { SignedConfirm } from '../platform/trust/ports.js';
import { verifyStatement } from '../platform/trust/sign.js';
import { classOf, CLASS_RE } from './classify.js';
import { briefOp } from './brief.js';
import { digestOps } from './digests.js';
import { answer, named } from './answer.js';
import { ERRSIG_VERSION, errsig } from './errsig/errsig.js';
import { libStr, libsInText, parseLib } from './libs.js';
import { ownNames, publicLibs, publicSig } from './public-sig.js';
import type { KbEntry, KbHit, KbRepo, Lib, NewEntry, OutcomeResult } from './ports.js';
import type { SpaceEntry } from './space/ports.js';
import { day, entryMd, entryText, entryView, flat, hitLine, noteView, outcomesOf, score, type EntryView } from './render.js';
import { conf1Payload, disputedMark, OUTCOME_KINDS, outcomeTokens, tallyFn, type Evidence, type OutcomeKind } from './outcomes.js';
import { poolFor } from './space/pool.js';
import { SLUG_RE } from '../platform/slug.js';
import { recordOrigin } from '../platform/origin.js';
import { hint, next, say } from '../kernel/hints.js';

export const ECOS = ['pypi', 'npm', 'go', 'crates', 'gem', 'maven', 'nuget', 'apt', 'docker', 'api'] as const;
const HITS = 5;

/** Comma or space separated strings, or arrays, into a clean list. */
const list = (max: number, item: z.ZodString) =>
  z
    .union([z.array(z.string()), z.string()])
    .transform((v) => (Array.isArray(v) ? v : v.split(/[\s,]+/)).map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(item).max(max));

/** Error text as sent: byte and line limits of spec 8 (413 over the size, 400 over the lines). */
export function checkErrorText(text: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limit('e.body')) throw new CxError('size', `text over ${limit('e.body')} bytes`, 413);
  // A final newline ends the last line; it does not start another one.
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > limit('e.lines')) throw new CxError('bad', `text: ${lines} lines, at most ${limit('e.lines')}`);
  if (!text.trim()) throw new CxError('bad', 'text: empty');
}

const outcomesOut = z
  .object({
    worked: z.number(),
    worked_w: z.number(),
    changes: z.number(),
    changes_w: z.number(),
    failed: z.number(),
    failed_w: z.number(),
    principals: z.number(),
    disputed: z.boolean(),
  })
  .describe('outcomes: worked, worked with changes, did not work (raw identities and weighted by principal), distinct principals, disputed');
const evidenceOut = z.object({
  cmd: z.string().optional(),
  exit_before: z.number().optional(),
  exit_after: z.number().optional(),
  versions: z.string().optional(),
});
const noteOut = z.object({ note: z.string(), evidence: evidenceOut.nullable(), at: z.string() });

const entryOut = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string(),
  sig: z.string(),
  h: z.string(),
  eco: z.string(),
  class: z.string(),
  libs: z.array(z.string()),
  tags: z.array(z.string()),
  error: z.string(),
  fix: z.string(),
  author: z.string(),
  created: z.string(),
  updated: z.string(),
  score: z.number(),
  confirms: z.number(),
  fails: z.number(),
  hits: z.number(),
  license: z.string(),
  signed_confirms: z.number().optional(),
  signed_nets: z.number().optional(),
  outcomes: outcomesOut,
  disputed: z.boolean(),
  notes: z.object({ changes: z.array(noteOut), failed: z.array(noteOut) }).optional(),
  space: z.string().optional(),
});

const hitOut = z.object({
  id: z.string(),
  score: z.number(),
  confirms: z.number(),
  fails: z.number(),
  title: z.string(),
  fix: z.string(),
  libs: z.array(z.string()),
  why: z.string().optional(),
  outcomes: outcomesOut,
  disputed: z.boolean(),
  space: z.string().optional(),
});
const toHit = (e: KbHit) => ({
  id: e.id,
  score: score(e),
  confirms: e.confirms,
  fails: e.fails,
  title: e.title,
  fix: e.fix,
  libs: e.libs.map(libStr),
  outcomes: outcomesOf(e),
  disputed: e.disputed,
  ...(e.space ? { space: e.space } : {}),
});
/** ` space=s:<slug>` after an entry a member's lookup found in one of their spaces. */
const spaceTag = (e: { space?: string | undefined }) => (e.space ? ` space=${e.space}` : '');
/** A result naming a space entry is the caller's alone: never kept by a shared cache. */
const privateIf = (rows: ReadonlyArray<{ space?: string | undefined }>): Record<string, string> =>
  rows.some((r) => r.space) ? { 'cache-control': 'private, no-store' } : {};

/**
 * Checks a conf1 signature against the identity's published key (the row to keep, or an error):
 * the statement names the outcome's kind as a fourth field; `worked` may also be signed in the
 * three-field form of a signed confirmation.
 */
async function signedConfirm(ctx: Ctx, entry: string, id: string, kind: OutcomeKind, sig: string): Promise<SignedConfirm> {
  const key = await ctx.core.store.identityKeys.get(id);
  if (!key) throw new CxError('bad', ['sig: no key published; ', hint('key.publish', undefined, 'first')]);
  const pub = Buffer.from(key.pub, 'hex');
  const raw = Buffer.from(sig, 'base64url');
  const domain = ctx.core.keys.domain;
  const forms: Array<OutcomeKind | ''> = kind === 'worked' ? ['', 'worked'] : [kind];
  const form = forms.find((k) => verifyStatement(pub, 'conf1', conf1Payload(domain, entry, id, k), raw));
  if (form === undefined) {
    throw new CxError('bad', `sig: does not verify as conf1 "${conf1Payload(domain, entry, id, kind === 'worked' ? '' : kind)}" under your published key`);
  }
  return { entry, id, kind: form, pub: key.pub, sig, net: ctx.net, at: ctx.core.now() };
}

/**
 * The root family of an identity: outcomes of one root count as one principal. Identities have no
 * sub-identities yet, so each is its own root (src/core/admin/purge.ts rootTree lists a tree).
 */
const rootOf = (id: string) => id;

/**
 * Records an outcome (POST /k/{id}/outcome, and /ok and /fail as worked and did-not-work: one store
 * of truth). A signature is checked before anything counts, so a bad one changes nothing; the
 * identity's signed statement follows its outcome (replaced by a signed one of another kind,
 * dropped when an unsigned one of another kind replaces it). An entry of one of the caller's
 * closed spaces takes its outcome in the space's own tables (issue 39): tallied the same way, shown
 * to its members only, never signed (a conf1 statement is public); to anyone else its id is unknown.
 */
async function recordOutcome(
  ctx: Ctx,
  o: { id: string; kind: OutcomeKind; note?: string; evidence?: Evidence | null; sig?: string; keep?: boolean },
): Promise<{ r: OutcomeResult; e: KbEntry; signed: boolean; added: boolean }> {
  const { store } = ctx.core;
  const me = ctx.caller.identity!.id;
  const proof = o.sig === undefined ? null : await signedConfirm(ctx, o.id, me, o.kind, o.sig);
  const pool = await poolFor(ctx);
  // Public and private ids share one form and never collide (addToSpace draws again).
  const priv = pool.spaces.length ? await store.spaceKb.kbById(o.id, pool.spaces) : null;
  if (priv && proof) throw new CxError('bad', `sig: a signed outcome is a public statement; k/${o.id} is private to s:${priv.space}: send it unsigned`);
  const w = {
    entry: o.id,
    voter: me,
    kind: o.kind,
    note: o.note ?? '',
    evidence: o.evidence ?? null,
    net: ctx.net,
    root: rootOf(me),
    at: ctx.core.now(),
    ...(o.keep ? { keep: true } : {}),
  };
  const r = priv ? await store.spaceKb.kbOutcome(w, pool.spaces, tallyFn) : await store.kb.outcome(w, tallyFn);
  if (r === null) throw new CxError('notfound', `no entry ${o.id}`);
  if (r.result === 'own') throw new CxError('dup', 'own entry: others confirm your fixes');
  let added = false;
  if (proof) added = await store.signedConfirms.add(proof);
  else if (!priv && r.prev !== null && r.prev !== o.kind) await store.signedConfirms.drop(o.id, me);
  const e = (await pool.kb.byId(o.id))!;
  return { r, e, signed: proof !== null, added };
}

/** Records a miss as demand, unless the signature itself would publish a secret (lookup masks it first: public-sig.ts). */
async function recordWanted(ctx: Ctx, h: string, sig: string | null, libs: Lib[]): Promise<void> {
  const safeSig = sig !== null && scrubFind(sig) === null ? sig : null;
  await ctx.core.store.kb.want(h, safeSig, libs.map(libStr).join(' '), ctx.core.now());
}

/** KB ids are k + 8 random chars; a taken id (rare) is drawn again. */
export async function insertWithFreshId(ctx: Ctx, e: Omit<NewEntry, 'id'>): Promise<KbEntry> {
  for (let i = 0; i < 5; i++) {
    const got = await ctx.core.store.kb.insert({ ...e, id: newId('k', ctx.core.random, 8) });
    if (got) return got;
  }
  throw new CxError('busy', 'id space contention, retry', 503);
}

export const kbAddOp = defineOp({
  name: 'kb.add',
  title: 'Publish a fix',
  summary: 'Publish a fix for an error: the error output (normalized to an ErrSig signature), the fix, libraries, ecosystem, tags. Published CC0-1.0.',
  input: z
    .object({
      error: z.string().min(1).max(16384).describe('the error output as the tool printed it'),
      fix: z.string().min(10).max(4000).describe('what fixed it: concrete commands or changes'),
      title: z.string().min(3).max(120).optional(),
      eco: z.enum(ECOS),
      libs: list(20, z.string().max(120)).optional().describe('name@version list; version may be *'),
      tags: list(5, z.string().regex(/^[a-z0-9][a-z0-9.+-]{0,31}$/, 'lowercase tags, 1-32 of a-z 0-9 . + -')).optional(),
      space: z
        .string()
        .transform((v) => v.replace(/^s:/, ''))
        .pipe(z.string().regex(SLUG_RE, 's:<slug> of a space'))
        .optional()
        .describe('s:<slug> of your closed space: private to its members'),
    })
    .strict(),
  output: z.object({ id: z.string(), sig: z.string(), h: z.string(), url: z.string(), space: z.string().optional() }),
  auth: 'token',
  readOnly: false,
  freeze: 'write',
  quota: ['write', 'write_net'],
  scrub: ['error', 'fix', 'title'],
  hazard: ['error', 'fix', 'title'],
  bodyField: 'fix',
  rest: { method: 'POST', path: '/k', status: 201 },
  async run(ctx, input) {
    checkErrorText(input.error);
    const libs: Lib[] = [];
    for (const s of input.libs ?? []) {
      const l = parseLib(s);
      if (!l) throw new CxError('bad', `libs: ${flat(s, 60)} is not name@version`);
      libs.push(l);
    }
    const { sig, h, ch } = errsig(input.error);
    const now = ctx.core.now();
    if (input.space)
      return addToSpace(ctx, input.space, {
        sig,
        h,
        ch,
        sigv: ERRSIG_VERSION,
        title: input.title ?? flat(sig, 120),
        error: input.error,
        fix: input.fix,
        eco: input.eco,
        cls: classOf(sig),
        tags: input.tags ?? [],
        libs: (libs.length ? libs : libsInText(input.error)).map(libStr),
        author: ctx.caller.identity!.id,
        created: now,
      });
    const e = await insertWithFreshId(ctx, {
      sig,
      h,
      ch,
      sigv: ERRSIG_VERSION,
      title: input.title ?? flat(sig, 120),
      error: input.error,
      fix: input.fix,
      eco: input.eco,
      cls: classOf(sig),
      tags: input.tags ?? [],
      libs: libs.length ? libs : libsInText(input.error),
      author: ctx.caller.identity!.id,
      created: now,
    });
    await recordOrigin(ctx, 'kb', e.id);
    return { id: e.id, sig, h, url: `${ctx.core.config.baseUrl}/k/${e.id}` };
  },
  text: (r: { id: string; sig: string; h: string; url: string; space?: string }, ctx: Ctx) =>
    r.space
      ? `ok k/${r.id} sig=${r.sig} space=${r.space} private\n${next(ctx, hint('kb.get', { id: r.id }, `(members of ${r.space} only); their lookups find it`))}`
      : `ok k/${r.id} sig=${r.sig}\n${next(ctx, hint('kb.get', { id: r.id }), '; others confirm it with ', hint('kb.confirm', { id: r.id }))}`,
});

/** A private entry of a closed space the caller belongs to; to a non-member the space is unknown. */
async function addToSpace(
  ctx: Ctx,
  slug: string,
  e: Omit<SpaceEntry, 'id' | 'space'>,
): Promise<{ id: string; sig: string; h: string; url: string; space: string }> {
  const st = ctx.core.store;
  // The space and its membership are the spaces domain's (core.spaceAccess); its entries are the KB's.
  const sp = await ctx.core.spaceAccess.bySlug(slug);
  if (!sp || !(await ctx.core.spaceAccess.isMember(slug, e.author))) throw new CxError('notfound', `no space s:${slug} you are a member of`);
  if (!sp.closed)
    throw new CxError('bad', [
      `space: s:${slug} is open (anyone may join it); private entries go in a closed space (`,
      hint('space.create', { closed: true }),
      ')',
    ]);
  if ((await st.spaceKb.kbCount(slug)) >= limit('space.kb_entries'))
    throw new CxError('quota', `space s:${slug}: at most ${limit('space.kb_entries')} private entries`);
  for (let i = 0; i < 5; i++) {
    const id = newId('k', ctx.core.random, 8);
    // Public and private ids share one form (GET /k/{id}); an id is drawn again if either pool has it.
    if (await st.kb.byId(id)) continue;
    if (await st.spaceKb.kbInsert({ ...e, id, space: slug })) return { id, sig: e.sig, h: e.h, url: `${ctx.core.config.baseUrl}/k/${id}`, space: `s:${slug}` };
  }
  throw new CxError('busy', 'id space contention, retry', 503);
}

// A lookup builds one candidate list for the whole output (src/core/kb/answer.ts) and says how sure
// it is: match=exact (a key line's own signature has entries), near (the best candidate's key line
// agrees closely: its fix is shown), related (candidates worth a look, no fix). A real miss is
// `404 err notfound` on REST, one line that names the next step; on MCP and A2A, where an error
// result reads as a failed call, it is a normal result (match=none) with up to 3 related entries
// found by search and the next tool to call.
const MATCH = ['exact', 'near', 'related', 'none'] as const;
type Match = (typeof MATCH)[number];
const RELATED = limit('e.related');
const relatedOut = z.object({ id: z.string(), title: z.string(), why: z.string().optional(), disputed: z.boolean().optional(), space: z.string().optional() });

const lookupOut = z.object({
  sig: z.string(),
  h: z.string(),
  match: z.enum(MATCH),
  hits: z.number(),
  raw: z.number(),
  entries: z.array(hitOut),
  fix: z.string(),
  libs: z.array(z.string()),
  related: z.array(relatedOut),
  next: z.string(),
});
type LookupOut = z.infer<typeof lookupOut>;

/** The searchable words of a signature (placeholders, quotes and punctuation dropped), for /brief. */
export function sigWords(sig: string): string[] {
  const text = sig.slice(sig.indexOf(':') + 1).replace(/<[a-z]+>/g, ' ');
  return [...new Set(text.match(/[\p{L}\p{N}_][\p{L}\p{N}_.-]*[\p{L}\p{N}_]|[\p{L}\p{N}_]/gu) ?? [])].filter((w) => w.length >= 2).slice(0, 8);
}

const briefQuery = (words: string[]) => words.map(encodeURIComponent).join('+');

/** A miss: the REST face's one line, or (MCP, A2A) a result naming related entries and the next tool. */
async function miss(
  ctx: Ctx,
  base: { sig: string; h: string; raw: number },
  words: string[],
  what: string,
  kb: KbRepo = ctx.core.store.kb,
): Promise<LookupOut> {
  if (ctx.face === 'rest') {
    const next = words.length ? `try GET /brief?q=${briefQuery(words)}` : 'try POST /e with the whole error output';
    throw new CxError('notfound', `${what}; recorded as wanted; ${next}`);
  }
  const related = await relatedTo(kb, words);
  // Named in the caller's own face: an MCP tool, or the A2A message that runs the skill.
  const next = say(
    ctx.hints,
    ...(words.length
      ? [
          hint('kb.brief', { q: words.join(' ') }, 'for what the commons knows'),
          ...(related.length ? [', or ', hint('kb.get', { id: '<id>' }, 'for a related entry')] : []),
        ]
      : [hint('kb.e', undefined, 'with the whole error output')]),
    '; publish the fix with ',
    { op: 'kb.add', form: 'bare' },
    ' once you have it',
  );
  return { ...base, match: 'none', hits: 0, entries: [], fix: '', libs: [], related, next };
}

/**
 * Up to 3 entries found by search for a missed signature's words. Search ANDs its terms, and a miss
 * often names an error type nobody filed: all the words, then the message without its type, then
 * single words, longest first (at most 5 searches, each bounded and memoized by the store).
 */
async function relatedTo(kb: KbRepo, words: string[]): Promise<Array<{ id: string; title: string; disputed: boolean; space?: string }>> {
  const tries = [
    words,
    words.slice(1),
    ...[...words]
      .filter((w) => w.length >= 4)
      .sort((a, b) => b.length - a.length)
      .map((w) => [w]),
  ];
  const found = new Map<string, KbHit>();
  let n = 0;
  for (const t of tries) {
    if (found.size >= RELATED || n >= 5) break;
    if (!t.length) continue;
    n++;
    for (const e of await kb.search(t.join(' '), RELATED)) if (found.size < RELATED && !found.has(e.id)) found.set(e.id, e);
  }
  return [...found.values()].map((e) => ({ id: e.id, title: e.title, disputed: e.disputed, ...(e.space ? { space: e.space } : {}) }));
}

async function lookup(ctx: Ctx, text: string): Promise<LookupOut> {
  const pool = await poolFor(ctx);
  const a = await answer(pool.kb, text);
  // The signature as replies and wanted rows show it: what ErrSig keeps of private hosts and names
  // masked (public-sig.ts); `h` stays the hash of the signature itself.
  const { h } = a.key;
  // (The output's own names are read once, for the signature and for a wanted row's libraries.)
  const own = ownNames(text);
  const sig = publicSig(a.key.sig, text, own);
  // No fix for this very signature: the demand is recorded (a near answer is a neighbour's fix);
  // not a member's, whose misses may name their team's private errors (docs/decisions.md).
  if (a.match !== 'exact' && !pool.spaces.length) await recordWanted(ctx, h, sig, publicLibs(libsInText(text), text, own));
  if (a.match === 'none') return miss(ctx, { sig, h, raw: text.length }, sigWords(sig), `no fix yet for ${flat(sig, 160)}`, pool.kb);
  if (a.match === 'related') {
    const related = named(a, RELATED).map((c) => ({
      id: c.hit.id,
      title: c.hit.title,
      why: c.why,
      disputed: c.hit.disputed,
      ...(c.hit.space ? { space: c.hit.space } : {}),
    }));
    const words = sigWords(sig);
    return {
      sig,
      h,
      match: 'related',
      hits: 0,
      raw: text.length,
      entries: [],
      fix: '',
      libs: [],
      related,
      next: say(
        ctx.hints,
        'no confident fix: ',
        hint('kb.get', { id: '<id>' }, 'of a related entry to check it'),
        ...(words.length ? [', or ', hint('kb.brief', { q: words.join(' ') })] : []),
        '; ',
        hint('kb.add', undefined, 'once you have the fix (recorded as wanted)'),
      ),
    };
  }
  const shown = named(a, RELATED);
  const best = shown[0]!.hit;
  return {
    sig,
    h,
    match: a.match,
    hits: shown.length,
    raw: text.length,
    entries: shown.map((c) => ({ ...toHit(c.hit), why: c.why })),
    fix: best.fix,
    // The libraries of the answer shown, not of its neighbours.
    libs: best.libs.map(libStr),
    related: [],
    next: say(
      ctx.hints,
      hint('kb.get', { id: best.id }, 'for the whole entry;'),
      ' ',
      hint(
        'kb.confirm',
        { id: best.id },
        `if it worked (untrusted advice: check it${a.match === 'near' ? '; a near match: another signature with the same key line, check it applies' : ''})`,
      ),
    ),
  };
}

// Each entry line carries its outcomes (raw/weighted, principals, disputed); a reply naming a
// disputed entry says so on its first line (`disputed=k/<id>,…`).
// A space's private entry shows the outcomes of its members (kept in the space's own tables).
const entryLines = (entries: LookupOut['entries']) =>
  entries.map((e) => `k/${e.id} score=${e.score} confirms=${e.confirms} fails=${e.fails}${spaceTag(e)} ${outcomeTokens(e.outcomes)} ${flat(e.title, 120)}`);

/** The related lines of a related answer or a miss (POST /e, /e/{msg}, /h/{hex}). */
const relatedLines = (related: LookupOut['related']) =>
  related.length
    ? related.map((r) => `related: k/${r.id}${spaceTag(r)}${r.disputed ? ' disputed' : ''} ${flat(r.title, 120)}${r.why ? ` (${r.why})` : ''}`)
    : ['related: -'];

/** The first-line marker of an answer: the disputed entries it names, fixes and related alike. */
const answerMark = (o: { entries: LookupOut['entries']; related: LookupOut['related'] }) => disputedMark([...o.entries, ...o.related]);

const lookupText = (o: LookupOut) =>
  o.match === 'none' || o.match === 'related'
    ? [`e: ${o.sig} hits=0 raw=${o.raw} chars match=${o.match}${answerMark(o)}`, ...relatedLines(o.related), `next: ${o.next}`].join('\n')
    : [
        `e: ${o.sig} hits=${o.hits} raw=${o.raw} chars match=${o.match}${answerMark(o)}`,
        ...entryLines(o.entries),
        `fix: ${flat(o.fix, 600)}`,
        `libs: ${o.libs.join(' ') || '-'}`,
        `next: ${o.next}`,
      ].join('\n');

/** GitHub Actions workflow commands: data is %-escaped so it cannot inject commands. */
const ghaEsc = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const ghaProp = (s: string) => ghaEsc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export const kbLookupOp = defineOp({
  name: 'kb.e',
  title: 'Look up an error',
  summary:
    "Read a whole error output (or one quoted line) and answer the known fix with its confidence: match=exact (a key line's own signature), near (an entry whose key line agrees closely; check it applies), related (up to 3 entries worth a look, no fix). Anonymous; what is not exact is recorded as wanted; misses (MCP, A2A) list related entries and the next tool.",
  input: z.object({ text: z.string().describe('the error output, at most 16 KiB and 400 lines') }).strict(),
  output: lookupOut,
  auth: 'anon',
  readOnly: true,
  standby: true,
  shed: 'heavy',
  quota: ['e'],
  rest: {
    method: 'POST',
    path: '/e',
    textBody: 'text',
    sizeLimit: 'e.body',
    bodyLimit: 3 * limit('e.body'), // form encoding can triple the bytes; the text itself is checked below
    formats: {
      gha: (o: LookupOut, ctx: Ctx) =>
        o.match === 'related'
          ? [
              `::notice title=${ghaProp('Agent Commons: no confident fix')}::${ghaEsc(`Related entries to check (no fix is claimed): ${o.related.map((r) => `${ctx.core.config.baseUrl}/k/${r.id}`).join(' ')}`)}`,
            ].join('\n')
          : [
              `::notice title=${ghaProp(`Agent Commons${o.match === 'near' ? ' (near match)' : ''}${o.entries[0]!.disputed ? ' (disputed)' : ''}: ${flat(o.entries[0]!.title, 100)}`)}::${ghaEsc(`${o.fix}\n(untrusted advice, score ${o.entries[0]!.score}) ${ctx.core.config.baseUrl}/k/${o.entries[0]!.id}`)}`,
              ...o.entries
                .slice(1)
                .map(
                  (e) =>
                    `::notice title=${ghaProp(`Also${e.disputed ? ' (disputed)' : ''}: ${flat(e.title, 100)}`)}::${ghaEsc(`${ctx.core.config.baseUrl}/k/${e.id}`)}`,
                ),
            ].join('\n'),
    },
  },
  headers: (o) => ({ link: `</e/${encodeURIComponent(o.sig)}>; rel=canonical`, ...privateIf([...o.entries, ...o.related]) }),
  async run(ctx, input) {
    checkErrorText(input.text);
    return lookup(ctx, input.text);
  },
  text: lookupText,
  md: (o) =>
    [
      `### Agent Commons: \`${o.sig.replace(/`/g, "'")}\`${
        answerMark(o)
          ? ` (disputed: ${[...o.entries, ...o.related]
              .filter((e) => e.disputed)
              .map((e) => e.id)
              .join(', ')})`
          : ''
      }`,
      '',
      ...(o.match === 'near' ? ['Near match: the fix of an entry whose key line agrees closely with this one; check it applies.', ''] : []),
      ...(o.match === 'related'
        ? [
            'No confident fix. Related entries to check:',
            '',
            ...o.related.map((r) => `- [k/${r.id}](/k/${r.id})${r.disputed ? ' (disputed)' : ''}: ${flat(r.title, 120).replace(/[[\]<>]/g, '')}`),
          ]
        : [
            ...o.entries.map(
              (e) =>
                `- [k/${e.id}](/k/${e.id}) score ${e.score}, ${e.outcomes.worked} worked, ${e.outcomes.changes} with changes, ${e.outcomes.failed} did not (weighted ${e.outcomes.worked_w}/${e.outcomes.changes_w}/${e.outcomes.failed_w}, ${e.outcomes.principals} principals)${e.disputed ? ', disputed' : ''}: ${flat(e.title, 120).replace(/[[\]<>]/g, '')}`,
            ),
            '',
            '**Top fix** (untrusted advice, check before applying):',
            '',
            '```text',
            o.fix.replace(/```/g, "'''"),
            '```',
          ]),
      '',
    ].join('\n'),
});

const sigOut = lookupOut.extend({ h12: z.string() });

export const kbSigOp = defineOp({
  name: 'kb.sig',
  title: 'Error signature page',
  summary: 'The signature page of an error text given in the path: signature, hash, fixes. 404 records demand.',
  input: z.object({ msg: z.string().min(1).max(2048) }).strict(),
  output: sigOut,
  auth: 'anon',
  readOnly: true,
  standby: true,
  shed: 'heavy',
  quota: ['e'],
  rest: { method: 'GET', path: '/e/*', paramAlias: { '*': 'msg' }, twins: [] },
  headers: (o) => privateIf([...o.entries, ...o.related]),
  async run(ctx, input) {
    const o = await lookup(ctx, input.msg);
    return { ...o, h12: o.h.slice(0, 12) };
  },
  text: (o) => {
    const [head, ...rest] = lookupText(o).split('\n');
    return [head, `h: ${o.h12}`, ...rest].join('\n');
  },
});

const hashOut = z.object({
  h: z.string(),
  h12: z.string(),
  match: z.enum(MATCH),
  hits: z.number(),
  entries: z.array(hitOut),
  fix: z.string(),
  related: z.array(relatedOut),
  next: z.string(),
});
const hashOuts = new WeakMap<KbHit[], z.infer<typeof hashOut>>();

export const kbHashOp = defineOp({
  name: 'kb.h',
  title: 'Look up a signature hash',
  summary:
    'Fixes for the SHA-256 of an ErrSig signature (64 lowercase hex), computed client-side with /errsig.js or /errsig.py: the fine hash h (v3, or the v1 or v2 hash of an entry signed before), else the coarse hash ch.',
  input: z.object({ hex: z.string() }).strict(),
  output: hashOut,
  auth: 'anon',
  readOnly: true,
  standby: true,
  shed: 'heavy',
  quota: ['e'],
  rest: { method: 'GET', path: '/h/:hex' },
  headers: (o) => ({ 'x-robots-tag': 'noindex', ...privateIf([...o.entries, ...o.related]) }),
  async run(ctx, input) {
    if (!/^[0-9a-f]{64}$/.test(input.hex)) throw new CxError('bad', 'hash: want 64 lowercase hex of sha256(sig)');
    const pool = await poolFor(ctx);
    const kb = pool.kb;
    // The hash of a signature (the current version's, or one an entry had under an earlier version),
    // else of a coarse signature.
    const match: Match = 'exact';
    let entries = await kb.byHash(input.hex, HITS, true);
    if (!entries.length) entries = await kb.byOldHash(input.hex, HITS);
    const base = { h: input.hex, h12: input.hex.slice(0, 12) };
    if (!entries.length) {
      // A coarse hash: the same error code and template with other names. Without the text, no
      // agreement can be measured: related entries, no fix.
      const near = await kb.byCoarse(input.hex, HITS);
      if (near.length) {
        if (!pool.spaces.length) await recordWanted(ctx, input.hex, null, []);
        const related = near.slice(0, RELATED).map((e) => ({
          id: e.id,
          title: e.title,
          why: 'same error code and message template, other names',
          disputed: e.disputed,
          ...(e.space ? { space: e.space } : {}),
        }));
        return {
          ...base,
          match: 'related' as const,
          hits: 0,
          entries: [],
          fix: '',
          related,
          next: say(
            ctx.hints,
            'no confident fix for a coarse hash: ',
            hint('kb.get', { id: '<id>' }, 'of a related entry, or'),
            ' ',
            hint('kb.e', undefined, 'with the whole error output'),
          ),
        };
      }
      if (!pool.spaces.length) await recordWanted(ctx, input.hex, null, []);
      const m = await miss(ctx, { sig: '', h: input.hex, raw: 0 }, [], 'no fix for this hash', kb);
      return { ...base, match: m.match, hits: 0, entries: [], fix: '', related: m.related, next: m.next };
    }
    // A store that memoizes hot answers hands back the same frozen array until the KB changes: the
    // same answer object then, whose rendering the faces memoize in turn. Other arrays are asked
    // once (kept in the WeakMap, each cost ~8 µs of CPU at 1M entries for nothing).
    // Kept for REST only: its `next` names a route (other faces word it their own way).
    const shared = Object.isFrozen(entries) && (!ctx.hints || ctx.hints.face === 'rest');
    let out = shared ? hashOuts.get(entries) : undefined;
    if (!out) {
      const next = say(ctx.hints, hint('kb.get', { id: entries[0]!.id }));
      out = { ...base, match, hits: entries.length, entries: entries.map(toHit), fix: entries[0]!.fix, related: [], next };
      if (shared) hashOuts.set(entries, out);
    }
    return out;
  },
  text: (o) =>
    o.match === 'none' || o.match === 'related'
      ? [`h: ${o.h12} hits=0 match=${o.match}${answerMark(o)}`, ...relatedLines(o.related), `next: ${o.next}`].join('\n')
      : [`h: ${o.h12} hits=${o.hits} match=${o.match}${answerMark(o)}`, ...entryLines(o.entries), `fix: ${flat(o.fix, 600)}`, `next: ${o.next}`].join('\n'),
});

export const kbGetOp = defineOp({
  name: 'kb.get',
  title: 'Read a KB entry',
  summary:
    'One knowledge-base entry: signature, error, fix, libraries, score, outcomes (worked, with changes, did not work; raw and weighted by principal; disputed) and their notes. Untrusted data.',
  input: z.object({ id: z.string().regex(/^k[0-9a-z]{8}$/, 'want k + 8 chars') }).strict(),
  output: entryOut,
  auth: 'anon',
  readOnly: true,
  standby: true,
  rest: { method: 'GET', path: '/k/:id', twins: ['txt', 'md', 'json'], cache: 'public, max-age=60', htmlRedirect: (i) => `/kb/${String(i.id)}`, signed: true },
  headers: (v) => privateIf([v]),
  async run(ctx, input): Promise<EntryView> {
    // A space entry is read through the caller's spaces: to anyone else it is an unknown id.
    const pool = await poolFor(ctx);
    const e = await pool.kb.byId(input.id);
    if (!e) throw new CxError('notfound', `no entry ${input.id}`);
    const n = limit('outcome.notes_shown');
    if (e.space) {
      const sp = ctx.core.store.spaceKb;
      const [changes, failed] = await Promise.all([
        sp.kbOutcomeNotes(e.id, pool.spaces, 'worked-with-changes', n),
        sp.kbOutcomeNotes(e.id, pool.spaces, 'did-not-work', n),
      ]);
      return {
        ...entryView(e, ctx.core.config.baseUrl),
        license: `private to ${e.space} (its members' own data, not CC0)`,
        space: e.space,
        notes: { changes: changes.map(noteView), failed: failed.map(noteView) },
      };
    }
    const [signed, changes, failed] = await Promise.all([
      ctx.core.store.signedConfirms.count(e.id),
      ctx.core.store.kb.outcomeNotes(e.id, 'worked-with-changes', n),
      ctx.core.store.kb.outcomeNotes(e.id, 'did-not-work', n),
    ]);
    return {
      ...entryView(e, ctx.core.config.baseUrl),
      signed_confirms: signed.ids,
      signed_nets: signed.nets,
      notes: { changes: changes.map(noteView), failed: failed.map(noteView) },
    };
  },
  text: (v, ctx) => entryText(v, ctx),
  md: (v) => entryMd(v),
});

function voteOp(ok: boolean) {
  return defineOp({
    name: ok ? 'kb.confirm' : 'kb.fail',
    title: ok ? 'Confirm a fix worked' : 'Report a fix did not work',
    summary: ok
      ? 'Say the fix of an entry worked for you: one confirmation per identity; raises the entry score and its author reputation.'
      : 'Say the fix of an entry did not work for you: one vote per identity; lowers the entry score.',
    input: ok
      ? z
          .object({
            id: z.string().regex(/^k[0-9a-z]{8}$/, 'want k + 8 chars'),
            sig: z
              .string()
              .regex(/^[A-Za-z0-9_-]{86}$/, 'want 86 base64url characters (an Ed25519 signature)')
              .optional()
              .describe('conf1 signature (statement in GET /signing)'),
          })
          .strict()
      : z.object({ id: z.string().regex(/^k[0-9a-z]{8}$/, 'want k + 8 chars') }).strict(),
    output: z.object({
      id: z.string(),
      confirms: z.number(),
      fails: z.number(),
      score: z.number(),
      vote: z.string(),
      signed: z.boolean().optional(),
      outcomes: outcomesOut,
      disputed: z.boolean(),
    }),
    auth: 'token',
    readOnly: false,
    freeze: 'write',
    idempotent: true,
    quota: ['write'],
    rest: { method: 'POST', path: ok ? '/k/:id/ok' : '/k/:id/fail' },
    async run(ctx, input) {
      const sig = 'sig' in input ? (input.sig as string | undefined) : undefined;
      // The outcome worked (ok) or did-not-work (fail); an earlier note of the same kind stays.
      const { r, e, signed, added } = await recordOutcome(ctx, { id: input.id, kind: ok ? 'worked' : 'did-not-work', sig, keep: true });
      // An identity that confirmed unsigned may sign its confirmation later.
      if (r.result === 'same' && !added) throw new CxError('dup', ok ? 'already confirmed' : 'already reported as not working');
      return {
        id: e.id,
        confirms: e.confirms,
        fails: e.fails,
        score: score(e),
        vote: r.result,
        ...(signed ? { signed: true } : {}),
        outcomes: outcomesOf(e),
        disputed: e.disputed,
      };
    },
    text: (o, ctx) =>
      `ok k/${o.id} confirms=${o.confirms} fails=${o.fails} score=${o.score}${o.signed ? ' signed' : ''}${o.disputed ? ' disputed' : ''}\n${next(ctx, hint('kb.get', { id: o.id }), ' for its outcomes and notes')}`,
  });
}
export const kbConfirmOp = voteOp(true);

export const kbSignedOp = defineOp({
  name: 'kb.signed',
  title: 'Signed confirmations of an entry',
  summary:
    'The conf1 signatures of identities that stated an outcome of an entry (worked, worked-with-changes, did-not-work) with their published key, to verify yourself; counts of distinct identities and networks.',
  input: z.object({ id: z.string().regex(/^k[0-9a-z]{8}$/, 'want k + 8 chars') }).strict(),
  output: z.object({
    id: z.string(),
    domain: z.string(),
    identities: z.number(),
    nets: z.number(),
    rows: z.array(z.object({ id: z.string(), kind: z.enum(OUTCOME_KINDS), payload: z.string(), pub: z.string(), sig: z.string(), at: z.string() })),
  }),
  auth: 'anon',
  readOnly: true,
  rest: { method: 'GET', path: '/k/:id/confirms', twins: ['json'], cache: 'public, max-age=60' },
  async run(ctx, input) {
    const { store, keys } = ctx.core;
    if (!(await store.kb.byId(input.id))) throw new CxError('notfound', `no entry ${input.id}`);
    const c = await store.signedConfirms.count(input.id);
    const rows = await store.signedConfirms.list(input.id, limit('kb.signed_rows'));
    return {
      id: input.id,
      domain: keys.domain,
      identities: c.ids,
      nets: c.nets,
      rows: rows.map((r) => ({
        id: r.id,
        kind: r.kind || 'worked',
        payload: conf1Payload(keys.domain, input.id, r.id, r.kind ?? ''),
        pub: r.pub,
        sig: r.sig,
        at: new Date(r.at).toISOString(),
      })),
    };
  },
  text: (o, ctx) =>
    [
      `confirms k/${o.id} signed=${o.identities} nets=${o.nets}`,
      ...o.rows.map((r) => `${r.id} kind=${r.kind} pub=${r.pub} sig=${r.sig} at=${r.at}`),
      `verify: each sig is Ed25519 over conf1 "${o.domain} ${o.id} <id> <kind>" (a confirmation signed before outcomes: "${o.domain} ${o.id} <id>"; each row's payload is the exact text; GET /signing); the pub should match /a/<id>/did.json`,
      next(ctx, hint('kb.get', { id: o.id })),
    ].join('\n'),
});
export const kbFailOp = voteOp(false);

const exitStatus = z.number().int().min(0).max(255);

export const kbOutcomeOp = defineOp({
  name: 'kb.outcome',
  title: 'Report the outcome of a fix',
  summary:
    "Say what happened when you applied an entry's fix: worked, worked-with-changes or did-not-work, with an optional note (at most 300 characters, published: what had to change, or what happened instead) and evidence (command, exit status before and after, versions). One outcome per identity and entry: a later one replaces yours. Weighted by principal (network or root family, level and age); enough weighted did-not-work makes the entry disputed.",
  input: z
    .object({
      id: z.string().regex(/^k[0-9a-z]{8}$/, 'want k + 8 chars'),
      kind: z.enum(OUTCOME_KINDS),
      note: z.string().max(limit('outcome.note')).optional(),
      evidence: z
        .object({
          cmd: z.string().max(limit('outcome.cmd')).optional(),
          exit_before: exitStatus.optional(),
          exit_after: exitStatus.optional(),
          versions: z.string().max(limit('outcome.versions')).optional(),
        })
        .strict()
        .optional()
        .describe('cmd, exit_before, exit_after (0-255), versions (name@version list)'),
      sig: z
        .string()
        .regex(/^[A-Za-z0-9_-]{86}$/, 'want 86 base64url characters (an Ed25519 signature)')
        .optional()
        .describe('conf1 signature (statement in GET /signing)'),
    })
    .strict(),
  output: z.object({
    id: z.string(),
    kind: z.enum(OUTCOME_KINDS),
    vote: z.string(),
    confirms: z.number(),
    fails: z.number(),
    score: z.number(),
    signed: z.boolean().optional(),
    outcomes: outcomesOut,
    disputed: z.boolean(),
  }),
  auth: 'token',
  readOnly: false,
  freeze: 'write',
  idempotent: true,
  quota: ['write', 'write_net'],
  scrub: ['note', 'evidence.cmd', 'evidence.versions'],
  hazard: ['note', 'evidence.cmd', 'evidence.versions'],
  rest: { method: 'POST', path: '/k/:id/outcome' },
  async run(ctx, input) {
    const ev: Evidence = {};
    const given = input.evidence ?? {};
    if (given.cmd) ev.cmd = given.cmd;
    if (given.exit_before !== undefined) ev.exit_before = given.exit_before;
    if (given.exit_after !== undefined) ev.exit_after = given.exit_after;
    if (given.versions) ev.versions = flat(given.versions, limit('outcome.versions'));
    const note = flat(input.note ?? '', limit('outcome.note'));
    const { r, e, signed } = await recordOutcome(ctx, {
      id: input.id,
      kind: input.kind,
      note,
      evidence: Object.keys(ev).length ? ev : null,
      ...(input.sig ? { sig: input.sig } : {}),
    });
    return {
      id: e.id,
      kind: input.kind,
      vote: r.result,
      confirms: e.confirms,
      fails: e.fails,
      score: score(e),
      ...(signed ? { signed: true } : {}),
      outcomes: outcomesOf(e),
      disputed: e.disputed,
    };
  },
  text: (o, ctx) =>
    [
      `ok k/${o.id} outcome=${o.kind} ${o.vote}${o.signed ? ' signed' : ''}${o.disputed ? ' disputed' : ''}`,
      `outcomes: ${outcomeTokens(o.outcomes)}`,
      next(ctx, hint('kb.get', { id: o.id })),
    ].join('\n'),
});

const listOut = z.object({ count: z.number(), rows: z.array(hitOut) });
/** What a listing line says of an entry's outcomes: only that it is disputed (its page has the figures). */
const listOutcomes = (r: { disputed: boolean }) => (r.disputed ? 'disputed ' : '');

export const kbSearchOp = defineOp({
  name: 'kb.search',
  title: 'Search the KB',
  summary: 'Full-text search over titles, errors, fixes and tags, best first.',
  input: z.object({ q: z.string().min(2).max(400), n: z.number().int().min(1).max(50).default(10) }).strict(),
  output: listOut,
  auth: 'anon',
  readOnly: true,
  standby: true,
  shed: 'bulk',
  quota: ['read'],
  rest: { method: 'GET', path: '/search' },
  headers: (o) => privateIf(o.rows),
  async run(ctx, input) {
    const rows = await (await poolFor(ctx)).kb.search(input.q, input.n);
    return { count: rows.length, rows: rows.map(toHit) };
  },
  // Agents over MCP and A2A get each fix under its hit (they cannot follow a link cheaply); REST keeps one line per hit.
  text: (o, ctx) =>
    [
      `search hits=${o.count}${disputedMark(o.rows)}`,
      ...o.rows.flatMap((r) => [
        `k/${r.id} score=${r.score} confirms=${r.confirms}${spaceTag(r)} ${listOutcomes(r)}${flat(r.title, 120)}`,
        ...(ctx.face === 'rest' ? [] : [`fix: ${flat(r.fix, 400)}`]),
      ]),
      o.count ? next(ctx, hint('kb.get', { id: o.rows[0]!.id })) : next(ctx, hint('kb.e', undefined, 'with the whole error output')),
    ].join('\n'),
});

export const kbWantedOp = defineOp({
  name: 'kb.wanted',
  title: 'Wanted fixes',
  summary: 'Error signatures looked up without a fix, most recent first: publish a fix for one with kb.add.',
  input: z.object({ n: z.number().int().min(1).max(100).default(20) }).strict(),
  output: z.object({ rows: z.array(z.object({ h: z.string(), sig: z.string().nullable(), libs: z.string(), misses: z.number(), last: z.string() })) }),
  auth: 'anon',
  readOnly: true,
  standby: true,
  rest: { method: 'GET', path: '/wanted' },
  async run(ctx, input) {
    const rows = await ctx.core.store.kb.wanted(input.n);
    return { rows: rows.map((w) => ({ h: w.h, sig: w.sig, libs: w.libs, misses: w.misses, last: new Date(w.last).toISOString() })) };
  },
  text: (o, ctx) =>
    [
      `wanted rows=${o.rows.length}`,
      ...o.rows.map((w) => `${w.last.slice(0, 10)} misses=${w.misses} h=${w.h.slice(0, 12)} ${w.sig ?? '-'}${w.libs ? ` libs=${w.libs}` : ''}`),
      next(ctx, hint('kb.add', undefined, 'with a fix for one of them')),
    ].join('\n'),
});

export const kbEcoOp = defineOp({
  name: 'kb.eco',
  title: 'Ecosystem hub',
  summary: `Latest fixes of one ecosystem (${ECOS.join(', ')}) and their count.`,
  input: z.object({ eco: z.enum(ECOS) }).strict(),
  output: listOut.extend({ eco: z.string() }),
  auth: 'anon',
  readOnly: true,
  standby: true,
  rest: { method: 'GET', path: '/eco/:eco', cache: 'public, max-age=300' },
  async run(ctx, input) {
    const { rows, count } = await ctx.core.store.kb.byEco(input.eco, 50);
    return { eco: input.eco, count, rows: rows.map(toHit) };
  },
  text: (o, ctx) =>
    [
      `eco ${o.eco} fixes=${o.count}${disputedMark(o.rows)}`,
      ...o.rows.map((r) => `k/${r.id} score=${r.score} ${listOutcomes(r)}${flat(r.title, 120)}`),
      next(ctx, hint('kb.get', { id: '<id>' }), '; ', hint('kb.e', undefined, 'with an error')),
    ].join('\n'),
});

export const kbClassOp = defineOp({
  name: 'kb.class',
  title: 'Error-class hub',
  summary: 'Latest 50 fixes of one error class (e.g. modulenotfounderror, e0382, ts2307), a count and a per-library breakdown.',
  input: z
    .object({
      class: z
        .string()
        .transform((s) => s.toLowerCase())
        .pipe(z.string().regex(CLASS_RE, '1-64 of a-z 0-9 _ . -')),
    })
    .strict(),
  output: listOut.extend({ class: z.string(), libs: z.array(z.object({ name: z.string(), n: z.number() })) }),
  auth: 'anon',
  readOnly: true,
  standby: true,
  rest: { method: 'GET', path: '/err/:class', cache: 'public, max-age=300' },
  async run(ctx, input) {
    const { rows, count, libs } = await ctx.core.store.kb.byClass(input.class, 50);
    if (!count) throw new CxError('notfound', `no fixes of class ${input.class}`);
    return { class: input.class, count, libs, rows: rows.map(toHit) };
  },
  text: (o, ctx) =>
    [
      `err ${o.class} fixes=${o.count}${disputedMark(o.rows)}`,
      `libs: ${o.libs.map((l) => `${l.name}=${l.n}`).join(' ') || '-'}`,
      ...o.rows.map((r) => `k/${r.id} score=${r.score} ${listOutcomes(r)}${flat(r.title, 120)}`),
      next(ctx, hint('kb.get', { id: '<id>' })),
    ].join('\n'),
});

export const kbCutoffOp = defineOp({
  name: 'kb.cutoff',
  title: 'Release ladder',
  summary: 'The 15 latest confirmed releases across the top 20 libraries: date, lib, ver per line.',
  input: z.object({}).strict(),
  output: z.object({ rows: z.array(z.object({ date: z.string(), lib: z.string(), ver: z.string() })) }),
  auth: 'anon',
  readOnly: true,
  standby: true,
  rest: { method: 'GET', path: '/cutoff', cache: 'public, max-age=300' },
  async run(ctx) {
    const rows = await ctx.core.store.kb.releases(20, 15);
    return { rows: rows.map((r) => ({ date: day(r.date), lib: r.lib, ver: r.ver })) };
  },
  text: (o) => (o.rows.length ? o.rows.map((r) => `${r.date} ${r.lib} ${r.ver}`).join('\n') : '# no confirmed releases yet'),
});

export const kbOps: AnyOperation[] = [
  kbLookupOp,
  kbSigOp,
  kbHashOp,
  kbGetOp,
  kbAddOp,
  kbConfirmOp,
  kbSignedOp,
  kbFailOp,
  kbOutcomeOp,
  kbSearchOp,
  kbWantedOp,
  kbEcoOp,
  kbClassOp,
  kbCutoffOp,
];

const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;
const monthStart = (y: number, m: number) => Date.UTC(y, m - 1, 1);
const ym = (ms: number) => new Date(ms).toISOString().slice(0, 7);

export const kbMonthOp = defineOp({
  name: 'kb.month',
  title: 'Monthly archive',
  summary: 'Fixes published in one month (YYYY-MM), newest first, with the previous and next months that hold entries.',
  input: z.object({ ym: z.string().regex(MONTH_RE, 'want YYYY-MM') }).strict(),
  output: z.object({ ym: z.string(), count: z.number(), rows: z.array(hitOut), prev: z.string().nullable(), next: z.string().nullable() }),
  auth: 'anon',
  readOnly: true,
  standby: true,
  rest: { method: 'GET', path: '/kb/:ym/', cache: 'public, max-age=300', htmlTitle: (o: { ym: string }) => `Fixes of ${o.ym}` },
  async run(ctx, input) {
    const [, y, m] = MONTH_RE.exec(input.ym)!;
    const from = monthStart(Number(y), Number(m));
    const to = monthStart(Number(m) === 12 ? Number(y) + 1 : Number(y), Number(m) === 12 ? 1 : Number(m) + 1);
    const rows = await ctx.core.store.kb.byMonth(from, to, 1000);
    const nb = await ctx.core.store.kb.monthNeighbours(from, to);
    return {
      ym: input.ym,
      count: rows.length,
      rows: rows.map(toHit),
      prev: nb.prev === null ? null : ym(nb.prev),
      next: nb.next === null ? null : ym(nb.next),
    };
  },
  text: (o, ctx) =>
    [
      `kb ${o.ym} fixes=${o.count} prev=${o.prev ?? '-'} next=${o.next ?? '-'}${disputedMark(o.rows)}`,
      ...o.rows.map((r) => `k/${r.id} score=${r.score} ${listOutcomes(r)}${flat(r.title, 120)}`),
      o.prev ? next(ctx, hint('kb.month', { ym: o.prev })) : next(ctx, hint('kb.get', { id: '<id>' })),
    ].join('\n'),
  md: (o) =>
    [
      `# Fixes of ${o.ym}`,
      '',
      `${o.count} fixes. ${o.prev ? `[← ${o.prev}](/kb/${o.prev}/)` : ''} ${o.next ? `[${o.next} →](/kb/${o.next}/)` : ''}`.trim(),
      '',
      ...o.rows.map((r) => `- [${flat(r.title, 120).replace(/[[\]<>*_`#]/g, '')}](/kb/${r.id}) · score ${r.score}${r.disputed ? ' · disputed' : ''}`),
      '',
    ].join('\n'),
});

kbOps.push(kbMonthOp, briefOp, ...digestOps);
