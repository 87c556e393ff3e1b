// Load shedding under overload (npm run bench:shed [-- --seconds 60 --calibrate 8]): the service as
// `npm start` runs it, fed a mix of traffic (bulk reads, briefs, anonymous and token work, liveness)
// at twice its measured capacity, once with measured shedding on and once with it off (CX_SHED=0).
// Capacity: requests per second the mix gets with 64 requests in flight, shedding off. Overload: an
// open-loop generator starts requests at 2x that rate whatever the answers (at most 2,000 in flight;
// a request that finds them all busy, or waits over 10 s, is unanswered). Reported per mode: share
// answered (any status but 503 and no timeout), 503s and how many carried Retry-After, p99 latency of
// the requests served, the server's RSS at the start and the end of the overload.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { solve } from '../src/core/platform/identity/pow.js';
import { serverArgs } from './server-args.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('seconds', 60);
const CALIBRATE = arg('calibrate', 8);
const MAX_IN_FLIGHT = 2000;
const TIMEOUT_MS = 10_000;

const freePort = () =>
  new Promise<number>((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });

async function waitUp(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

interface Req {
  name: string;
  method: 'GET' | 'POST';
  path: () => string;
  headers?: Record<string, string>;
}

/** The mix: [weight, request]. Networks spread over many /24s (trusted X-Forwarded-For), as real traffic. */
function mix(token: string): Array<[number, Req]> {
  let n = 0;
  const net = () => `10.${(n >> 8) & 255}.${n++ & 255}.7`;
  const qs = ['module not found', 'connection refused', 'permission denied', 'out of memory', 'undefined symbol'];
  const q = () => encodeURIComponent(qs[n % qs.length]!);
  return [
    [5, { name: 'healthz', method: 'GET', path: () => '/healthz' }],
    [5, { name: 'limits', method: 'GET', path: () => '/limits' }],
    [15, { name: 'search', method: 'GET', path: () => `/search?q=${q()}` }],
    [10, { name: 'feed', method: 'GET', path: () => '/f/kb.json' }],
    [5, { name: 'inj', method: 'GET', path: () => '/inj' }],
    [20, { name: 'brief', method: 'GET', path: () => `/brief?q=${q()}&b=600`, headers: { authorization: `Bearer ${token}` } }],
    [10, { name: 'challenge', method: 'POST', path: () => '/v1/challenge?for=w' }],
    [30, { name: 'me', method: 'GET', path: () => '/v1/me', headers: { authorization: `Bearer ${token}` } }],
  ].map(([w, r]) => [w as number, { ...(r as Req), headers: { ...((r as Req).headers ?? {}) }, net } as Req & { net: () => string }]);
}

function picker(m: Array<[number, Req]>): () => Req {
  const total = m.reduce((a, [w]) => a + w, 0);
  let i = 0;
  // Deterministic interleaving by weight (no Math.random: runs compare).
  const seq: Req[] = [];
  for (const [w, r] of m) for (let k = 0; k < w; k++) seq.push(r);
  for (let k = seq.length - 1; k > 0; k--) {
    const j = (k * 7919) % (k + 1);
    [seq[k], seq[j]] = [seq[j]!, seq[k]!];
  }
  return () => seq[i++ % total]!;
}

/** Why requests went unanswered (undici error codes), per mode. */
const errors = new Map<string, number>();

interface Outcome {
  status: number;
  retryAfter: boolean;
  ms: number;
}

async function one(base: string, agent: Agent, r: Req & { net?: () => string }): Promise<Outcome> {
  const t = performance.now();
  try {
    const res = await request(base + r.path(), {
      method: r.method,
      dispatcher: agent,
      headers: { ...r.headers, 'x-forwarded-for': r.net ? r.net() : '10.0.0.1' },
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    await res.body.dump();
    return { status: res.statusCode, retryAfter: res.headers['retry-after'] !== undefined, ms: performance.now() - t };
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'error';
    errors.set(code, (errors.get(code) ?? 0) + 1);
    return { status: 0, retryAfter: false, ms: performance.now() - t };
  }
}

/** Closed loop: `conc` requests always in flight for `seconds`; the rate they achieve. */
async function capacity(base: string, m: Array<[number, Req]>, seconds: number, conc = 64): Promise<number> {
  const agent = new Agent({ connections: conc, pipelining: 1 });
  const next = picker(m);
  const end = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (performance.now() < end) {
        const o = await one(base, agent, next());
        if (o.status && o.status !== 503) done++;
      }
    }),
  );
  await agent.close();
  return done / seconds;
}

/** Open loop: starts requests at `rate` per second for `seconds`, whatever the answers. */
async function overload(base: string, m: Array<[number, Req]>, rate: number, seconds: number): Promise<Outcome[]> {
  const agent = new Agent({ connections: 512, pipelining: 1 });
  const next = picker(m);
  const out: Outcome[] = [];
  const pending: Promise<void>[] = [];
  let inFlight = 0;
  const t0 = performance.now();
  let started = 0;
  while (performance.now() - t0 < seconds * 1000) {
    const due = Math.floor(((performance.now() - t0) / 1000) * rate);
    for (; started < due; started++) {
      if (inFlight >= MAX_IN_FLIGHT) {
        out.push({ status: 0, retryAfter: false, ms: 0 });
        continue;
      }
      inFlight++;
      pending.push(
        one(base, agent, next()).then((o) => {
          inFlight--;
          out.push(o);
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(pending);
  await agent.close();
  return out;
}

const p99 = (xs: number[]) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))]!;
};

async function startServer(shed: boolean): Promise<{ base: string; pid: number; stop(): void; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cx-bench-shed-'));
  const [port, cport] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    PORT: String(port),
    CATALOG_PORT: String(cport),
    HOST: '127.0.0.1',
    CX_DATA: dir,
    CX_LOG_LEVEL: 'error',
    CX_TRUST_PROXY: '1',
    CX_QUOTA_MULT: '1000',
    CX_POW_BITS: '12',
    CX_GIT_MIRROR: '0',
    CX_SHED: shed ? '1' : '0',
  };
  const k: ChildProcess = spawn(process.execPath, serverArgs(), { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  await waitUp(`${base}/healthz`);
  return {
    base,
    pid: k.pid!,
    dir,
    stop() {
      k.kill('SIGTERM');
      setTimeout(() => rmSync(dir, { recursive: true, force: true }), 2000).unref();
    },
  };
}

async function token(base: string): Promise<string> {
  const c = (await (await fetch(`${base}/v1/challenge?for=reg`, { method: 'POST', headers: { accept: 'application/json' } })).json()) as {
    challenge: string;
    bits: number;
  };
  const r = await fetch(`${base}/v1/register`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ pow: solve(c.challenge, c.bits) }),
  });
  return ((await r.json()) as { token: string }).token;
}

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build')) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  // Capacity with shedding off (what the machine serves of this mix).
  let cap: number;
  {
    const s = await startServer(false);
    try {
      await new Promise((r) => setTimeout(r, 2500)); // past the meter's settling time
      cap = await capacity(s.base, mix(await token(s.base)), CALIBRATE);
    } finally {
      s.stop();
    }
  }
  const rate = Math.max(50, Math.round(cap * 2));
  console.log(`\ncapacity of the mix: ${cap.toFixed(0)} req/s (64 in flight, shedding off); overload: ${rate} req/s offered for ${SECONDS} s\n`);
  const rows: string[] = [];
  const notes: string[] = [];
  for (const shed of [true, false]) {
    const s = await startServer(shed);
    try {
      const m = mix(await token(s.base));
      await new Promise((r) => setTimeout(r, 2500));
      errors.clear();
      const rss0 = rssMb(s.pid);
      const out = await overload(s.base, m, rate, SECONDS);
      const rss1 = rssMb(s.pid);
      const h = (await (await fetch(`${s.base}/healthz?v=2`)).text()).split('\n')[1];
      notes.push(`${shed ? 'on' : 'off'}: after the run ${h}; unanswered by cause: ${[...errors].map(([k, v]) => `${k}=${v}`).join(' ') || '-'}`);
      const served = out.filter((o) => o.status !== 0 && o.status !== 503);
      const busy = out.filter((o) => o.status === 503);
      const none = out.filter((o) => o.status === 0);
      rows.push(
        `| ${shed ? 'on' : 'off (CX_SHED=0)'} | ${out.length} | ${((100 * served.length) / Math.max(1, out.length)).toFixed(1)}% | ${busy.length} (${busy.filter((o) => o.retryAfter).length} with Retry-After) | ${none.length} | ${p99(served.map((o) => o.ms)).toFixed(0)} | ${rss0.toFixed(0)} → ${rss1.toFixed(0)} |`,
      );
    } finally {
      s.stop();
    }
  }
  console.log('| shedding | requests | answered | 503 busy | unanswered (timeout or 2,000 in flight) | p99 served ms | RSS MB start → end |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  console.log('');
  for (const n of notes) console.log(n);
  process.exit(0);
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
