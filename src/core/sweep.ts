// Periodic background jobs (retention sweeps): once at start, then every `everyMs`. A run never
// overlaps the previous one, a failure is logged and the next tick tries again, and after stop
// the job is told (`stopped()`) so a long sweep ends between batches.
import type { Core } from './ops/types.js';

export interface Sweep {
  /** What the log says, e.g. 'expired drops purged'; failures log `<what> failed`. */
  what: string;
  everyMs: number;
  /** One run; returns how many rows went. */
  run(stopped: () => boolean): Promise<number>;
}

/** Starts the job; returns the function that stops it. */
export function startSweep(core: Core, sweep: Sweep): () => void {
  let stopped = false;
  let running = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
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
  };
}
