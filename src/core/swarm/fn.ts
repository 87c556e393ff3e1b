// fn: sinks. Running a service is the compute domain's: it plugs in one function per core with
// setFnRunner (src/core/compute/fn-sink.ts; swarm never imports compute). Until one is registered, SubCreate with an fn: sink is
// `400 err bad sink fn: sinks need compute`, and deliveries to existing fn: subscriptions wait.
// Each call costs its subscriber swarm.fn_credits, charged through the ledger (owner → sys:fn)
// before the call, and counted against the subscription's max_credits_day (UTC day).
import type { Core } from '../kernel/types.js';
import type { Line } from './lines.js';

/**
 * Runs service `svc@ver` on one line; resolves to the output line (published on the
 * subscription's `to` target with hop = line.hop + 1) or null for no output. A throw is a failed
 * delivery: retried with backoff (and charged again).
 */
export type FnRunner = (core: Core, svc: string, ver: string, line: Line, owner: string) => Promise<string | null>;

/** Why `svc@ver` cannot run for fn: sinks (one line for `err bad sink …`), or null when it can. */
export type FnCheck = (core: Core, svc: string, ver: string) => Promise<string | null>;

const runners = new WeakMap<Core, FnRunner>();
const checks = new WeakMap<Core, FnCheck>();

/** Registers (or with null removes) the fn: runner of a core, and the check SubCreate runs. */
export function setFnRunner(core: Core, fn: FnRunner | null, check?: FnCheck): void {
  if (fn) runners.set(core, fn);
  else runners.delete(core);
  if (fn && check) checks.set(core, check);
  else checks.delete(core);
}

export const fnCheckOf = (core: Core): FnCheck | undefined => checks.get(core);

export const fnRunnerOf = (core: Core): FnRunner | undefined => runners.get(core);

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
