// Event bus and job queue rows of the benchmark, in process on a temporary SQLite store:
// publish→delivery latency to 1 and to 1,000 stream subscribers (subscribe(), the path SSE and
// MCP streams take), and enqueue+lease+ack throughput through the worker runner with one worker
// and with four. Run alone: `npx tsx bench/bus.ts`.
import { setMaxListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { Store } from '../src/compose/store.js';
import { startWorker } from '../src/core/platform/jobs/worker.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';

export interface BusRow {
  row: string;
  /** Latency rows: ms. */
  p50?: number;
  p99?: number;
  /** Throughput rows: operations per second. */
  perSec?: number;
  n: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function withStore<T>(fn: (s: Store) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'cx-bench-bus-'));
  const store = openSqliteStore(dir);
  try {
    return await fn(store);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Publishes `events` one at a time; each waits until every subscriber has it. */
async function latency(subscribers: number, events: number): Promise<BusRow> {
  return withStore(async (store) => {
    const ac = new AbortController();
    setMaxListeners(0, ac.signal); // one signal ends every subscriber
    const sent = new Map<number, number>();
    const lat: number[] = [];
    let pending = 0;
    let allIn: (() => void) | null = null;
    const loops = Array.from({ length: subscribers }, async () => {
      for await (const e of store.events.subscribe({ topic: 'bench' }, { signal: ac.signal })) {
        lat.push(performance.now() - sent.get(e.id)!);
        if (--pending === 0) allIn?.();
      }
    });
    for (let i = 0; i < events; i++) {
      const done = new Promise<void>((r) => (allIn = r));
      pending = subscribers;
      const id = (await store.events.head('bench')) + 1;
      sent.set(id, performance.now());
      await store.events.publish('bench', { i });
      await done;
    }
    ac.abort();
    await Promise.all(loops);
    lat.sort((a, b) => a - b);
    return { row: `bus publish→delivery, ${subscribers} subscriber${subscribers > 1 ? 's' : ''}`, p50: pct(lat, 50), p99: pct(lat, 99), n: lat.length };
  });
}

/** Enqueues `jobs` jobs while `workers` workers (concurrency 1 each) lease and ack them. */
async function throughput(workers: number, jobs: number): Promise<BusRow> {
  return withStore(async (store) => {
    let acked = 0;
    let allDone: () => void = () => undefined;
    const done = new Promise<void>((r) => (allDone = r));
    const stops = Array.from({ length: workers }, () =>
      startWorker(store.jobs, 'bench', async () => {
        if (++acked === jobs) queueMicrotask(allDone);
      }),
    );
    const t0 = performance.now();
    for (let i = 0; i < jobs; i++) await store.jobs.enqueue('bench', { i });
    await done;
    const secs = (performance.now() - t0) / 1000;
    await Promise.all(stops.map((s) => s()));
    const left = await store.jobs.stats('bench');
    if (left.ready + left.leased + left.delayed) throw new Error(`bench: jobs left ${JSON.stringify(left)}`);
    return { row: `jobs enqueue+lease+ack, ${workers} worker${workers > 1 ? 's' : ''}`, perSec: Math.round(jobs / secs), n: jobs };
  });
}

export async function benchBus(opts: { events1?: number; events1000?: number; jobs?: number } = {}): Promise<BusRow[]> {
  return [
    await latency(1, opts.events1 ?? 2000),
    await latency(1000, opts.events1000 ?? 100),
    await throughput(1, opts.jobs ?? 3000),
    await throughput(4, opts.jobs ?? 3000),
  ];
}

export function formatBusRows(rows: BusRow[]): string {
  const f = (x: number | undefined) => (x === undefined ? '' : x < 10 ? x.toFixed(3) : x.toFixed(1));
  return [
    '| row | p50 ms | p99 ms | per s | n |',
    '|---|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.row} | ${f(r.p50)} | ${f(r.p99)} | ${r.perSec ?? ''} | ${r.n} |`),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchBus().then(
    (rows) => console.log(formatBusRows(rows)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
