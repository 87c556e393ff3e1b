// A worker process killed with SIGKILL mid-job loses no job: after the lease deadline another
// worker gets every unacked job, and no job is acked (completed) twice. Worker processes leasing
// the same queue at once each get distinct jobs.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it, vi } from 'vitest';
import { startWorker } from '../../src/core/platform/jobs/worker.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { ackLogged } from './fixtures/ack-log.js';

const fixture = fileURLToPath(new URL('./fixtures/worker-child.ts', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A worker process on `dir` (fixtures/worker-child.ts), its `started` and `acked` lines parsed. */
function spawnWorker(dir: string, ackFile: string, leaseMs = 1500) {
  const proc = spawn(process.execPath, ['--import', 'tsx', fixture, dir, ackFile, String(leaseMs)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.push(() => void proc.kill('SIGKILL'));
  const exited = new Promise<NodeJS.Signals | null>((res) => proc.once('exit', (_code, sig) => res(sig)));
  const started = new Map<string, number>();
  const starts: string[] = [];
  const acked: string[] = [];
  let out = '';
  proc.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    let nl: number;
    while ((nl = out.indexOf('\n')) >= 0) {
      const [what, id, until] = out.slice(0, nl).split(' ');
      out = out.slice(nl + 1);
      if (what === 'started') {
        started.set(id!, Number(until));
        starts.push(id!);
      }
      if (what === 'acked') acked.push(id!);
    }
  });
  return { proc, exited, started, starts, acked };
}

it('SIGKILL mid-job: every unacked job is redelivered after its lease deadline, none acked twice', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cx-sigkill-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const ackFile = join(dir, 'acks.log');
  const store = openSqliteStore(dir);
  cleanup.push(() => store.close());
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) ids.push(await store.jobs.enqueue('sigkill', { i, hang: i === 8 || i === 9 }));
  const hung = [ids[8]!, ids[9]!];

  const child = spawnWorker(dir, ackFile);
  const { started, acked, exited } = child;
  // The child finishes jobs 0-7, then both its slots hang on jobs 8 and 9: kill it there.
  await vi.waitFor(() => expect(acked.length >= 8 && hung.every((id) => started.has(id))).toBe(true), { timeout: 20_000, interval: 20 });
  child.proc.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  expect(acked.sort()).toEqual(ids.slice(0, 8).sort());
  expect(await store.jobs.stats('sigkill')).toMatchObject({ leased: 2, dead: 0 });

  // A new worker on the same data directory finishes everything.
  const got = new Map<string, { tries: number; at: number }>();
  const stop = startWorker(
    ackLogged(store.jobs, ackFile, 'parent'),
    'sigkill',
    async (job) => {
      got.set(job.id, { tries: job.tries, at: Date.now() });
    },
    { concurrency: 2, leaseMs: 1500, pollMs: 100 },
  );
  cleanup.push(() => stop());
  const lines = () => (existsSync(ackFile) ? readFileSync(ackFile, 'utf8').trim().split('\n') : []);
  await vi.waitFor(() => expect(lines().length).toBeGreaterThanOrEqual(20), { timeout: 20_000, interval: 50 });
  await stop();

  const acks = lines().map((l) => l.split(' ')[0]!);
  expect(acks).toHaveLength(20);
  expect([...acks].sort()).toEqual([...ids].sort());
  for (const id of hung) {
    expect(got.get(id)?.tries).toBe(2);
    // Not before the child's lease ran out (extensions only push it later).
    expect(got.get(id)!.at).toBeGreaterThanOrEqual(started.get(id)!);
  }
  expect(await store.jobs.stats('sigkill')).toEqual({ ready: 0, delayed: 0, leased: 0, dead: 0 });
});

it('three worker processes leasing one queue at once: each job started and acked exactly once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cx-lease-race-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const ackFile = join(dir, 'acks.log');
  const store = openSqliteStore(dir);
  cleanup.push(() => store.close());
  const ids: string[] = [];
  for (let i = 0; i < 300; i++) ids.push(await store.jobs.enqueue('sigkill', { i, ms: 1 }));
  const kids = [spawnWorker(dir, ackFile, 60_000), spawnWorker(dir, ackFile, 60_000), spawnWorker(dir, ackFile, 60_000)];
  await vi.waitFor(() => expect(kids.reduce((n, k) => n + k.acked.length, 0)).toBe(300), { timeout: 25_000, interval: 50 });
  for (const k of kids) k.proc.kill('SIGKILL');
  await Promise.all(kids.map((k) => k.exited));
  const starts = kids.flatMap((k) => k.starts);
  expect([...starts].sort()).toEqual([...ids].sort());
  const acks = readFileSync(ackFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(' ')[0]!);
  expect(acks.sort()).toEqual([...ids].sort());
  expect(await store.jobs.stats('sigkill')).toEqual({ ready: 0, delayed: 0, leased: 0, dead: 0 });
});
