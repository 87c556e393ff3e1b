// fn: sinks. Running a service is the compute domain's: it plugs in one function per core with
// setFnRunner (the platform's contract, src/core/platform/fn-sinks.ts, called by
// src/core/compute/fn-sink.ts; neither domain imports the other). Until one is registered,
// SubCreate with an fn: sink is `400 err bad sink fn: sinks need compute`, and deliveries to existing fn: subscriptions wait.
// Each call costs its subscriber swarm.fn_credits, charged through the ledger (owner → sys:fn)
// before the call, and counted against the subscription's max_credits_day (UTC day).
import type { Core } from '../kernel/types.js';

// The runner registry is the platform's contract (compute registers, swarm looks up).
export { type FnCheck, type FnRunner, fnCheckOf, fnRunnerOf, setFnRunner } from '../platform/fn-sinks.js';

/** The account fn: calls are paid to. */
export const FN_ACCOUNT = 'sys:fn';

/** Charges `n` credits to `owner` for a call of subscription `sub`; false when the balance is short. */
export async function chargeFn(core: Core, owner: string, n: number, sub: string): Promise<boolean> {
  if (n <= 0) return true;
  const r = await core.store.ledger.post(
    {
      kind: 'fn',
      ref: sub,
      postings: [
        { account: owner, amount: -n },
        { account: FN_ACCOUNT, amount: n },
      ],
    },
    core.now(),
  );
  return !('short' in r);
}

/** Days since the epoch (UTC): the unit of max_credits_day. */
export const utcDay = (ms: number) => Math.floor(ms / 86_400_000);
