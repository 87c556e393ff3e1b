// KB rows at scale: a server over a generated database of N synthetic entries (default 1,000,000,
// cached under .bench/), measured for POST /e hit and miss, GET /h/{hex}, GET /brief; plus RSS,
// database size and cold start time; and the least the same requests cost (bench/kb-bare.mjs).
import { kbServerEnv, serverArgs, waitHealthy } from './server-args.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { errsig } from '../src/core/kb/errsig/errsig.js';
import { generateStamped, isFresh, syntheticError } from './gen-kb.js';
import type { BenchRun, Opts, Row } from './load.js';

export interface KbFacts {
  entries: number;
  rssMb: number;
  dbMb: number;
  coldStartMs: number;
  generatedS: number | null;
}
/** A KB row against the floor measured right beside it: one floor leg before the row, one after. */
export interface Beside {
  route: string;
  cpuMs: number;
  floorMs: number;
}
/** A short run of the framework+database floor (bench/floor.mjs). */
export type FloorLeg = () => Promise<Row>;

/**
 * Runs `route` between two floor legs. The shared machine's speed drifts by tens of percent
 * within minutes (a floor of 49 µs in one run, 29 µs in the next, 2026-11-28), so a ratio against
 * a floor measured once at the start can say more about the drift than about the row.
 */
async function bracketed(run: BenchRun, floor: FloorLeg | undefined, beside: Beside[], route: string, u: string, opts: Opts): Promise<Row> {
  const f1 = floor ? await floor() : null;
  const r = await run(route, u, opts);
  const f2 = floor ? await floor() : null;
  if (f1 && f2) beside.push({ route, cpuMs: r.cpuMs, floorMs: (f1.cpuTotalMs + f2.cpuTotalMs) / (f1.requests + f2.requests) });
  return r;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** The KB rows' requests (autocannon setupRequest functions) over a database of `n` synthetic entries; bench/prof-kb.ts drives the same ones. */
const WORDS_EXTRA = ['module', 'buffer', 'socket', 'parser', 'thread'];

export function kbRequests(n: number) {
  // Quotas are per network: spread the load over many /24s, as real traffic is.
  let k = 0;
  const xff = () => `10.${(k >> 8) & 255}.${k++ & 255}.1`;
  const pick = () => Math.floor(Math.random() * n);
  const hot = Array.from({ length: 2000 }, () => pick());
  const hashes = hot.map((i) => errsig(syntheticError(i)).h);
  const words = ['parser failed', 'socket buffer', 'thread module', 'config cache index', 'token stream', 'SyntheticError42', 'codec schema driver'];
  type Setup = (req: Record<string, unknown>) => Record<string, unknown>;
  const post =
    (body: () => string): Setup =>
    (req) => ({ ...req, method: 'POST', path: '/e', headers: { 'content-type': 'text/plain', 'x-forwarded-for': xff() }, body: body() });
  const get =
    (path: () => string): Setup =>
    (req) => ({ ...req, path: path(), headers: { 'x-forwarded-for': xff() } });
  return {
    hit: post(() => syntheticError(pick())),
    /** The errors of the 2,000 hot hashes (the /h row's): a hit the memo of hot answers serves. */
    hithot: post(() => syntheticError(hot[k % hot.length]!)),
    // The same Python errors naming a module no entry names: only their coarse signature matches.
    coarse: post(() => syntheticError(pick() & ~3, `zz${k % 1000}`)),
    miss: post(() => `NeverSeenError${Math.random()}: nothing like it`),
    /** The exception lines of two Python entries (i and i+4) in one output: two close candidates, a `related` answer (no fix). */
    related: post(() => {
      const i = Math.min(pick() & ~3, n - 8);
      const last = (j: number) => syntheticError(j).split('\n').at(-1);
      return `${last(i)}\n${last(i + 4)}`;
    }),
    h: get(() => `/h/${hashes[k % hashes.length]}`),
    /** Any of the n entries' hashes: the memo of hot answers seldom helps (the cold read). */
    hcold: get(() => `/h/${errsig(syntheticError(pick())).h}`),
    brief: get(() => `/brief?q=${encodeURIComponent(words[k % words.length]! + ' ' + (k % 997))}&env=lib${k % 5000}@1.2.0`),
    /** Distinct questions that find entries (a Rust error code of 4 digits, kept by search, and a word): no memo helps. */
    briefnew: get(
      () =>
        `/brief?q=${encodeURIComponent(`error E${String((k * 7919) % 9000).padStart(4, '0')} ${WORDS_EXTRA[k % WORDS_EXTRA.length]}`)}&env=lib${k % 5000}@1.2.0`,
    ),
    /** One hash over and over (its pages cached): the lookup without page reads. */
    hsame: get(() => `/h/${hashes[0]}`),
    health: get(() => '/healthz'),
  };
}

/** The KB rows: name, URL (autocannon needs one; setupRequest sets each request's path) and options. */
function kbRoutes(url: string, n: number, q: ReturnType<typeof kbRequests>): Array<[string, string, Opts]> {
  return [
    [`POST /e hit (${n} entries)`, `${url}/e`, { method: 'POST', requests: [{ setupRequest: q.hit }] as never }],
    [`POST /e coarse hit`, `${url}/e`, { method: 'POST', requests: [{ setupRequest: q.coarse }] as never }],
    ['POST /e miss', `${url}/e`, { method: 'POST', requests: [{ setupRequest: q.miss }] as never }],
    ['POST /e related (no fix)', `${url}/e`, { method: 'POST', requests: [{ setupRequest: q.related }] as never }],
    ['GET /h/{hex} (2,000 hashes)', `${url}/h/${'0'.repeat(64)}`, { requests: [{ setupRequest: q.h }] as never }],
    [`GET /h/{hex}, any of ${n}`, `${url}/h/${'0'.repeat(64)}`, { requests: [{ setupRequest: q.hcold }] as never }],
    ['GET /brief (anonymous, b=400)', `${url}/brief`, { requests: [{ setupRequest: q.brief }] as never }],
    ['GET /brief, distinct questions', `${url}/brief`, { requests: [{ setupRequest: q.briefnew }] as never }],
  ];
}
const BARE_ROWS = [0, 4, 5];

export async function benchKb(
  runnerFor: (pid: number) => BenchRun,
  port: number,
  cport: number,
  kids: ChildProcess[],
  floor?: FloorLeg,
): Promise<{ rows: Row[]; light: Row[]; facts: KbFacts; beside: Beside[] }> {
  const n = Number(process.env.BENCH_KB_ENTRIES || 1_000_000);
  const dir = join('.bench', `kb-${n}`);
  let generatedS: number | null = null;
  if (!isFresh(dir)) {
    const t = performance.now();
    await generateStamped(dir, n);
    generatedS = Math.round((performance.now() - t) / 1000);
  }
  const t0 = performance.now();
  const child = spawn(process.execPath, serverArgs(), {
    env: kbServerEnv(dir, port, cport),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  kids.push(child);
  // CPU per request is read from this server's own process.
  const run = runnerFor(child.pid!);
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url);
  const coldStartMs = Math.round(performance.now() - t0);

  const q = kbRequests(n);
  const routes = kbRoutes(url, n, q);
  // Two seconds of hits first, not recorded: the first row would otherwise also measure the
  // JIT warming up and the first reads of a database the server has just opened.
  await run('warm-up', routes[0]![1], { ...routes[0]![2], duration: 2 });
  const rows: Row[] = [];
  const beside: Beside[] = [];
  for (const [route, u, opts] of routes) rows.push(await bracketed(run, floor, beside, route, u, opts));
  // The same requests one at a time: the service time itself, without the queueing that 50
  // connections on two shared cores add to every percentile above.
  const light: Row[] = [];
  for (const [route, u, opts] of routes) light.push(await run(`${route}, 1 connection`, u, { ...opts, connections: 1, duration: 4 }));
  const facts: KbFacts = { entries: n, rssMb: rssMb(child.pid!), dbMb: Math.round(statSync(join(dir, 'commons.db')).size / 1048576), coldStartMs, generatedS };
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rows.push(...(await bareRows(runnerFor, dir, port, n, q, kids, floor, beside)));
  return { rows, light, facts, beside };
}

/**
 * The same requests against bench/kb-bare.mjs on the same database: node:http, ErrSig and the
 * store's one indexed read, nothing else (no quota, validation, counting, memo or rendering). What
 * this design's least costs per request, beside the service's rows and the floors of the same run.
 */
async function bareRows(
  runnerFor: (pid: number) => BenchRun,
  dir: string,
  port: number,
  n: number,
  q: ReturnType<typeof kbRequests>,
  kids: ChildProcess[],
  floor: FloorLeg | undefined,
  beside: Beside[],
): Promise<Row[]> {
  const bare = spawn(process.execPath, ['bench/kb-bare.mjs'], {
    env: { ...process.env, PORT: String(port), CX_DATA: dir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  kids.push(bare);
  const run = runnerFor(bare.pid!);
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url);
  // The rows whose work the bare server does: a hit, and /h hot and cold.
  const routes = kbRoutes(url, n, q)
    .filter((_, i) => BARE_ROWS.includes(i))
    .map(([route, u, opts]): [string, string, Opts] => [`bare: ${route}`, u, opts]);
  await run('warm-up', routes[0]![1], { ...routes[0]![2], duration: 2 });
  const rows: Row[] = [];
  for (const [route, u, opts] of routes) rows.push(await bracketed(run, floor, beside, route, u, opts));
  bare.kill('SIGTERM');
  return rows;
}
