// Checkpoints: named saves of an agent's state. Private by default; a published one is readable at
// /cp/{id} by anyone. An owner below L2 keeps a publication only while at most `cache.anon_nets`
// distinct networks read it: the next network's read ends it for good (a hand-off between a few
// parties, not free hosting). Everything that is not a live, visible publication is the same 404.
import { CxError, notFound } from '../kernel/errors.js';
import { levelOf } from '../platform/identity/levels.js';
import { newId } from '../platform/identity/tokens.js';
import { limit } from '../kernel/limits.js';
import type { Ctx } from '../kernel/types.js';
import { checkBytes, cursorOf, DAY, iso, netTag, seqOf, sweepSometimes } from '../platform/workspace.js';
import type { CheckpointMeta, CheckpointRow } from './ports.js';
import { CP_ID } from '../platform/ids.js';

export { CP_ID };
/** The publication level: from L2 a checkpoint stays published whoever reads it. */
const KEEP_LVL = 2;

export interface CpPublic {
  id: string;
  name: string;
  seq: number;
  date: string;
  by: string;
  lvl: number;
  untrusted: true;
  body: string;
}

export interface CpMetaView {
  id: string;
  name: string;
  seq: number;
  date: string;
  size: number;
  exp: string;
  state: 'private' | 'published' | 'lost' | 'hidden';
}

export interface CpOwnView extends CpMetaView {
  by: string;
  lvl: number;
  readers: number;
  url: string;
  body: string;
}

const stateOf = (m: CheckpointMeta): CpMetaView['state'] => (m.hidden ? 'hidden' : m.published ? 'published' : m.lost ? 'lost' : 'private');
const metaView = (m: CheckpointMeta): CpMetaView => ({
  id: m.id,
  name: m.name,
  seq: m.seq,
  date: iso(m.created),
  size: m.size,
  exp: iso(m.exp),
  state: stateOf(m),
});

const me = (ctx: Ctx) => ctx.caller.identity!;

async function sweep(ctx: Ctx): Promise<void> {
  await sweepSometimes(ctx, 'cp', (now) => ctx.core.store.checkpoints.purgeExpired(now));
}

async function ownView(ctx: Ctx, r: CheckpointRow): Promise<CpOwnView> {
  return {
    ...metaView(r),
    by: r.owner,
    lvl: levelOf(me(ctx), ctx.core.now()),
    readers: await ctx.core.store.checkpoints.readers(r.rid),
    url: `${ctx.core.config.baseUrl}/cp/${r.id}`,
    body: r.body,
  };
}

export async function saveCheckpoint(ctx: Ctx, name: string, body: string, ttlD: number | undefined): Promise<CpOwnView> {
  checkBytes('body', body, limit('cp.body'));
  await sweep(ctx);
  const now = ctx.core.now();
  const exp = now + (ttlD ?? limit('cp.ttl_d.default')) * DAY;
  for (let i = 0; i < 5; i++) {
    const id = newId('c', ctx.core.random, 8);
    const r = await ctx.core.store.checkpoints.save(
      { id, owner: me(ctx).id, name, body, size: Buffer.byteLength(body), created: now, exp },
      now,
      limit('cp.max'),
      limit('cp.versions'),
    );
    if (r === 'full') throw new CxError('dup', `at most ${limit('cp.max')} live checkpoints: delete some first`);
    if (r !== 'taken') return ownView(ctx, r);
  }
  throw new CxError('busy', 'id space contention, retry', 503);
}

async function ownOr404(ctx: Ctx, id: string): Promise<CheckpointRow> {
  const r = CP_ID.test(id) ? await ctx.core.store.checkpoints.own(id, me(ctx).id, ctx.core.now()) : null;
  if (!r) throw notFound();
  return r;
}

export async function getOwnCheckpoint(ctx: Ctx, id: string): Promise<CpOwnView> {
  return ownView(ctx, await ownOr404(ctx, id));
}

export async function publishCheckpoint(ctx: Ctx, id: string, on: boolean): Promise<CpOwnView> {
  const r = await ownOr404(ctx, id);
  if (on && r.lost)
    throw new CxError(
      'dup',
      `publication of ${id} ended after ${limit('cache.anon_nets')} reader networks (owner below L2): save a new checkpoint to share again`,
    );
  if (on && r.hidden) throw new CxError('dup', `${id} is hidden by the operator`);
  const m = await ctx.core.store.checkpoints.setPublished(id, me(ctx).id, on, ctx.core.now());
  if (!m) throw notFound();
  return ownView(ctx, { ...r, ...m });
}

export async function listCheckpoints(
  ctx: Ctx,
  name: string | undefined,
  cursor: string | undefined,
  n: number,
): Promise<{ rows: CpMetaView[]; next: string | null }> {
  const rows = await ctx.core.store.checkpoints.list(me(ctx).id, name ?? null, seqOf(cursor), n + 1, ctx.core.now());
  const more = rows.length > n;
  const page = rows.slice(0, n);
  return { rows: page.map(metaView), next: more ? cursorOf(page.at(-1)!.rid) : null };
}

export async function deleteCheckpoint(ctx: Ctx, id: string): Promise<void> {
  if (!CP_ID.test(id) || !(await ctx.core.store.checkpoints.remove(id, me(ctx).id))) throw notFound();
}

/**
 * The public read. Unknown, malformed, private, expired, hidden (or a frozen owner), unpublished
 * and lost all end in the same `notFound()`. The owner's own reads are not counted.
 */
export async function readPublished(ctx: Ctx, id: string): Promise<CpPublic> {
  const { core } = ctx;
  const now = core.now();
  const got = CP_ID.test(id) ? await core.store.checkpoints.published(id, now) : null;
  if (!got || got.owner.frozen) throw notFound();
  const { cp, owner } = got;
  const lvl = levelOf(owner, now);
  if (ctx.caller.identity?.id !== owner.id) {
    const verdict = await core.store.checkpoints.read(cp.rid, netTag(ctx), lvl >= KEEP_LVL ? null : limit('cache.anon_nets'));
    if (verdict !== 'ok') throw notFound();
  }
  return { id: cp.id, name: cp.name, seq: cp.seq, date: iso(cp.created), by: owner.id, lvl, untrusted: true, body: cp.body };
}

export const publicLine = (c: Pick<CpPublic, 'id' | 'name' | 'seq' | 'date' | 'by' | 'lvl'>) =>
  `cp ${c.id} ${c.name} seq=${c.seq} ${c.date} by ${c.by} lvl=L${c.lvl} untrusted`;
export const keepsPublication = (lvl: number) => lvl >= KEEP_LVL;
