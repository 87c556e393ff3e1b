// Content origin: which root and which network created a piece of published content (KB entries,
// tasks, topic lines ...), for abuse handling (GET /admin/origin reads it). A cross-cutting record
// like the ledger, so it is a platform service every writer calls after its write: one row insert
// through the admin store port. Not an event: an event per publish doubled a topic line's events
// and NOTIFYs and made every replica insert the row (bench:scale, 2026-11-28 evening).
import type { Ctx } from '../kernel/types.js';

/** Records the caller (identity, network) as the origin of `kind` `ref`; a failure is logged, never the writer's error. */
export async function recordOrigin(ctx: Ctx, kind: string, ref: string): Promise<void> {
  const root = ctx.caller.identity?.id ?? (ctx.caller.operator ? `op:${ctx.caller.operator}` : 'anon');
  try {
    await ctx.core.store.admin.recordOrigin({ kind, ref, root, net: ctx.net, at: ctx.core.now() });
  } catch (err) {
    ctx.core.log.warn({ err, kind, ref }, 'content origin not recorded');
  }
}
