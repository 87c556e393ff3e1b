// npm run soak (issue 24; not part of npm test): the real server as a child process, its capacity
// measured with a closed loop of mixed traffic, then the same mix at 80% of that rate (open loop)
// for CX_SOAK_S seconds (default 600). Every CX_SOAK_EVERY seconds (default 5): RSS and open file
// descriptors (/proc/<pid>), WAL size, and the server's event-loop delay (a preloaded probe,
// bench/soak-probe.mjs). They must level off: the last third of the run may not keep growing past the
// middle third (bounds below). Prints a table and writes bench/out/soak.svg; exits 1 when one grows.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from '../test/helpers/server.js';
import { serve } from '../test/suite/crash.js';
import { freshNet } from '../test/suite/faces.js';
import Database from 'better-sqlite3';

const env = (k: string, d: number) => Number(process.env[k] ?? d);
const SOAK_S = env('CX_SOAK_S', 600);
const EVERY_S = env('CX_SOAK_EVERY', 5);
const MEASURE_S = env('CX_SOAK_MEASURE_S', 8);
const LOAD = env('CX_SOAK_LOAD', 0.8);
const USERS = env('CX_SOAK_USERS', 16);
const root = fileURLToPath(new URL('../', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'cx-soak-'));
const probe = join(dir, 'probe.jsonl');
const server = await serve(dir, { CX_SOAK_PROBE: probe }, ['--import', join(root, 'bench/soak-probe.mjs')]);
const pid = server.proc.pid!;
const base = server.url;

// Identities at L3 (highest quotas), each from its own networks.
const users: string[] = [];
for (let i = 0; i < USERS; i++) users.push((await register(base, `soak_${i}`, { 'x-forwarded-for': freshNet() })).token);
{
  const db = new Database(join(dir, 'commons.db'));
  db.pragma('busy_timeout = 5000');
  db.prepare('UPDATE identities SET rep = 100, confirmed = 20, created = ?').run(Date.now() - 31 * 86_400_000);
  db.close();
}

// ---- the mix: reads and writes of several domains ----
let n = 0;
const statuses = new Map<number, number>();
type Shot = () => Promise<Response>;
const h = (tok?: string, json = false) => ({
  'x-forwarded-for': freshNet(),
  ...(tok ? { authorization: `Bearer ${tok}` } : {}),
  ...(json ? { 'content-type': 'application/json' } : {}),
});
const MIX: Array<[number, Shot]> = [
  [3, () => fetch(`${base}/healthz`, { headers: h() })],
  [2, () => fetch(`${base}/limits`, { headers: h() })],
  [3, () => fetch(`${base}/search?q=${encodeURIComponent(['TypeError', 'ECONNREFUSED', 'module not found', 'timeout'][n % 4]!)}`, { headers: h() })],
  [2, () => fetch(`${base}/v1/tasks`, { headers: h() })],
  [
    3,
    () =>
      fetch(`${base}/v1/notes`, {
        method: 'POST',
        headers: h(users[n % USERS], true),
        body: JSON.stringify({ title: `soak ${n}`, body: `note ${n} `.repeat(20) }),
      }),
  ],
  [2, () => fetch(`${base}/v1/notes?n=20`, { headers: h(users[n % USERS]) })],
  [
    2,
    () => fetch(`${base}/v1/cp`, { method: 'POST', headers: h(users[n % USERS], true), body: JSON.stringify({ name: `soak-${n % 50}`, body: `state ${n}` }) }),
  ],
  [
    2,
    async () => {
      const secret = `soakDrop_${n}_${Math.random().toString(36).slice(2)}`.padEnd(24, 'x');
      const r = await fetch(`${base}/d/${secret}`, { method: 'PUT', headers: { ...h(users[n % USERS]), 'content-type': 'text/plain' }, body: `secret ${n}` });
      await r.arrayBuffer();
      return fetch(`${base}/d/${secret}`, { headers: h() });
    },
  ],
  [2, () => fetch(`${base}/v1/pub/~soak${n % 8}`, { method: 'POST', headers: { ...h(users[n % USERS]), 'content-type': 'text/plain' }, body: `line ${n}` })],
  [1, () => fetch(`${base}/v1/topics/~soak${n % 8}?n=10`, { headers: h(users[n % USERS]) })],
];
const WHEEL = MIX.flatMap(([w, f]) => Array.from({ length: w }, () => f));

async function shot(): Promise<void> {
  const i = n++;
  try {
    const r = await WHEEL[i % WHEEL.length]!();
    await r.arrayBuffer();
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  } catch {
    statuses.set(0, (statuses.get(0) ?? 0) + 1);
  }
}

// ---- capacity: closed loop, 16 in flight ----
const t0 = Date.now();
let done = 0;
await Promise.all(
  Array.from({ length: 16 }, async () => {
    while (Date.now() - t0 < MEASURE_S * 1000) {
      await shot();
      done++;
    }
  }),
);
const capacity = done / ((Date.now() - t0) / 1000);
const rate = capacity * LOAD;
console.log(
  `capacity ${capacity.toFixed(0)} req/s (closed loop, 16 in flight, ${MEASURE_S} s); soak at ${(LOAD * 100).toFixed(0)}%: ${rate.toFixed(0)} req/s for ${SOAK_S} s`,
);
statuses.clear();

// ---- samples ----
interface Sample {
  s: number;
  rssMb: number;
  fds: number;
  walMb: number;
  eldP99: number;
  rps: number;
}
const samples: Sample[] = [];
const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const fds = () => readdirSync(`/proc/${pid}/fd`).length;
const walMb = () => {
  try {
    return statSync(join(dir, 'commons.db-wal')).size / 1048576;
  } catch {
    return 0;
  }
};
const eld = () => {
  try {
    const lines = readFileSync(probe, 'utf8').trim().split('\n').slice(-EVERY_S);
    return Math.max(...lines.map((l) => (JSON.parse(l) as { p99: number }).p99));
  } catch {
    return 0;
  }
};

// ---- open loop at the target rate, in-flight bounded ----
const start = Date.now();
let inflight = 0;
let sent = 0;
let lastN = 0;
let dropped = 0;
const tick = 20;
const timer = setInterval(() => {
  const due = Math.floor(((Date.now() - start) / 1000) * rate) - sent;
  for (let i = 0; i < due; i++) {
    sent++;
    if (inflight >= 512) {
      dropped++;
      continue;
    }
    inflight++;
    void shot().finally(() => inflight--);
  }
}, tick);
const sampler = setInterval(() => {
  const s = Math.round((Date.now() - start) / 1000);
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  samples.push({ s, rssMb: rssMb(), fds: fds(), walMb: walMb(), eldP99: eld(), rps: (total - lastN) / EVERY_S });
  lastN = total;
}, EVERY_S * 1000);
await new Promise((r) => setTimeout(r, SOAK_S * 1000));
clearInterval(timer);
clearInterval(sampler);
while (inflight > 0) await new Promise((r) => setTimeout(r, 50));
server.proc.kill('SIGTERM');
await server.exited;

// ---- report ----
console.log('\n     s   rss MB   fds   wal MB  eld p99 ms   req/s');
for (const x of samples)
  console.log(
    `${String(x.s).padStart(6)} ${x.rssMb.toFixed(1).padStart(8)} ${String(x.fds).padStart(5)} ${x.walMb.toFixed(2).padStart(8)} ${x.eldP99.toFixed(1).padStart(11)} ${x.rps.toFixed(0).padStart(7)}`,
  );
console.log(
  `statuses: ${[...statuses.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `${k === 0 ? 'conn-error' : k}=${v}`)
    .join(' ')}; not sent (512 in flight): ${dropped}`,
);

// Level-off: the last third against the middle third.
const third = Math.floor(samples.length / 3);
const mid = samples.slice(third, 2 * third);
const last = samples.slice(2 * third);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const max = (xs: number[]) => Math.max(0, ...xs);
const checks: Array<[string, boolean, string]> = [];
if (third >= 1) {
  const m = (k: keyof Sample) => mid.map((x) => x[k]);
  const l = (k: keyof Sample) => last.map((x) => x[k]);
  checks.push([
    'rss',
    mean(l('rssMb')) <= mean(m('rssMb')) * 1.15 + 16,
    `mean ${mean(m('rssMb')).toFixed(1)} → ${mean(l('rssMb')).toFixed(1)} MB (≤ ×1.15 + 16 MB)`,
  ]);
  checks.push(['fds', max(l('fds')) <= max(m('fds')) + 16, `max ${max(m('fds'))} → ${max(l('fds'))} (≤ +16)`]);
  checks.push(['wal', max(l('walMb')) <= max(m('walMb')) * 1.5 + 8, `max ${max(m('walMb')).toFixed(2)} → ${max(l('walMb')).toFixed(2)} MB (≤ ×1.5 + 8 MB)`]);
  checks.push([
    'event-loop delay',
    mean(l('eldP99')) <= mean(m('eldP99')) * 2 + 50,
    `mean p99 ${mean(m('eldP99')).toFixed(1)} → ${mean(l('eldP99')).toFixed(1)} ms (≤ ×2 + 50 ms)`,
  ]);
}
for (const [k, ok, why] of checks) console.log(`${ok ? 'ok  ' : 'GROWS'} ${k}: ${why}`);

// ---- SVG: four small charts over time ----
function chart(title: string, key: keyof Sample, x0: number, y0: number): string {
  const w = 360;
  const hgt = 120;
  const ys = samples.map((s) => s[key]);
  const top = Math.max(1e-9, ...ys) * 1.1;
  const tMax = Math.max(1, ...samples.map((s) => s.s));
  const pts = samples.map((s) => `${(x0 + (s.s / tMax) * w).toFixed(1)},${(y0 + hgt - (s[key] / top) * hgt).toFixed(1)}`).join(' ');
  return [
    `<rect x="${x0}" y="${y0}" width="${w}" height="${hgt}" fill="none" stroke="#ccc"/>`,
    `<text x="${x0}" y="${y0 - 6}" font-size="12">${title} (max ${Math.max(0, ...ys).toFixed(1)})</text>`,
    `<polyline fill="none" stroke="#1f6feb" stroke-width="1.5" points="${pts}"/>`,
    `<text x="${x0 + w}" y="${y0 + hgt + 14}" font-size="10" text-anchor="end">${tMax} s</text>`,
  ].join('\n');
}
const svg = [
  '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="360" font-family="sans-serif">',
  `<text x="20" y="18" font-size="13">soak: ${rate.toFixed(0)} req/s (${(LOAD * 100).toFixed(0)}% of ${capacity.toFixed(0)}) for ${SOAK_S} s</text>`,
  chart('RSS MB', 'rssMb', 20, 45),
  chart('open fds', 'fds', 420, 45),
  chart('WAL MB', 'walMb', 20, 210),
  chart('event-loop delay p99 ms', 'eldP99', 420, 210),
  '</svg>',
].join('\n');
mkdirSync(join(root, 'bench/out'), { recursive: true });
writeFileSync(join(root, 'bench/out/soak.svg'), svg);
console.log('plot: bench/out/soak.svg');
rmSync(dir, { recursive: true, force: true });
process.exit(checks.every(([, ok]) => ok) ? 0 : 1);
