// Git mirror benchmark (npm run bench:git; BENCH_GIT_N entries, default 100,000, made by
// bench/gen-kb.ts). Rows: the first build of the mirror (every entry rendered and committed with
// fast-import) and the tarball it makes; a pass that finds nothing to commit (the scan the job
// repeats every git.commit_every); a pass after 100 new entries; then, through the real server,
// a full clone with the real git client (protocol v2, and v0) and a `git fetch` of the 100 new
// entries. Each row gives wall time and, for the passes, the CPU time of this process; the
// repository and tarball sizes close the table.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { buildCore } from '../src/compose/core.js';
import { GitMirror } from '../src/core/gitmirror/mirror.js';
import { startServer } from '../src/server.js';
import { gitMirrorRepo } from '../src/store/git/repo.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { generate, syntheticError } from './gen-kb.js';

const run = promisify(execFile);
const N = Number(process.env.BENCH_GIT_N || 100_000);
const GIT_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };

function du(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((n, f) => n + du(join(path, f)), 0);
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const c = process.cpuUsage(c0);
  return { value, ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
}

const rows: Array<[string, string]> = [];
const row = (what: string, r: { ms: number; cpuMs?: number }, extra = '') =>
  rows.push([
    what,
    `${(r.ms / 1000).toFixed(2)} s${r.cpuMs !== undefined ? `  cpu ${(r.cpuMs / 1000).toFixed(2)} s (this process)` : ''}${extra ? `  ${extra}` : ''}`,
  ]);

async function addEntries(dir: string, from: number, n: number): Promise<void> {
  const store = openSqliteStore(dir);
  const { errsig } = await import('../src/core/kb/errsig/errsig.js');
  const now = Date.now();
  await store.kb.insertMany(
    Array.from({ length: n }, (_, k) => {
      const i = from + k;
      const error = syntheticError(i);
      const { sig, h, ch } = errsig(error);
      return {
        id: `k${i.toString(36).padStart(8, '0')}`,
        sig,
        h,
        ch,
        title: sig.slice(0, 120),
        error,
        fix: `fix ${i}`,
        eco: 'npm',
        cls: '',
        tags: [],
        libs: [],
        author: 'abench0',
        created: now,
      };
    }),
  );
  await store.close();
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cx-bench-git-'));
  const work = mkdtempSync(join(tmpdir(), 'cx-bench-git-clone-'));
  try {
    process.stderr.write(`generating ${N} KB entries\n`);
    await generate(dir, N);
    // The mirror alone first (no server), so its passes are timed by themselves.
    {
      const store = openSqliteStore(dir);
      const core = buildCore(loadConfig({ CX_DATA: dir, CX_SEED: '0' }), store, pino({ enabled: false }));
      const mirror = new GitMirror(core, gitMirrorRepo(join(dir, 'git')));
      if (!(await mirror.init())) throw new Error('git did not run');
      const build = await timed(() => mirror.sync());
      row(`first build (${build.value.files} entries, tarball included)`, build);
      const idle = await timed(() => mirror.sync());
      if (idle.value.commit) throw new Error('a pass with no change committed');
      row('pass with nothing to commit (full scan)', idle);
      await store.close();
    }
    await addEntries(dir, N, 100);
    {
      const store = openSqliteStore(dir);
      const core = buildCore(loadConfig({ CX_DATA: dir, CX_SEED: '0' }), store, pino({ enabled: false }));
      const mirror = new GitMirror(core, gitMirrorRepo(join(dir, 'git')));
      await mirror.init();
      const inc = await timed(() => mirror.sync());
      row(`pass after 100 new entries (${inc.value.written} written)`, inc);
      await store.close();
    }
    // Clones through the real server: CX_QUOTA_MULT lifts the day quotas for the benchmark.
    const s = await startServer(
      loadConfig({ CX_DATA: dir, PORT: '0', CATALOG_PORT: '0', HOST: '127.0.0.1', CX_SEED: '0', CX_QUOTA_MULT: '1000', CX_LOG_LEVEL: 'warn' }),
      { logger: false },
    );
    try {
      await s.core.mirror!.sync(); // after the start-up pass: nothing left to commit
      const url = `${s.url}/git/kb.git`;
      const git = (args: string[], cwd = work) => run('git', args, { cwd, env: GIT_ENV, maxBuffer: 64 << 20 });
      const v2 = await timed(() => git(['-c', 'protocol.version=2', 'clone', '--quiet', '--bare', url, 'v2.git']));
      row('clone, protocol v2 (client wall time)', { ms: v2.ms }, `received ${(du(join(work, 'v2.git')) / 1048576).toFixed(1)} MiB`);
      const v0 = await timed(() => git(['-c', 'protocol.version=0', 'clone', '--quiet', '--bare', url, 'v0.git']));
      row('clone, protocol v0 (client wall time)', { ms: v0.ms });
      await addEntries(dir, N + 100, 100);
      await s.core.mirror!.sync();
      const f = await timed(() => git(['fetch', '--quiet', 'origin', '+refs/heads/*:refs/heads/*'], join(work, 'v2.git')));
      row('fetch of 100 new entries (client wall time)', { ms: f.ms });
    } finally {
      await s.close();
    }
    rows.push(['repository on disk', `${(du(join(dir, 'git', 'kb.git')) / 1048576).toFixed(1)} MiB`]);
    rows.push(['tarball', `${(du(join(dir, 'git', 'snapshots')) / 1048576).toFixed(1)} MiB`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`git mirror, ${N} KB entries (node ${process.version})`);
  for (const [what, v] of rows) console.log(`${what.padEnd(52)} ${v}`);
}

await main();
