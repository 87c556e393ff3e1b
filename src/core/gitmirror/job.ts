// The mirror job: a `git.mirror` job on the job queue runs GitMirror.sync; one is enqueued at start
// (due after git.first_delay, so start-up work goes first) and then every git.commit_every seconds.
// The idempotency key keeps at most one waiting, so a slow pass never piles up more; a failed pass
// is retried by the queue with backoff. Every process also catches up with the history in the
// store on the same period (the job itself runs on whichever replica takes it).
import { startWorker } from '../platform/jobs/worker.js';
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import type { GitMirror } from './mirror.js';

export const MIRROR_QUEUE = 'git.mirror';

/** Starts the worker and the timer; the returned function stops both (waiting for a running pass). */
export function startMirrorJob(core: Core, mirror: GitMirror, opts: { firstDelayMs?: number } = {}): () => Promise<void> {
  const stopWorker = startWorker(
    core.store.jobs,
    MIRROR_QUEUE,
    async () => {
      const r = await mirror.sync();
      if (r.commit) core.log.info({ commit: r.commit, written: r.written, deleted: r.deleted, entries: r.files }, 'git mirror committed');
    },
    { log: core.log },
  );
  const enqueue = (delayMs = 0) =>
    void core.store.jobs
      .enqueue(MIRROR_QUEUE, {}, { key: 'sync', maxTries: 3, delayMs })
      .catch((err: unknown) => core.log.error({ err }, 'git mirror job not enqueued'));
  enqueue(opts.firstDelayMs ?? limit('git.first_delay') * 1000);
  const t = setInterval(() => enqueue(), limit('git.commit_every') * 1000);
  t.unref();
  // The job runs on one replica; every replica copies what it recorded (and makes its own tarball).
  const c = setInterval(
    () => void mirror.catchUp().catch((err: unknown) => core.log.error({ err }, 'git mirror: catching up with the store failed')),
    limit('git.commit_every') * 1000,
  );
  c.unref();
  return async () => {
    clearInterval(t);
    clearInterval(c);
    await stopWorker();
  };
}
