// The fn: sink contract between the swarm (which delivers lines to fn:<svc>@<ver> subscriptions)
// and the compute domain (which runs service versions): compute registers one runner per core,
// swarm looks it up. In the platform so that neither domain imports the other (like the topic
// contracts of events/topics.ts); src/core/swarm/fn.ts re-exports it.
import type { Core } from '../kernel/types.js';
import type { Line } from './events/topics.js';

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
