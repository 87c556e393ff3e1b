// Periodic background jobs (retention sweeps): once at start, then every `everyMs`. A run never
// overlaps the previous one, a failure is logged and the next tick tries again, and after stop
// the job is told (`stopped()`) so a long sweep ends between batches.
//
// Replicas on one store (issue 23): a sweep runs only on the process that leads `sweeps`
// (src/core/platform/leader/leader.ts), so N replicas do not repeat the same scans and deletes (nor wait on
// each other's row locks); when the leader dies another takes over within leader.retry and its
// sweeps run at their next tick. Every sweep is an idempotent conditional delete (rows past their
// expiry or retention), so correctness never depends on the leadership: two leaders for a moment,
// or a missed tick, only repeat or delay a purge. `everyProcess` sweeps run on each process
// regardless (they also clear that process's own caches).
import { leadership } from './leader/leader.js';
import type { Core } from '../kernel/types.js';

export interface Sweep {
  /** What the log says, e.g. 'expired drops purged'; failures log `<what> failed`. */
  what: string;
  everyMs: number;
  /** One run; returns how many rows went. */
  run(stopped: () => boolean): Promise<number>;
  /** Run on every process, not only the leader of `sweeps`. */
  everyProcess?: boolean;
}

/** The leadership name of the sweeps. */
export const SWEEPS = 'sweeps';

/** Starts the job; returns the function that stops it. */
export function startSweep(core: Core, sweep: Sweep): () => void {
  let stopped = false;
  let running = false;
  const lead = sweep.everyProcess ? null : leadership(core, SWEEPS);
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      if (lead && !(await lead.leads())) return;
      const n = await sweep.run(() => stopped);
      if (n) core.log.info({ n }, sweep.what);
    } catch (err) {
      core.log.error({ err }, `${sweep.what} failed`);
    } finally {
      running = false;
    }
  };
  void tick();
  const t = setInterval(() => void tick(), sweep.everyMs);
  t.unref();
  return () => {
    stopped = true;
    clearInterval(t);
    lead?.stop();
  };
}
