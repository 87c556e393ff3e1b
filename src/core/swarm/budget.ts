// The time budget of subscription filters. Every evaluation of an re: filter on a line is timed on
// the serving thread and accounted to its subscription in this process (prefix: filters, a string
// comparison, are not):
//   - one line over swarm.filter_line_ms, or more than swarm.filter_min_ms of filter time in the last
//     60 s, pauses the subscription for swarm.filter_pause s (deliver.ts writes the pause and its
//     reason to the store: GET /v1/subs shows it);
//   - filter time is charged to the owner, 1 credit per swarm.filter_credit_ms (ledger kind `filter`,
//     owner → sys:filter), counted against the subscription's max_credits_day like fn: calls; short
//     of credits or at the cap, it is paused until the next UTC day.
// The accounts are per process (with replicas on PostgreSQL each counts what it ran); time below one
// credit not yet charged is lost with the process (less than swarm.filter_credit_ms per subscription).
import { performance } from 'node:perf_hooks';
import { limit } from '../kernel/limits.js';
import { ownMs } from '../kernel/own-time.js';
import type { Core } from '../kernel/types.js';
import type { LineFilter } from './filter.js';

/** The account filter time is paid to. */
export const FILTER_ACCOUNT = 'sys:filter';

const WINDOW_MS = 60_000;
/** Per-second buckets of the rolling minute. */
const BUCKET_MS = 1_000;

interface Account {
  /** Bucket starts (epoch ms, multiples of BUCKET_MS), oldest first, and the filter ms of each. */
  at: number[];
  ms: number[];
  /** Sum of `ms`. */
  sum: number;
  /** Filter ms not yet charged (below one credit). */
  owed: number;
  /** Last activity (epoch ms): idle accounts are dropped. */
  seen: number;
}

/** What one timed evaluation says. */
export interface Timed {
  pass: boolean;
  /** Filter time of the evaluation, ms. */
  ms: number;
  /** Set when the subscription went over its time budget with this line: the reason to pause it. */
  over: string | null;
}

const fmt = (ms: number) => (ms >= 10 ? ms.toFixed(0) : ms.toFixed(1));

export class FilterMeter {
  private readonly accounts = new Map<string, Account>();

  private account(sub: string, now: number): Account {
    let a = this.accounts.get(sub);
    if (!a) {
      if (this.accounts.size >= 100_000) this.prune(now);
      a = { at: [], ms: [], sum: 0, owed: 0, seen: now };
      this.accounts.set(sub, a);
    }
    a.seen = now;
    return a;
  }

  /** Drops accounts idle for a whole window (what they owed, below one credit, is forgiven). */
  prune(now: number): void {
    for (const [k, a] of this.accounts) if (a.seen <= now - WINDOW_MS) this.accounts.delete(k);
  }

  /** Adds `ms` of filter time of `sub` at `now`; the reason to pause it, or null while within its budget. */
  add(sub: string, ms: number, now: number): string | null {
    const a = this.account(sub, now);
    const bucket = now - (now % BUCKET_MS);
    while (a.at.length && a.at[0]! <= now - WINDOW_MS) {
      a.at.shift();
      a.sum -= a.ms.shift()!;
    }
    if (a.at.at(-1) === bucket) a.ms[a.ms.length - 1]! += ms;
    else {
      a.at.push(bucket);
      a.ms.push(ms);
    }
    a.sum += ms;
    a.owed += ms;
    const line = limit('swarm.filter_line_ms');
    const minute = limit('swarm.filter_min_ms');
    let over: string | null = null;
    if (ms > line) over = `filter over its time budget (one line took ${fmt(ms)} ms, over ${line} ms)`;
    else if (a.sum > minute) over = `filter over its time budget (${fmt(a.sum)} ms in the last minute, over ${minute} ms)`;
    if (over) {
      // A new window after the pause.
      a.at = [];
      a.ms = [];
      a.sum = 0;
    }
    return over;
  }

  /** Whole credits owed by `sub` for its filter time, taken off its account. */
  takeCredits(sub: string): number {
    const a = this.accounts.get(sub);
    if (!a) return 0;
    const per = limit('swarm.filter_credit_ms');
    const n = Math.floor(a.owed / per);
    a.owed -= n * per;
    return n;
  }

  /** Filter ms in the last minute (tests, diagnostics). */
  lastMinute(sub: string, now: number): number {
    const a = this.accounts.get(sub);
    if (!a) return 0;
    let s = 0;
    for (let i = 0; i < a.at.length; i++) if (a.at[i]! > now - WINDOW_MS) s += a.ms[i]!;
    return s;
  }
}

const meters = new WeakMap<Core, FilterMeter>();
export function meterOf(core: Core): FilterMeter {
  let m = meters.get(core);
  if (!m) meters.set(core, (m = new FilterMeter()));
  return m;
}

/**
 * Runs `fn` on `text`, timed, and accounts the time to `sub`. The time is the call's own
 * (`ownMs`: the lesser of the wall time and the process's CPU time); a filter is neither paused nor
 * charged for another process or another thread running meanwhile.
 */
export function timedFilter(core: Core, sub: string, fn: LineFilter, text: string): Timed {
  const { value: pass, ms } = ownMs(() => fn(text));
  return { pass, ms, over: meterOf(core).add(sub, ms, core.now()) };
}

/** Charges `n` credits of filter time to `owner` for subscription `sub`; false when the balance is short. */
export async function chargeFilter(core: Core, owner: string, n: number, sub: string): Promise<boolean> {
  if (n <= 0) return true;
  const r = await core.store.ledger.post(
    {
      kind: 'filter',
      ref: sub,
      postings: [
        { account: owner, amount: -n },
        { account: FILTER_ACCOUNT, amount: n },
      ],
    },
    core.now(),
  );
  return !('short' in r);
}

/** When the event loop last turned for delivery code (this process: every pump shares it). */
let turned = performance.now();
/** The turn pumps wait for, once one is due (they all wake in the same check phase). */
let next: Promise<void> | null = null;

/**
 * Gives the event loop a turn when swarm.slice_ms has passed since its last one. A delivery is a
 * chain of awaits that SQLite calls resolve at once (microtasks), and the worker leases the next
 * job in the same chain, so without this a run of pumps with slow filters would hold the serving
 * thread until the queue is empty. The slice is shared by every pump of the process: of the pumps
 * woken by one turn the first uses it, the others wait for the next turn, so one turn of the loop
 * runs about one slice of delivery (plus the line in progress), however many pumps are running.
 */
export async function giveTurn(): Promise<void> {
  const slice = limit('swarm.slice_ms');
  while (performance.now() - turned >= slice) {
    next ??= new Promise<void>((r) =>
      setImmediate(() => {
        turned = performance.now();
        next = null;
        r();
      }),
    );
    await next;
  }
}
