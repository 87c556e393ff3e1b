// One call of a served service, run by the server itself (the default donor, k=1): the caller pays
// compute.price credits before the run (so no call runs unpaid, also when calls race), and gets them
// back only when the run fails for the server's reasons (busy, a module it cannot load). Every call leaves a record readable by its caller (GET /v1/run/{id}).
import { iso } from '../kernel/text.js';
import { CxError, notFound } from '../kernel/errors.js';
import { newId } from '../platform/identity/tokens.js';
import { limit } from '../kernel/limits.js';
import { shortError } from '../platform/ledger/ledger.js';
import type { TxDraft } from '../platform/ledger/ports.js';
import type { Core, Ctx } from '../kernel/types.js';
import { runLimits } from './manifest.js';
import { type CallRecord, MODULE_FAULTS, type SvcVersion } from './ports.js';
import { mustServe, sha256, SYSTEM, wasmOf } from './services.js';

/** The account the server's compute earnings go to (a system account: the audit counts it as returned to the mint). */
export const COMPUTE_ACCOUNT = 'sys:compute';

/** A transfer of `n` credits (compute calls, replicated jobs). */
export const pay = (kind: TxDraft['kind'], ref: string, from: string, to: string, n: number): TxDraft => ({
  kind,
  ref,
  postings: [
    { account: from, amount: -n },
    { account: to, amount: n },
  ],
});

export interface CallOut {
  id: string;
  svc: string;
  status: 'ok' | 'failed';
  code: string | null;
  detail: string | null;
  output: string | null;
  out_hash: string | null;
  in_hash: string;
  ms: number;
  charged: number;
  donor: string;
  date: string;
}

export function callOut(c: CallRecord): CallOut {
  return {
    id: c.id,
    svc: `${c.name}@${c.ver}`,
    status: c.status,
    code: c.code,
    detail: c.detail,
    output: c.output ? Buffer.from(c.output).toString('utf8') : null,
    out_hash: c.out_hash,
    in_hash: c.in_hash,
    ms: c.ms,
    charged: c.charged,
    donor: c.donor,
    date: iso(c.created),
  };
}

/** Runs the served version of `name` on `input` for the calling identity (svc.call, /mcp/svc/{name}). */
export async function callService(ctx: Ctx, name: string, input: Buffer): Promise<CallOut> {
  const v = await mustServe(ctx.core, name);
  try {
    return await callVersion(ctx.core, ctx.caller.identity!.id, v, input);
  } catch (err) {
    if (err instanceof Short) throw await shortError(ctx, err.account, err.want);
    throw err;
  }
}

/** The caller's balance does not cover the price (callVersion's refusal; callService turns it into 409). */
export class Short extends Error {
  constructor(
    readonly account: string,
    readonly want: number,
  ) {
    super(`short ${account}`);
  }
}

/**
 * One charged call of a given version for `payer` (an identity id): the building block of svc.call
 * and of `fn:<svc>@<ver>` sinks, which name their version (the sink checks that it may run it, e.g.
 * with `servedVersion` or the version's state). Charges compute.price before the run, refunds it
 * when the run fails for the server's reasons (MODULE_FAULTS stay charged), records the call; a
 * failed run throws `err compute <code>` (or `err busy`), an uncovered price throws Short. `price` is compute.price unless the caller charged already
 * (fn: sinks pay swarm.fn_credits per line and pass 0).
 */
export async function callVersion(core: Core, payer: string, v: SvcVersion, input: Buffer, price = limit('compute.price')): Promise<CallOut> {
  const max = limit('compute.in_bytes');
  if (input.length > max) throw new CxError('size', `input over ${max} bytes`, 413);
  const id = newId('r', core.random, 10);
  if (price > 0) {
    const r = await core.store.ledger.post(pay('compute', id, payer, COMPUTE_ACCOUNT, price), core.now());
    if ('short' in r) throw new Short(payer, price);
  }
  const r = await core.compute.run({ hash: v.wasm, wasm: () => wasmOf(core, v.wasm), entry: v.manifest.entry, input, limits: runLimits(v.manifest) });
  // What the module caused (a loop, a cap, a trap, a dead runner) is charged: a hostile module's
  // calls are not free. A full queue or a module the runner cannot load is the server's: refunded.
  const charged = r.ok || MODULE_FAULTS.has(r.code) ? price : 0;
  if (!r.ok && price > 0 && !charged) await core.store.ledger.post(pay('refund', id, COMPUTE_ACCOUNT, payer, price), core.now());
  const rec: CallRecord = {
    id,
    name: v.name,
    ver: v.ver,
    caller: payer,
    in_hash: sha256(input),
    status: r.ok ? 'ok' : 'failed',
    code: r.ok ? null : r.code,
    detail: r.ok ? null : r.detail,
    output: r.ok ? Buffer.from(r.output) : null,
    out_hash: r.ok ? sha256(r.output) : null,
    ms: Math.round(r.ms),
    charged,
    donor: SYSTEM,
    created: core.now(),
  };
  await core.store.services.putCall(rec);
  if (!r.ok) {
    if (r.code === 'busy') throw new CxError('busy', `compute: ${r.detail} (call ${id})`, 503, { 'retry-after': '5' });
    throw new CxError('compute', `${r.code} ${r.detail} (call ${id}, ${charged ? `charged ${charged}` : 'not charged'})`);
  }
  return callOut(rec);
}

export async function getCall(ctx: Ctx, id: string): Promise<CallOut> {
  const c = await ctx.core.store.services.call(id);
  // Someone else's call is answered like an unknown one.
  if (!c || c.caller !== ctx.caller.identity!.id) throw notFound();
  return callOut(c);
}
