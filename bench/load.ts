// One benchmark row: load from wrk (where every request is the same) or autocannon (per-request
// bodies, paths or headers), and the serving process's CPU time per request, read from
// /proc/<pid>/stat (utime + stime of all its threads) before and after the row. On a 2-core
// machine the load generator takes a core, so CPU per request is the figure that compares rows
// fairly; req/s and latency are kept for information.
import autocannon from 'autocannon';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Row {
  route: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  requests: number;
  /** Server CPU over the row, ms (sum of legs for head-to-head rows). */
  cpuTotalMs: number;
  /** Server CPU per request, ms. */
  cpuMs: number;
  gen: 'wrk' | 'autocannon';
}

export type Opts = Partial<autocannon.Options>;
export type BenchRun = (route: string, url: string, opts?: Opts) => Promise<Row>;

export const CONNECTIONS = 50;
export const DURATION = Number(process.env.BENCH_SECONDS || 8);

let tickMs = 10;
try {
  tickMs = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
} catch {
  /* 100 Hz, the Linux default */
}
export const TICK_MS = tickMs;

/** utime + stime of a process (all threads), ms. */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after "(comm)" start at field 3; utime and stime are fields 14 and 15.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_MS;
}

/** wrk's version line, or null when it is not installed. */
export const WRK: string | null = (() => {
  const r = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  if (r.error) return null;
  return (
    (r.stdout || r.stderr)
      .split('\n')[0]!
      .replace(/\s+Copyright.*/, '')
      .trim() || 'wrk'
  );
})();

/** A Lua string literal of any text (decimal escapes for everything not plainly printable; three
 *  digits always, or `\34` before a digit would read as one longer escape). */
const lua = (s: string) =>
  '"' +
  [...Buffer.from(s)].map((b) => (b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : `\\${String(b).padStart(3, '0')}`)).join('') +
  '"';

/** wrk can run a row whose requests are all the same: no per-request setup. */
const wrkCan = (o: Opts) =>
  WRK !== null && !o.requests && !o.setupClient && (o.body === undefined || typeof o.body === 'string') && process.env.BENCH_GEN !== 'autocannon';

type Load = Omit<Row, 'route' | 'cpuTotalMs' | 'cpuMs'>;

async function wrk(url: string, o: Opts): Promise<Load> {
  const dir = mkdtempSync(join(tmpdir(), 'cx-wrk-'));
  const script = join(dir, 'row.lua');
  const lines = [`wrk.method = ${lua(o.method ?? 'GET')}`];
  if (o.body !== undefined) lines.push(`wrk.body = ${lua(o.body as string)}`);
  for (const [k, v] of Object.entries(o.headers ?? {})) lines.push(`wrk.headers[${lua(k)}] = ${lua(String(v))}`);
  lines.push(
    'done = function(s, lat, req)',
    '  io.write(string.format("\\nROW %d %d %d %d %d\\n", s.requests, s.duration, lat:percentile(50), lat:percentile(99), s.errors.status))',
    'end',
  );
  writeFileSync(script, lines.join('\n') + '\n');
  const seconds = Math.max(1, Math.round(Number(o.duration ?? DURATION)));
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      'wrk',
      ['-t1', `-c${o.connections ?? CONNECTIONS}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, url],
      { maxBuffer: 1 << 20 },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    ),
  ).finally(() => rmSync(dir, { recursive: true, force: true }));
  const m = /^ROW (\d+) (\d+) (\d+) (\d+) (\d+)$/m.exec(out);
  if (!m) throw new Error(`wrk: no result in\n${out}`);
  const [requests, us, p50, p99, non2xx] = m.slice(1).map(Number) as [number, number, number, number, number];
  return { rps: requests / (us / 1e6), p50: p50 / 1000, p99: p99 / 1000, non2xx, requests, gen: 'wrk' };
}

async function cannon(url: string, o: Opts): Promise<Load> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, ...o });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, requests: r.requests.total, gen: 'autocannon' };
}

/** Rows measured against the process `pid` (the server answering `url`). */
export function runner(pid: number): BenchRun {
  return async (route, url, opts = {}) => {
    const c0 = cpuMsOf(pid);
    const r = wrkCan(opts) ? await wrk(url, opts) : await cannon(url, opts);
    const cpuTotalMs = cpuMsOf(pid) - c0;
    return { route, ...r, cpuTotalMs, cpuMs: cpuTotalMs / Math.max(1, r.requests) };
  };
}

/** Two runs of one route as one row: mean req/s, the worse percentiles, CPU summed over both. */
export function mergeRows(route: string, x: Row, y: Row): Row {
  const requests = x.requests + y.requests;
  const cpuTotalMs = x.cpuTotalMs + y.cpuTotalMs;
  return {
    route,
    rps: (x.rps + y.rps) / 2,
    p50: Math.max(x.p50, y.p50),
    p99: Math.max(x.p99, y.p99),
    non2xx: x.non2xx + y.non2xx,
    requests,
    cpuTotalMs,
    cpuMs: cpuTotalMs / Math.max(1, requests),
    gen: x.gen,
  };
}
