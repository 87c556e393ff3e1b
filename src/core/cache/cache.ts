// Cached results: a producer stores a result under a 64-hex key (typically the sha256 of the
// question) in a namespace, inline text or a blob hash, optionally handed to one identity.
// Reading (spec 4.2): anonymous only for inline rows of L2+ producers, or from the first
// `cache.anon_nets` distinct reader networks; blob rows need a token (401) and answer 303 to the
// blob. Unknown, expired, hidden (or frozen producer) and handed-to-someone-else are one 404.
import { CxError, notFound } from '../kernel/errors.js';
import { BLOB_HASH as HASH } from '../platform/ids.js';
import { authError } from '../platform/identity/auth.js';
import { levelOf } from '../platform/identity/levels.js';
import { limit } from '../kernel/limits.js';
import type { Ctx } from '../kernel/types.js';
import { checkBytes, HOUR, iso, netTag, sweepSometimes } from '../platform/workspace.js';
import type { CacheRow } from './ports.js';
import { hint } from '../kernel/hints.js';

export const KEY = /^[0-9a-f]{64}$/;
export const NS = /^[A-Za-z0-9_.-]{1,32}$/;
export const DEFAULT_NS = 'default';
const PUBLIC_LVL = 2;

export interface PutIn {
  key: string;
  ns: string;
  text?: string;
  blob?: string;
  ttl_h?: number;
  to?: string;
}

export interface PutOut {
  ns: string;
  key: string;
  kind: 'inline' | 'blob';
  size: number;
  exp: string;
  to: string | null;
  created: boolean;
  public: boolean;
}

export interface ReadOut {
  ns: string;
  key: string;
  kind: 'inline' | 'blob';
  text: string | null;
  blob: string | null;
  location: string | null;
  size: number;
  producer: string;
  lvl: number;
  hits: number;
  date: string;
  exp: string;
  public: boolean;
}

export function checkKey(key: string): void {
  if (!KEY.test(key)) throw new CxError('bad', 'key: want 64 lowercase hex');
}

/** Shared caches may keep only inline rows of L2+ producers that are not handed to one identity. */
const isPublic = (r: Pick<CacheRow, 'kind' | 'to'>, lvl: number) => r.kind === 'inline' && r.to === null && lvl >= PUBLIC_LVL;

export async function putResult(ctx: Ctx, i: PutIn): Promise<PutOut> {
  checkKey(i.key);
  const { core } = ctx;
  const me = ctx.caller.identity!;
  if ((i.text === undefined) === (i.blob === undefined))
    throw new CxError('bad', ['input: give exactly one of text (inline) or blob (a hash from ', hint('blob.put'), ')']);
  let size: number;
  if (i.text !== undefined) {
    checkBytes('text', i.text, limit('cache.inline'));
    size = Buffer.byteLength(i.text);
  } else {
    if (!HASH.test(i.blob!)) throw new CxError('bad', ['blob: want 64 lowercase hex (the hash ', hint('blob.put', undefined, 'returned)')]);
    const b = await core.store.blobs.meta(i.blob!);
    if (!b) throw new CxError('notfound', [`no blob ${i.blob}: `, hint('blob.put', undefined, 'first')]);
    size = b.size;
  }
  if (i.to !== undefined && !(await core.store.identities.byId(i.to))) throw new CxError('notfound', `no identity ${i.to}`);
  await sweepSometimes(ctx, 'cache', (now) => core.store.cache.purgeExpired(now));
  const now = core.now();
  const exp = now + (i.ttl_h ?? limit('cache.ttl_h.default')) * HOUR;
  const r = await core.store.cache.put(
    {
      ns: i.ns,
      key: i.key,
      producer: me.id,
      kind: i.text !== undefined ? 'inline' : 'blob',
      text: i.text ?? null,
      blob: i.blob ?? null,
      size,
      to: i.to ?? null,
      created: now,
      exp,
    },
    now,
    limit('cache.per_id'),
  );
  if (r === 'held') throw new CxError('dup', `key held by another producer in ns ${i.ns} until it expires`);
  if (r === 'full') throw new CxError('dup', `at most ${limit('cache.per_id')} live cached results: delete some first`);
  return { ns: i.ns, key: i.key, kind: r.row.kind, size, exp: iso(exp), to: r.row.to, created: r.created, public: isPublic(r.row, levelOf(me, now)) };
}

/** The row a caller may see, or the one 404. */
async function visible(ctx: Ctx, ns: string, key: string) {
  checkKey(key);
  const now = ctx.core.now();
  const got = await ctx.core.store.cache.get(ns, key, now);
  if (!got || got.producer.frozen) throw notFound();
  const caller = ctx.caller.identity?.id;
  if (got.row.to !== null && caller !== got.row.to && caller !== got.row.producer) throw notFound();
  return { ...got, lvl: levelOf(got.producer, now), caller };
}

function view(r: CacheRow, lvl: number, hits: number): ReadOut {
  return {
    ns: r.ns,
    key: r.key,
    kind: r.kind,
    text: r.text,
    blob: r.blob,
    location: r.blob ? `/v1/b/${r.blob}` : null,
    size: r.size,
    producer: r.producer,
    lvl,
    hits,
    date: iso(r.created),
    exp: iso(r.exp),
    public: isPublic(r, lvl),
  };
}

/** GET: counts a hit and the reader network (not the producer's own reads). */
export async function readResult(ctx: Ctx, ns: string, key: string): Promise<ReadOut> {
  const { row, lvl, caller } = await visible(ctx, ns, key);
  const anon = caller === undefined;
  if (row.kind === 'blob' && anon) throw authError(ctx.core, 'token required to read a blob-backed result');
  const cap = limit('cache.anon_nets');
  const enforce = anon && lvl < PUBLIC_LVL;
  const r = await ctx.core.store.cache.read(row.rid, caller === row.producer ? null : netTag(ctx), cap, enforce);
  if (r.gate === 'gone') throw notFound();
  if (r.gate === 'token') throw authError(ctx.core, `token required: this result of a producer below L2 was read from ${cap} networks already`);
  return view(row, lvl, r.hits);
}

/** HEAD: existence and hit count for whoever may see the row; counts nothing. */
export async function peekResult(ctx: Ctx, ns: string, key: string): Promise<ReadOut> {
  const { row, lvl } = await visible(ctx, ns, key);
  return { ...view(row, lvl, row.hits), text: null };
}

export async function deleteResult(ctx: Ctx, ns: string, key: string): Promise<void> {
  checkKey(key);
  if (!(await ctx.core.store.cache.remove(ns, key, ctx.caller.identity!.id, ctx.core.now()))) throw notFound();
}
