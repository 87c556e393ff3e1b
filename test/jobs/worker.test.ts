// The worker runner over the SQLite queue: wakes on enqueue without fast polling, keeps to its
// concurrency, acks on success, nacks with the error's message, extends long jobs, stops cleanly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import type { Store } from '../../src/compose/store.js';
import { startWorker } from '../../src/core/platform/jobs/worker.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const opened: Array<{ store: Store; dir: string }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.store.close();
    rmSync(o.dir, { recursive: true, force: true });
  }
});
function fresh(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'cx-worker-'));
  const store = openSqliteStore(dir);
  opened.push({ store, dir });
  return store;
}

it('wakes on an enqueue in this process (the idle poll is an hour), respects concurrency, acks', async () => {
  const store = fresh();
  let running = 0;
  let peak = 0;
  const done: number[] = [];
  const stop = startWorker<{ i: number }>(
    store.jobs,
    'q',
    async (job) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 10));
      running--;
      done.push(job.payload.i);
    },
    { concurrency: 3, pollMs: 3_600_000 },
  );
  await new Promise((r) => setTimeout(r, 50)); // idle now, asleep on the hour-long poll
  for (let i = 0; i < 12; i++) await store.jobs.enqueue('q', { i });
  await vi.waitFor(() => expect(done).toHaveLength(12), { timeout: 10_000 });
  expect(peak).toBeLessThanOrEqual(3);
  expect(peak).toBeGreaterThan(1);
  expect(await store.jobs.stats('q')).toEqual({ ready: 0, delayed: 0, leased: 0, dead: 0 });
  await stop();
});

it('a throw is a nack with the error message (dead at once with maxTries 1)', async () => {
  const store = fresh();
  let calls = 0;
  const stop = startWorker(
    store.jobs,
    'f',
    async () => {
      calls++;
      throw new Error(`failed ${calls}`);
    },
    { pollMs: 3_600_000 },
  );
  const id = await store.jobs.enqueue('f', null, { maxTries: 1 });
  await vi.waitFor(async () => expect(await store.jobs.dead('f', 1)).toEqual([expect.objectContaining({ id, error: 'failed 1', tries: 1 })]), {
    timeout: 10_000,
  });
  await stop();
  expect(calls).toBe(1);
});

it('extends the lease of a long job so it is not redelivered; stop waits for the running handler', async () => {
  const store = fresh();
  let starts = 0;
  let finished = false;
  const stop = startWorker(
    store.jobs,
    'long',
    async () => {
      starts++;
      await new Promise((r) => setTimeout(r, 900)); // three lease lengths
      finished = true;
    },
    { leaseMs: 300, concurrency: 2, pollMs: 50 },
  );
  await store.jobs.enqueue('long', null);
  await vi.waitFor(() => expect(starts).toBe(1));
  // Another lease caller while the job runs finds nothing: the lease keeps being pushed on.
  for (let i = 0; i < 6; i++) {
    await new Promise((r) => setTimeout(r, 100));
    expect(await store.jobs.lease('long', 1000)).toEqual([]);
  }
  await stop();
  expect(finished).toBe(true);
  expect(starts).toBe(1);
  expect(await store.jobs.stats('long')).toEqual({ ready: 0, delayed: 0, leased: 0, dead: 0 });
});

it('a handler whose lease was lost is told (signal) and does not ack', async () => {
  let t = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'cx-worker-'));
  const store = openSqliteStore(dir, 'normal', undefined, { now: () => t });
  opened.push({ store, dir });
  let aborted = false;
  let release!: () => void;
  const stop = startWorker(
    store.jobs,
    'lost',
    async (_job, signal) => {
      signal.addEventListener('abort', () => (aborted = true));
      await new Promise<void>((r) => (release = r));
    },
    { leaseMs: 300, pollMs: 3_600_000 },
  );
  const id = await store.jobs.enqueue('lost', null);
  await vi.waitFor(() => expect(release).toBeTypeOf('function'));
  t += 10_000; // the lease runs out before the next extension; another caller takes the job
  const [other] = await store.jobs.lease('lost', 60_000);
  expect(other?.id).toBe(id);
  await vi.waitFor(() => expect(aborted).toBe(true));
  release();
  await stop();
  expect(await store.jobs.ack(id, other!.lease)).toBe(true);
});
