// The daily export as a job on the job queue. A timer (export.first after start, then every
// export.check) enqueues `export` with the day as its idempotency key when that day has no export
// yet; a worker (concurrency 1) runs it. The job's lease makes one process run it (another takes
// over if it dies: the lease expires and the job is redelivered), and a job that finds the day's
// export already written is done at once, so several processes may all enqueue.
import { startWorker } from '../platform/jobs/worker.js';
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { dateOf, latestIndex, runExport } from './run.js';

export const EXPORT_QUEUE = 'export';

/** Enqueues today's export unless it exists; returns the job id, or null when there is nothing to do. */
export async function scheduleExport(core: Core): Promise<string | null> {
  const date = dateOf(core.now());
  const last = await latestIndex(core);
  if (last && last.date >= date) return null;
  return core.store.jobs.enqueue(EXPORT_QUEUE, { date }, { key: `export:${date}`, maxTries: 5 });
}

/** Starts the worker and the daily check; returns the function that stops both. */
export function startExportJob(core: Core, opts: { firstMs?: number } = {}): () => Promise<void> {
  // At shutdown a running export stops between pages (the job is retried later) instead of holding close().
  const stopping = new AbortController();
  const stopWorker = startWorker<{ date?: string }>(
    core.store.jobs,
    EXPORT_QUEUE,
    async (job, signal) => {
      const last = await latestIndex(core);
      if (job.payload.date && last && last.date >= job.payload.date) return; // written meanwhile
      const index = await runExport(core, AbortSignal.any([signal, stopping.signal]));
      core.log.info({ date: index.date, files: index.files.length, bytes: index.files.reduce((n, f) => n + f.size, 0) }, 'daily export written');
    },
    { log: core.log },
  );
  const tick = () => void scheduleExport(core).catch((err: unknown) => core.log.error({ err }, 'export scheduling failed'));
  let every: NodeJS.Timeout | null = null;
  const first = setTimeout(
    () => {
      tick();
      every = setInterval(tick, limit('export.check') * 1000);
      every.unref();
    },
    opts.firstMs ?? limit('export.first') * 1000,
  );
  first.unref();
  return async () => {
    clearTimeout(first);
    if (every) clearInterval(every);
    stopping.abort(new Error('server stopping'));
    await stopWorker();
  };
}
