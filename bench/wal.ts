// WAL size under write load: many small writes through the store (dead-drop rows of 1 KiB, the
// way a busy server writes them), sampling the -wal file's size while they run and after.
// `tsx bench/wal.ts [writes]`, or the `wal` group of bench/run.ts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openSqliteStore } from '../src/store/sqlite/index.js';

export interface WalFacts {
  writes: number;
  seconds: number;
  maxMb: number;
  endMb: number;
  settledMb: number;
  maxStallMs: number;
}

const size = (f: string) => {
  try {
    return statSync(f).size;
  } catch {
    return 0;
  }
};

export async function benchWal(writes = 50_000): Promise<WalFacts> {
  const dir = mkdtempSync(join(tmpdir(), 'cx-bench-wal-'));
  const store = openSqliteStore(dir);
  const wal = `${store.file}-wal`;
  let max = 0;
  const sample = setInterval(() => (max = Math.max(max, size(wal))), 5);
  // The longest the event loop waited (writes run in batches of 50 between turns, ~5 ms).
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  try {
    const t0 = performance.now();
    const ct = randomBytes(1024);
    for (let i = 0; i < writes; i++) {
      await store.drops.create(
        {
          key: randomBytes(32),
          owner: null,
          wkey: null,
          nonce: randomBytes(12),
          ct,
          size: 1008,
          exp: Date.now() + 3_600_000,
          reads: 3,
          once: false,
          masked: 0,
          ver: 0,
          created: Date.now(),
        },
        Date.now(),
      );
      // A server yields between requests: timers (and this sampler) run.
      if (i % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    const seconds = (performance.now() - t0) / 1000;
    max = Math.max(max, size(wal));
    const end = size(wal);
    // Serving goes on, idle: what the WAL comes back to within a few seconds.
    await new Promise((r) => setTimeout(r, 3000));
    const settled = size(wal);
    const mb = (n: number) => Math.round((n / 1048576) * 10) / 10;
    loop.disable();
    return { writes, seconds: Math.round(seconds * 10) / 10, maxMb: mb(max), endMb: mb(end), settledMb: mb(settled), maxStallMs: Math.round(loop.max / 1e6) };
  } finally {
    clearInterval(sample);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const f = await benchWal(Number(process.argv[2] || 50_000));
  console.log(
    `wal: ${f.writes} writes of 1 KiB in ${f.seconds} s; WAL max ${f.maxMb} MB, at the end ${f.endMb} MB, 3 s later ${f.settledMb} MB; longest event-loop stall ${f.maxStallMs} ms`,
  );
}
