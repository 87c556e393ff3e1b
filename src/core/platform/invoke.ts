// The one pipeline every face calls: the guards of guards.ts in their order (auth, validate,
// freeze/maintenance, quota, scrub, hazard, PoW redeem), then the operation.
import type { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { guard, type CallMeta } from './guards.js';
import { checkOutput, outputCheckOn } from '../kernel/output-check.js';
import type { Core, Ctx, Operation } from '../kernel/types.js';
import { coreFor } from './standby.js';

export type { CallMeta } from './guards.js';
export { zodDetail } from '../kernel/zod-detail.js';

/** Runs an operation for a caller; a typed op gives a typed result (the registry's erased ones give unknown). */
export async function invoke<I extends z.ZodType, O>(
  core: Core,
  op: Operation<I, O>,
  raw: unknown,
  meta: CallMeta,
): Promise<{ out: O; ctx: Ctx; input: z.output<I> }> {
  const t0 = performance.now();
  try {
    const g = guard(core, op as unknown as Operation, raw, meta);
    const { ctx, input } = g instanceof Promise ? await g : g;
    // The validate guard parsed `raw` with this op's own schema.
    const typed = input as z.output<I>;
    // An operation that routes to others calls them as this caller, through every guard of theirs.
    ctx.call = (inner, raw2) => invoke(core, inner, raw2, meta);
    // An anonymous read may be served by a read standby (standby.ts); the guards above used the primary.
    if (op.standby) ctx.core = coreFor(core, op as unknown as Operation, ctx.caller);
    const ran = await op.run(ctx, typed);
    // Tests run with the output contract checked (CX_CHECK_OUTPUT=1, see output-check.ts).
    const out = outputCheckOn() ? checkOutput(op as unknown as Operation, ran) : ran;
    core.requests.done(op.name, meta.face, 'ok', performance.now() - t0);
    return { out, ctx, input: typed };
  } catch (e) {
    // Codes come from the one table (errors.ts); anything else is what the faces render as internal.
    core.requests.done(op.name, meta.face, e instanceof CxError ? e.code : 'internal', performance.now() - t0);
    throw e;
  }
}
