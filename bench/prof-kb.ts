// Profiles one KB route of the built server over the bench database (.bench/kb-N): starts it with
// --cpu-prof, drives it with autocannon for a few seconds, stops it and prints the top self-time
// functions (BARE=1: bench/kb-bare.mjs instead). Usage: npx tsx bench/prof-kb.ts [hit|hithot|coarse|miss|related|h|hcold|hsame|brief|briefnew|health] [seconds]
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kbRequests } from './kb.js';
import { kbServerEnv, serverArgs, waitHealthy } from './server-args.js';

const which = process.argv[2] ?? 'hit';
const seconds = Number(process.argv[3] ?? 8);
const n = Number(process.env.BENCH_KB_ENTRIES || 1_000_000);
const profDir = mkdtempSync(join(tmpdir(), 'cx-prof-'));
const port = 18000 + Math.floor(Math.random() * 1000);
const perf = process.env.PERF === '1';
const stat = process.env.PERF === 'stat';
// BARE=1: the bare lookup of bench/kb-bare.mjs instead of the service (what the design's least costs).
const bare = process.env.BARE === '1';
const child = spawn(
  process.execPath,
  [...(perf ? ['--perf-basic-prof'] : stat ? [] : ['--cpu-prof', `--cpu-prof-dir=${profDir}`]), ...(bare ? ['bench/kb-bare.mjs'] : serverArgs())],
  {
    env: kbServerEnv(join('.bench', `kb-${n}`), port, port + 1),
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
const url = `http://127.0.0.1:${port}`;
await waitHealthy(url);
const req = kbRequests(n) as Record<string, (r: Record<string, unknown>) => Record<string, unknown>>;
const codes: Record<string, number> = {};
/** CPU time (all threads, /proc/<pid>/stat) of process `pid` per request while `f` runs, in µs. */
async function cpuPer(pid: number, f: () => Promise<number>): Promise<{ per: number; sys: number; n: number }> {
  const t = (): [number, number] => {
    const x = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return [Number(x[11]), Number(x[12])];
  };
  const t0 = t();
  const n = await f();
  const t1 = t();
  return { per: ((t1[0] + t1[1] - t0[0] - t0[1]) * 10000) / n, sys: ((t1[1] - t0[1]) * 10000) / n, n };
}
if (stat) {
  const fport = port + 7;
  const floor = spawn(process.execPath, ['bench/floor.mjs'], { env: { ...process.env, PORT: String(fport) }, stdio: 'ignore' });
  await waitHealthy(`http://127.0.0.1:${fport}`);
  const drive = async (u: string, setup: unknown) =>
    (await autocannon({ url: u, connections: 10, duration: seconds, requests: [{ setupRequest: setup as never }] })).requests.total;
  const fl = (r: Record<string, unknown>) => ({ ...r, path: `/row/${Math.floor(Math.random() * 10000)}` });
  await drive(`http://127.0.0.1:${fport}`, fl);
  await autocannon({ url, connections: 10, duration: 2, requests: [{ setupRequest: req[which] as never }] });
  // A B B A: a slow stretch of the shared machine weighs on both.
  const f1 = await cpuPer(floor.pid!, () => drive(`http://127.0.0.1:${fport}`, fl));
  const c1 = await cpuPer(child.pid!, () => drive(url, req[which]));
  const c2 = await cpuPer(child.pid!, () => drive(url, req[which]));
  const f2 = await cpuPer(floor.pid!, () => drive(`http://127.0.0.1:${fport}`, fl));
  const c = (c1.per * c1.n + c2.per * c2.n) / (c1.n + c2.n);
  const f = (f1.per * f1.n + f2.per * f2.n) / (f1.n + f2.n);
  // Where the server's CPU went by thread (main, the background writer, GC helpers...).
  const threads = (pid: number) =>
    Object.fromEntries(
      readdirSync(`/proc/${pid}/task`).map((t) => {
        const x = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8').split(') ');
        return [`${t} ${x[0]!.split('(')[1]}`, Number(x[1]!.split(' ')[11]) + Number(x[1]!.split(' ')[12])];
      }),
    );
  const th0 = threads(child.pid!);
  const n3 = await drive(url, req[which]);
  const th1 = threads(child.pid!);
  console.log(
    'by thread (µs per request):',
    Object.entries(th1)
      .map(([k, v]) => [k, (((v - (th0[k] ?? 0)) * 10000) / n3).toFixed(1)])
      .filter(([, v]) => Number(v) > 0.5)
      .map(([k, v]) => `${k}=${v}`)
      .join(' '),
  );
  const cs = (c1.sys * c1.n + c2.sys * c2.n) / (c1.n + c2.n);
  const fs = (f1.sys * f1.n + f2.sys * f2.n) / (f1.n + f2.n);
  console.log(
    `${which}: ${c.toFixed(1)} µs CPU/request (${cs.toFixed(1)} in the kernel; ${c1.n + c2.n} requests); floor ${f.toFixed(1)} µs (${fs.toFixed(1)} in the kernel); ratio ${(c / f).toFixed(2)}`,
  );
  floor.kill('SIGTERM');
  child.kill('SIGINT');
  process.exit(0);
}
const procStat = () => readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
const ticks = () => {
  const s = procStat();
  return Number(s[11]) + Number(s[12]);
};
await autocannon({ url, connections: 10, duration: 2, requests: [{ setupRequest: req[which] as never }] });
const rec = perf ? spawn('perf', ['record', '-F', '997', '-g', '-o', join(profDir, 'perf.data'), '-p', String(child.pid)], { stdio: 'ignore' }) : null;
const t0 = ticks();
const r = await autocannon({ url, connections: 10, duration: seconds, requests: [{ setupRequest: req[which] as never }] });
const t1 = ticks();
if (rec) {
  rec.kill('SIGINT');
  await new Promise((res) => rec.on('exit', res));
  console.log(`perf data: ${join(profDir, 'perf.data')}`);
}
for (const [c, v] of Object.entries(r.statusCodeStats ?? {})) codes[c] = (v as { count: number }).count;
console.log(`${which}: ${r.requests.total} requests, ${(((t1 - t0) * 10000) / r.requests.total).toFixed(1)} µs CPU/request, codes ${JSON.stringify(codes)}`);
child.kill('SIGINT');
await new Promise((res) => child.on('exit', res));
const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
if (!file) process.exit(0);
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}
const prof = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as { nodes: Node[]; samples: number[] };
const self = new Map<string, number>();
let total = 0;
for (const nd of prof.nodes) {
  const key = `${nd.callFrame.functionName || '(anon)'} ${nd.callFrame.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${nd.callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + nd.hitCount);
  total += nd.hitCount;
}
const idle = [...self].filter(([k]) => k.startsWith('(idle)')).reduce((a, [, v]) => a + v, 0);
console.log(`profile ${join(profDir, file)}: ${total} samples, idle ${((100 * idle) / total).toFixed(0)}%`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${((100 * v) / (total - idle)).toFixed(1).padStart(5)}%  ${k}`);
