// The one pipeline every face calls: the guards of guards.ts in their order (auth, validate,
// freeze/maintenance, quota, scrub, hazard, PoW redeem), then the operation.
import { guard, type CallMeta } from './guards.js';
import type { Core, Ctx, Operation } from './types.js';

export type { CallMeta } from './guards.js';
export { zodDetail } from './zod-detail.js';

export async function invoke(core: Core, op: Operation, raw: unknown, meta: CallMeta): Promise<{ out: unknown; ctx: Ctx }> {
  const { ctx, input } = await guard(core, op, raw, meta);
  const out = await op.run(ctx, input);
  return { out, ctx };
}
