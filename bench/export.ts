// Export benchmark (npm run bench:export; apart from npm run bench, which it would lengthen by
// minutes): one full export (src/core/exports, the code of the daily job and `npm run export`) of a
// KB of BENCH_EXPORT_ENTRIES entries (default 1,000,000; the data directory of bench/gen-kb.ts,
// reused when fresh). The export runs in a child process of its own, so its peak RSS (the kernel's
// high-water mark, getrusage maxrss) is the export's and nothing else's; the RSS of that process
// just before the export (store open, modules loaded) is shown beside it.
// Prints: entries, wall time, CPU time, rows per second, RSS before, peak RSS, output bytes (kb shard
// and all files). The export folder is removed afterwards, so the cached KB stays as generated.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { buildCore } from '../src/compose/core.js';
import { runExport } from '../src/core/exports/run.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { generateStamped, isFresh } from './gen-kb.js';

interface Result {
  ms: number;
  cpuMs: number;
  rssBeforeMb: number;
  peakRssMb: number;
  kbRows: number;
  kbBytes: number;
  totalBytes: number;
  files: number;
}

async function child(dir: string): Promise<void> {
  const config = loadConfig({ CX_DATA: dir, CX_SEED: '0' });
  const store = openSqliteStore(dir, config.sync, config.workspaceKey);
  const core = buildCore(config, store, pino({ enabled: false }));
  const rssBeforeMb = Math.round(process.memoryUsage().rss / 1048576);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const index = await runExport(core);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const kb = index.files.find((f) => f.name.startsWith('kb-'))!;
  const r: Result = {
    ms: Math.round(ms),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    rssBeforeMb,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    kbRows: kb.rows ?? 0,
    kbBytes: kb.size,
    totalBytes: index.files.reduce((n, f) => n + f.size, 0),
    files: index.files.length,
  };
  await store.close();
  process.stdout.write(JSON.stringify(r) + '\n');
}

async function main(): Promise<void> {
  const n = Number(process.env.BENCH_EXPORT_ENTRIES || 1_000_000);
  const dir = join('.bench', `kb-${n}`);
  if (!isFresh(dir)) {
    const t = performance.now();
    await generateStamped(dir, n);
    console.error(`generated ${n} entries in ${Math.round((performance.now() - t) / 1000)} s`);
  }
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/export.ts', '--child', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 20,
    });
    const r = JSON.parse(out.trim().split('\n').pop()!) as Result;
    const mb = (b: number) => (b / 1048576).toFixed(1);
    console.log('| export | entries | time s | cpu s | rows/s | RSS before MB | peak RSS MB | kb shard MB | all files MB | files |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    console.log(
      `| full (kb, tasks, claims, digests, delta, tombstones, card, croissant, manifest, sums, signatures) | ${r.kbRows} | ${(r.ms / 1000).toFixed(1)} | ${(r.cpuMs / 1000).toFixed(1)} | ${Math.round(r.kbRows / (r.ms / 1000))} | ${r.rssBeforeMb} | ${r.peakRssMb} | ${mb(r.kbBytes)} | ${mb(r.totalBytes)} | ${r.files} |`,
    );
    console.log('(the first export of a store has no previous one, so its delta holds every row again: the time covers two passes over the KB)');
  } finally {
    rmSync(join(dir, 'export'), { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3]!);
else await main();
