// SQLite implementation of the job queue: one row per job until it is acked. `due` is when the job
// may be leased next: its run time while it waits, its lease deadline while it is leased, so a
// lease that expires (a worker killed with SIGKILL) makes the job due again with no sweep. Leasing
// runs in a BEGIN IMMEDIATE transaction (the write lock first), so of many callers, in this process
// or another on the same file, each job goes to exactly one; each lease gets a fresh random token
// that ack, nack and extend must present, so a worker whose lease expired and was redelivered
// cannot complete the job a second time. PostgreSQL later: the same rows, leased with
// `SELECT ... FOR UPDATE SKIP LOCKED` and NOTIFY for `onReady`.
import type { EnqueueOpts, Job, JobQueue, QueueKindStats, QueueStats } from '../../core/platform/jobs/ports.js';
import { limit } from '../../core/kernel/limits.js';
import { backoffMs, checkMs, JOB_COLS as COLS, JOB_ERROR_MAX as ERROR_MAX, jobOf, jobToken as token, type JobRow } from '../shared.js';
import { type Db, LIMIT, polling } from './db.js';

type Row = JobRow<string>;

const toJob = (r: Row): Job => jobOf(r, (p) => JSON.parse(p) as unknown);

export function sqliteJobs(db: Db, now: () => number): JobQueue & { close(): void } {
  const selKey = db.prepare('SELECT id FROM jobs WHERE queue = ? AND key = ?');
  const ins = db.prepare(
    `INSERT INTO jobs (id, queue, payload, due, max_tries, key, created, updated)
     VALUES (@id, @queue, @payload, @due, @maxTries, @key, @now, @now)`,
  );
  const selDue = db.prepare(`SELECT ${COLS} FROM jobs WHERE queue = ? AND state = 'q' AND due <= ? ORDER BY due, n ${LIMIT}`);
  const take = db.prepare('UPDATE jobs SET lease = @lease, lease_until = @until, due = @until, tries = tries + 1, updated = @now WHERE n = @n');
  const expire = db.prepare("UPDATE jobs SET state = 'dead', due = @now, lease = NULL, error = @error, updated = @now WHERE n = @n");
  const selHeld = db.prepare(`SELECT ${COLS} FROM jobs WHERE id = ? AND lease = ? AND state = 'q'`);
  const del = db.prepare("DELETE FROM jobs WHERE id = ? AND lease = ? AND state = 'q'");
  const retry = db.prepare('UPDATE jobs SET due = @due, lease = NULL, lease_until = NULL, error = @error, updated = @now WHERE n = @n');
  const extend = db.prepare("UPDATE jobs SET lease_until = @until, due = @until, updated = @now WHERE id = @id AND lease = @lease AND state = 'q'");
  const stats = db.prepare(
    `SELECT coalesce(sum(state = 'q' AND due <= @t), 0) AS ready,
            coalesce(sum(state = 'q' AND due > @t AND lease IS NULL), 0) AS delayed,
            coalesce(sum(state = 'q' AND due > @t AND lease IS NOT NULL), 0) AS leased,
            coalesce(sum(state = 'dead'), 0) AS dead
     FROM jobs WHERE queue = @q`,
  );
  const overview = db.prepare(
    `SELECT CASE WHEN instr(queue, ':') > 0 THEN substr(queue, 1, instr(queue, ':') - 1) ELSE queue END AS kind,
            coalesce(sum(state = 'q' AND due <= @t), 0) AS ready,
            coalesce(sum(state = 'q' AND due > @t AND lease IS NULL), 0) AS delayed,
            coalesce(sum(state = 'q' AND due > @t AND lease IS NOT NULL), 0) AS leased,
            coalesce(sum(state = 'dead'), 0) AS dead,
            min(CASE WHEN state = 'q' AND due <= @t THEN due END) AS oldestReadyAt
     FROM jobs GROUP BY kind ORDER BY kind`,
  );
  const selDead = db.prepare(`SELECT ${COLS} FROM jobs WHERE queue = ? AND state = 'dead' ORDER BY due DESC, n DESC ${LIMIT}`);
  const revive = db.prepare(
    "UPDATE jobs SET state = 'q', tries = 0, due = @now, lease = NULL, lease_until = NULL, updated = @now WHERE id = @id AND state = 'dead' RETURNING queue",
  );

  // In-process wake-ups of workers (onReady).
  const watchers = new Map<string, Set<() => void>>();
  const ready = (queue: string) => {
    for (const fn of watchers.get(queue) ?? []) {
      try {
        fn();
      } catch {
        /* a watcher's own failure */
      }
    }
  };

  const enqueueTx = db.transaction((queue: string, payload: string, o: EnqueueOpts, t: number): string => {
    if (o.key !== undefined) {
      const had = selKey.get(queue, o.key) as { id: string } | undefined;
      if (had) return had.id;
    }
    const id = token().slice(0, 16);
    ins.run({ id, queue, payload, due: t + (o.delayMs ?? 0), maxTries: o.maxTries ?? limit('jobs.max_tries'), key: o.key ?? null, now: t });
    return id;
  });

  const leaseTx = db.transaction((queue: string, leaseMs: number, max: number): Job[] => {
    const t = now();
    const out: Job[] = [];
    // Again only when some were dead-lettered instead: a leased row is not due before `until`.
    for (let again = true; again && out.length < max; ) {
      again = false;
      const rows = selDue.all(queue, t, max - out.length) as Row[];
      for (const r of rows) {
        // Its last allowed delivery ended with an expired lease (the worker died on it): dead.
        if (r.tries >= r.max_tries) {
          expire.run({ n: r.n, now: t, error: `lease expired on try ${r.tries}` });
          again = true;
          continue;
        }
        const lease = token();
        take.run({ n: r.n, lease, until: t + leaseMs, now: t });
        out.push(toJob({ ...r, tries: r.tries + 1, lease, lease_until: t + leaseMs }));
      }
    }
    return out;
  });

  const nackTx = db.transaction(
    (id: string, lease: string, error: string | null, retryInMs: number | undefined): { to: 'retry' | 'dead' | 'stale'; queue?: string } => {
      const r = selHeld.get(id, lease) as Row | undefined;
      if (!r) return { to: 'stale' };
      const t = now();
      if (r.tries >= r.max_tries) {
        expire.run({ n: r.n, now: t, error });
        return { to: 'dead' };
      }
      retry.run({ n: r.n, due: t + (retryInMs ?? backoffMs(r.tries)), error, now: t });
      return { to: 'retry', queue: r.queue };
    },
  );

  return {
    async enqueue(queue, payload, opts = {}) {
      checkMs('delayMs', opts.delayMs);
      if (opts.maxTries !== undefined && (!Number.isSafeInteger(opts.maxTries) || opts.maxTries < 1)) throw new RangeError('maxTries must be an integer >= 1');
      const id = enqueueTx.immediate(queue, JSON.stringify(payload ?? null), opts, now());
      if (!opts.delayMs) ready(queue);
      return id;
    },
    async lease(queue, leaseMs, max = 1) {
      if (!Number.isFinite(leaseMs) || leaseMs < 1) throw new RangeError('leaseMs must be a finite number >= 1');
      if (!Number.isSafeInteger(max) || max < 1) return [];
      return polling(db, () => leaseTx.immediate(queue, leaseMs, max));
    },
    async ack(id, lease) {
      return del.run(id, lease).changes === 1;
    },
    async nack(id, lease, opts = {}) {
      checkMs('retryInMs', opts.retryInMs);
      const error = opts.error === undefined ? null : opts.error.slice(0, ERROR_MAX);
      const r = nackTx.immediate(id, lease, error, opts.retryInMs);
      if (r.queue && opts.retryInMs === 0) ready(r.queue);
      return r.to;
    },
    async extend(id, lease, leaseMs) {
      checkMs('leaseMs', leaseMs);
      const t = now();
      return extend.run({ id, lease, until: t + leaseMs, now: t }).changes === 1;
    },
    async stats(queue): Promise<QueueStats> {
      return stats.get({ q: queue, t: now() }) as QueueStats;
    },
    async overview(): Promise<QueueKindStats[]> {
      return overview.all({ t: now() }) as QueueKindStats[];
    },
    async dead(queue, n) {
      return (selDead.all(queue, n) as Row[]).map(toJob);
    },
    async retryDead(id) {
      const r = revive.get({ id, now: now() }) as { queue: string } | undefined;
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
    close() {
      watchers.clear();
    },
  };
}
