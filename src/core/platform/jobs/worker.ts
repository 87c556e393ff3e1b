// A worker over one queue: leases up to `concurrency` jobs, runs the handler on each, acks on
// success and nacks with the error's message on a throw (the queue then retries with backoff or
// dead-letters). While a job runs its lease is extended every third of `leaseMs`; if an extension
// is refused (the lease expired and the job went to another worker) the handler's signal aborts and
// its outcome is not reported. Idle, it sleeps until the queue says jobs are ready in this process
// (`onReady`), a handler finishes, or the slow poll (`pollMs`) for delayed jobs and other processes.
import { limit } from '../../kernel/limits.js';
import type { Job, JobQueue } from './ports.js';

export type JobHandler<P = unknown> = (job: Job<P>, signal: AbortSignal) => Promise<void>;

export interface WorkerOpts {
  /** Jobs run at once (default 1). */
  concurrency?: number;
  /** Lease taken per job, extended while it runs (default jobs.lease_ms). */
  leaseMs?: number;
  /** Idle poll (default jobs.poll_ms). */
  pollMs?: number;
  /** Failures of the queue itself (a handler's throw is a nack, not this); e.g. core.log. */
  log?: { error(obj: object, msg: string): void };
}

/** Starts the worker; the returned function stops leasing and resolves once running handlers ended. */
export function startWorker<P = unknown>(jobs: JobQueue, queue: string, handler: JobHandler<P>, opts: WorkerOpts = {}): () => Promise<void> {
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 1));
  const leaseMs = opts.leaseMs ?? limit('jobs.lease_ms');
  const pollMs = opts.pollMs ?? limit('jobs.poll_ms');
  const fail = (err: unknown, what: string) => opts.log?.error({ err, queue }, what);
  const running = new Set<Promise<void>>();
  let stopped = false;
  let kicked = false;
  let wake: (() => void) | null = null;
  const kick = () => {
    kicked = true;
    wake?.();
  };
  const off = jobs.onReady(queue, kick);

  const run = (job: Job) => {
    const ac = new AbortController();
    const ext = setInterval(
      () => {
        jobs.extend(job.id, job.lease, leaseMs).then(
          (held) => {
            if (!held) ac.abort(new Error('lease lost'));
          },
          (err: unknown) => fail(err, 'job lease extension failed'),
        );
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    const p = (async () => {
      let error: unknown = null;
      let ok = false;
      try {
        await handler(job as Job<P>, ac.signal);
        ok = true;
      } catch (err) {
        error = err;
      }
      clearInterval(ext);
      if (ac.signal.aborted) return; // redelivered elsewhere: its outcome is the other worker's
      try {
        if (ok) await jobs.ack(job.id, job.lease);
        else await jobs.nack(job.id, job.lease, { error: error instanceof Error ? error.message : String(error) });
      } catch (err) {
        fail(err, ok ? 'job ack failed' : 'job nack failed');
      }
    })().finally(() => {
      running.delete(p);
      kick();
    });
    running.add(p);
  };

  const loop = (async () => {
    while (!stopped) {
      kicked = false;
      const free = concurrency - running.size;
      if (free > 0) {
        try {
          for (const job of await jobs.lease(queue, leaseMs, free)) run(job);
        } catch (err) {
          fail(err, 'job lease failed');
        }
      }
      if (stopped || kicked) continue;
      await new Promise<void>((res) => {
        const t = setTimeout(res, pollMs);
        t.unref?.();
        wake = () => {
          clearTimeout(t);
          res();
        };
      });
      wake = null;
    }
  })();

  return async () => {
    stopped = true;
    off();
    wake?.();
    await loop;
    await Promise.allSettled([...running]);
  };
}
