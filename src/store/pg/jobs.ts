// The job queue on PostgreSQL (port: src/core/platform/jobs/ports.ts): the rows of migration 010, the
// SQLite adapter's design (src/store/sqlite/jobs.ts) with row locks instead of one write lock.
// Leasing takes due rows with `SELECT ... FOR UPDATE SKIP LOCKED`, so workers on every replica
// lease different jobs without waiting for each other; each lease gets a fresh random token that
// ack, nack and extend must present, and a lease that expires makes the job due again (`due` is
// its lease deadline), so a worker killed with SIGKILL loses no job.
//
// `onReady` across replicas: after a job becomes due at once (enqueue, retryDead, nack with
// retryInMs 0) commits, `pg_notify('cx_jobs', '<queue>')`; every store LISTENs and wakes its
// workers of that queue. Delayed jobs are found by the workers' slow poll (jobs.poll_ms).
import type { EnqueueOpts, Job, JobQueue, QueueKindStats, QueueStats } from '../../core/platform/jobs/ports.js';
import { limit } from '../../core/kernel/limits.js';
import { backoffMs, checkMs, JOB_COLS as COLS, JOB_ERROR_MAX as ERROR_MAX, jobOf, jobToken as token, type JobRow } from '../shared.js';
import type { Sql } from './sql.js';

type Row = JobRow<unknown>;

const toJob = (r: Row): Job => jobOf(r, (p) => p);

const CHANNEL = 'cx_jobs';

export function pgJobs(sql: Sql, now: () => number): JobQueue & { start(): Promise<void>; close(): Promise<void> } {
  // In-process wake-ups of workers (onReady).
  const watchers = new Map<string, Set<() => void>>();
  const wake = (queue: string) => {
    for (const fn of watchers.get(queue) ?? []) {
      try {
        fn();
      } catch {
        /* a watcher's own failure */
      }
    }
  };
  // Wakes this process's workers now, the other replicas' through the notification (ours echo back:
  // a worker woken twice finds nothing the second time).
  const ready = (queue: string) => {
    wake(queue);
    void sql.notify(CHANNEL, queue).catch(() => undefined);
  };
  let unlisten: (() => Promise<void>) | null = null;

  return {
    async start() {
      // Lost notifications while the connection was down: wake every watched queue once.
      unlisten = await sql.listen(
        CHANNEL,
        (queue) => watchers.has(queue) && wake(queue),
        () => {
          for (const q of watchers.keys()) wake(q);
        },
      );
    },
    async enqueue(queue, payload, opts: EnqueueOpts = {}) {
      checkMs('delayMs', opts.delayMs);
      if (opts.maxTries !== undefined && (!Number.isSafeInteger(opts.maxTries) || opts.maxTries < 1)) throw new RangeError('maxTries must be an integer >= 1');
      const t = now();
      const body = JSON.stringify(payload ?? null);
      const maxTries = opts.maxTries ?? limit('jobs.max_tries');
      let id: string;
      if (opts.key === undefined) {
        id = token().slice(0, 16);
        await sql.query('INSERT INTO jobs (id, queue, payload, due, max_tries, key, created, updated) VALUES ($1, $2, $3::jsonb, $4, $5, NULL, $6, $6)', [
          id,
          queue,
          body,
          t + (opts.delayMs ?? 0),
          maxTries,
          t,
        ]);
      } else {
        // The partial unique index on (queue, key) decides between concurrent enqueues: the loser
        // inserts nothing and reads the winner's id (visible: its insert committed before ours returned).
        for (;;) {
          const fresh = token().slice(0, 16);
          const ins = await sql.query<{ id: string }>(
            'INSERT INTO jobs (id, queue, payload, due, max_tries, key, created, updated) VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $7) ON CONFLICT (queue, key) WHERE key IS NOT NULL DO NOTHING RETURNING id',
            [fresh, queue, body, t + (opts.delayMs ?? 0), maxTries, opts.key, t],
          );
          const had = ins.rows[0] ?? (await sql.query<{ id: string }>('SELECT id FROM jobs WHERE queue = $1 AND key = $2', [queue, opts.key])).rows[0];
          // Acked between the two statements: the key is free again, so enqueue anew.
          if (had) {
            id = had.id;
            break;
          }
        }
      }
      if (!opts.delayMs) ready(queue);
      return id;
    },
    async lease(queue, leaseMs, max = 1) {
      if (!Number.isFinite(leaseMs) || leaseMs < 1) throw new RangeError('leaseMs must be a finite number >= 1');
      if (!Number.isSafeInteger(max) || max < 1) return [];
      return sql.tx(async (q) => {
        const t = now();
        const out: Job[] = [];
        // Again only when some were dead-lettered instead: a leased row is not due before `until`.
        for (let again = true; again && out.length < max; ) {
          again = false;
          const rows = (
            await q.query<Row>(`SELECT ${COLS} FROM jobs WHERE queue = $1 AND state = 'q' AND due <= $2 ORDER BY due, n LIMIT $3 FOR UPDATE SKIP LOCKED`, [
              queue,
              t,
              max - out.length,
            ])
          ).rows;
          for (const r of rows) {
            // Its last allowed delivery ended with an expired lease (the worker died on it): dead.
            if (r.tries >= r.max_tries) {
              await q.query("UPDATE jobs SET state = 'dead', due = $2, lease = NULL, error = $3, updated = $2 WHERE n = $1", [
                r.n,
                t,
                `lease expired on try ${r.tries}`,
              ]);
              again = true;
              continue;
            }
            const lease = token();
            await q.query('UPDATE jobs SET lease = $2, lease_until = $3, due = $3, tries = tries + 1, updated = $4 WHERE n = $1', [r.n, lease, t + leaseMs, t]);
            out.push(toJob({ ...r, tries: r.tries + 1, lease, lease_until: t + leaseMs }));
          }
        }
        return out;
      });
    },
    async ack(id, lease) {
      return (await sql.query("DELETE FROM jobs WHERE id = $1 AND lease = $2 AND state = 'q'", [id, lease])).count === 1;
    },
    async nack(id, lease, opts = {}) {
      checkMs('retryInMs', opts.retryInMs);
      const error = opts.error === undefined ? null : opts.error.slice(0, ERROR_MAX);
      const r = await sql.tx(async (q): Promise<{ to: 'retry' | 'dead' | 'stale'; queue?: string }> => {
        const row = (await q.query<Row>(`SELECT ${COLS} FROM jobs WHERE id = $1 AND lease = $2 AND state = 'q' FOR UPDATE`, [id, lease])).rows[0];
        if (!row) return { to: 'stale' };
        const t = now();
        if (row.tries >= row.max_tries) {
          await q.query("UPDATE jobs SET state = 'dead', due = $2, lease = NULL, error = $3, updated = $2 WHERE n = $1", [row.n, t, error]);
          return { to: 'dead' };
        }
        await q.query('UPDATE jobs SET due = $2, lease = NULL, lease_until = NULL, error = $3, updated = $4 WHERE n = $1', [
          row.n,
          t + (opts.retryInMs ?? backoffMs(row.tries)),
          error,
          t,
        ]);
        return { to: 'retry', queue: row.queue };
      });
      if (r.queue && opts.retryInMs === 0) ready(r.queue);
      return r.to;
    },
    async extend(id, lease, leaseMs) {
      checkMs('leaseMs', leaseMs);
      const t = now();
      return (
        (await sql.query("UPDATE jobs SET lease_until = $3, due = $3, updated = $4 WHERE id = $1 AND lease = $2 AND state = 'q'", [id, lease, t + leaseMs, t]))
          .count === 1
      );
    },
    async stats(queue): Promise<QueueStats> {
      const r = await sql.query<QueueStats>(
        `SELECT count(*) FILTER (WHERE state = 'q' AND due <= $2) AS ready,
                count(*) FILTER (WHERE state = 'q' AND due > $2 AND lease IS NULL) AS delayed,
                count(*) FILTER (WHERE state = 'q' AND due > $2 AND lease IS NOT NULL) AS leased,
                count(*) FILTER (WHERE state = 'dead') AS dead
         FROM jobs WHERE queue = $1`,
        [queue, now()],
      );
      return r.rows[0]!;
    },
    async overview(): Promise<QueueKindStats[]> {
      const r = await sql.query<QueueKindStats>(
        `SELECT split_part(queue, ':', 1) AS kind,
                count(*) FILTER (WHERE state = 'q' AND due <= $1) AS ready,
                count(*) FILTER (WHERE state = 'q' AND due > $1 AND lease IS NULL) AS delayed,
                count(*) FILTER (WHERE state = 'q' AND due > $1 AND lease IS NOT NULL) AS leased,
                count(*) FILTER (WHERE state = 'dead') AS dead,
                min(due) FILTER (WHERE state = 'q' AND due <= $1) AS "oldestReadyAt"
         FROM jobs GROUP BY 1 ORDER BY 1`,
        [now()],
      );
      return r.rows.map((x) => ({ ...x, oldestReadyAt: x.oldestReadyAt === null ? null : Number(x.oldestReadyAt) }));
    },
    async dead(queue, n) {
      return (await sql.query<Row>(`SELECT ${COLS} FROM jobs WHERE queue = $1 AND state = 'dead' ORDER BY due DESC, n DESC LIMIT $2`, [queue, n])).rows.map(
        toJob,
      );
    },
    async retryDead(id) {
      const r = (
        await sql.query<{ queue: string }>(
          "UPDATE jobs SET state = 'q', tries = 0, due = $2, lease = NULL, lease_until = NULL, updated = $2 WHERE id = $1 AND state = 'dead' RETURNING queue",
          [id, now()],
        )
      ).rows[0];
      if (r) ready(r.queue);
      return r !== undefined;
    },
    onReady(queue, fn) {
      let set = watchers.get(queue);
      if (!set) watchers.set(queue, (set = new Set()));
      const entry = () => fn();
      set.add(entry);
      return () => {
        set!.delete(entry);
        if (!set!.size && watchers.get(queue) === set) watchers.delete(queue);
      };
    },
    async close() {
      watchers.clear();
      await unlisten?.();
    },
  };
}
