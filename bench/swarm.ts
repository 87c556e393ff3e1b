// Swarm rows of the benchmark, in process on a temporary SQLite store beside the bus rows
// (bench/bus.ts): publish throughput through publishLine (lines/s, and this process's CPU per
// publish from /proc, the method of bench/load.ts, counted until every line is delivered) and
// publish→delivery latency (publishLine called → the kv: sink written) with 1, 100 and 1,000
// subscriptions on one topic, through the real delivery path (job queue, worker, cursors).
// Run alone: `npx tsx bench/swarm.ts`; BENCH_SECONDS bounds each throughput row.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { buildCore } from '../src/compose/core.js';
import type { Core } from '../src/core/kernel/types.js';
import { startSwarm } from '../src/core/swarm/deliver.js';
import { headOf, publishLine } from '../src/core/swarm/lines.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { BusRow } from './bus.js';
import { cpuMsOf } from './load.js';

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const TOPIC = 'r:BenchRoom_0123456789.t';

/** A core with delivery running, `subs` kv: subscriptions on TOPIC, and a hook on each kv: write. */
async function withSwarm<T>(subs: number, fn: (core: Core, delivered: (cb: (seq: number) => void) => void) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'cx-bench-swarm-'));
  const config = loadConfig({ CX_DATA: dir, PORT: '0', CATALOG_PORT: '0', HOST: '127.0.0.1', CX_BASE_URL: 'http://bench.test' });
  const store = openSqliteStore(dir, config.sync, config.workspaceKey);
  const core = buildCore(config, store, pino({ enabled: false }));
  const owner = 'a' + randomBytes(3).toString('hex').slice(0, 6);
  await store.identities.create({ id: owner, name: null, created: Date.now(), rep: 0, confirmed: 0, frozen: false }, randomBytes(16).toString('hex'));
  for (let i = 0; i < subs; i++) {
    const now = Date.now();
    await store.swarm.create(
      {
        id: `u${i.toString(36).padStart(9, '0')}`,
        owner,
        topic: TOPIC,
        sink: `kv:b/k${i}`,
        target: null,
        filter: null,
        mode: 'each',
        hopMax: 4,
        creditsDay: 0,
        expires: now + 3_600_000,
        created: now,
        cursor: 0,
      },
      subs,
    );
  }
  let onKv: (seq: number) => void = () => undefined;
  const kvDeliver = store.swarm.kvDeliver.bind(store.swarm);
  store.swarm.kvDeliver = async (id, from, to, c, e) => {
    const ok = await kvDeliver(id, from, to, c, e);
    if (ok) onKv(e.seq);
    return ok;
  };
  const swarm = startSwarm(core);
  try {
    return await fn(core, (cb) => (onKv = cb));
  } finally {
    await swarm.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Publishes one line at a time; each waits until every subscription has it. */
async function latency(subs: number, lines: number): Promise<BusRow> {
  return withSwarm(subs, async (core, delivered) => {
    const lat: number[] = [];
    const got = new Map<number, number>();
    let want = 0;
    let t0 = 0;
    let done: () => void = () => undefined;
    delivered((seq) => {
      const n = (got.get(seq) ?? 0) + 1;
      got.set(seq, n);
      if (seq === want && n === subs) {
        lat.push(performance.now() - t0);
        done();
      }
    });
    for (let i = 0; i < lines; i++) {
      const all = new Promise<void>((r) => (done = r));
      want = (await headOf(core, TOPIC)) + 1;
      t0 = performance.now();
      await publishLine(core, TOPIC, `line ${i}`, { by: 'sys' });
      await all;
    }
    lat.sort((a, b) => a - b);
    return { row: `swarm publish→delivery (kv:), ${subs} subscription${subs > 1 ? 's' : ''}`, p50: pct(lat, 50), p99: pct(lat, 99), n: lat.length };
  });
}

/** Publishes for `seconds`, then waits for the deliveries: lines/s of the publishing, CPU per line until delivered. */
async function throughput(subs: number, seconds: number): Promise<BusRow & { cpuMs: number }> {
  return withSwarm(subs, async (core, delivered) => {
    let got = 0;
    delivered(() => void got++);
    const c0 = cpuMsOf(process.pid);
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < seconds * 1000) {
      await publishLine(core, TOPIC, `line ${n}`, { by: 'sys' });
      n++;
    }
    const secs = (performance.now() - t0) / 1000;
    // Every subscription ends at the last line (kv: writes are once per line per subscription).
    while (got < n * subs) await new Promise((r) => setTimeout(r, 5));
    const cpuMs = (cpuMsOf(process.pid) - c0) / Math.max(1, n);
    return {
      row: `swarm publish throughput, ${subs} subscription${subs === 1 ? '' : 's'} (cpu ${cpuMs.toFixed(3)} ms/line until delivered)`,
      perSec: Math.round(n / secs),
      n,
      cpuMs,
    };
  });
}

export async function benchSwarm(opts: { seconds?: number; lines?: number } = {}): Promise<BusRow[]> {
  const seconds = opts.seconds ?? Number(process.env.BENCH_SECONDS || 8);
  const lines = opts.lines ?? 200;
  return [
    await throughput(0, seconds),
    await throughput(1, seconds),
    await latency(1, lines),
    await latency(100, Math.max(20, Math.floor(lines / 4))),
    await latency(1000, Math.max(10, Math.floor(lines / 20))),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { formatBusRows } = await import('./bus.js');
  benchSwarm().then(
    (rows) => console.log(formatBusRows(rows)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
