// Compute rows of the benchmark (BENCH_ONLY=compute): a trivial service (the echo fixture) called
// through /mcp/svc/{name} (stateless tools/call) and through the agent operation
// (POST /v1/svc/{name}/call), each charged 1 credit; beside, in this process, the same module
// called directly with Extism (a fresh instance per call, as the runner does, and one instance
// reused), the runner's worker round trip, and the cost of starting a runner worker.
import createPlugin from '@extism/extism';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { solve } from '../src/core/platform/identity/pow.js';
import { defaultRunner } from '../src/wasm/index.js';
import { cpuMsOf, DURATION, type BenchRun, type Row } from './load.js';

const ECHO = readFileSync('test/wasm/fixtures/echo.wasm');
const NAME = 'bench-echo';

async function register(cx: string): Promise<{ id: string; token: string }> {
  const headers = { accept: 'application/json', 'x-forwarded-for': '192.0.2.20' };
  const c = (await (await fetch(`${cx}/v1/challenge?for=reg`, { method: 'POST', headers })).json()) as { challenge: string; bits: number };
  const res = await fetch(`${cx}/v1/register`, { method: 'POST', headers, body: new URLSearchParams({ pow: solve(c.challenge, c.bits) }) });
  if (res.status !== 201) throw new Error(`bench register: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; token: string };
}

async function must(res: Promise<Response>, what: string): Promise<string> {
  const r = await res;
  const t = await r.text();
  if (r.status >= 300) throw new Error(`bench compute ${what}: ${r.status} ${t}`);
  return t;
}

/** Calls per second and CPU ms per call of `fn` run back to back for `seconds` (this process's CPU, all threads). */
async function loop(seconds: number, fn: () => Promise<unknown>): Promise<{ perS: number; cpuMs: number; n: number }> {
  const end = performance.now() + seconds * 1000;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  while (performance.now() < end) {
    await fn();
    n++;
  }
  const c = process.cpuUsage(c0);
  return { perS: n / ((performance.now() - t0) / 1000), cpuMs: (c.user + c.system) / 1000 / n, n };
}

export async function benchCompute(cx: string, run: BenchRun, adminToken: string, pid: number): Promise<{ rows: Row[]; notes: string[] }> {
  const admin = { authorization: `Bearer ${adminToken}` };
  const who = await register(cx);
  await must(
    fetch(`${cx}/admin/credits`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ id: who.id, n: 10_000_000 }),
    }),
    'mint',
  );
  await must(
    fetch(`${cx}/admin/blob?name=${NAME}&ver=1`, {
      method: 'PUT',
      headers: { ...admin, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(ECHO),
    }),
    'blob',
  );
  const hash = createHash('sha256').update(ECHO).digest('hex');
  const manifest = { desc: 'echo (benchmark)', kats: [{ in: 'ping', out: 'ping' }] };
  await must(
    fetch(`${cx}/admin/svc`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: NAME, ver: 1, wasm: hash, manifest }),
    }),
    'svc',
  );
  for (let i = 0; ; i++) {
    const s = (await (await fetch(`${cx}/v1/svc/${NAME}`, { headers: { accept: 'application/json' } })).json()) as { served: number | null };
    if (s.served) break;
    if (i > 300) throw new Error('bench compute: the service was not served within 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const bearer = { authorization: `Bearer ${who.token}`, 'x-forwarded-for': '192.0.2.20' };
  const rows: Row[] = [];
  rows.push(
    await run(`POST /v1/svc/${NAME}/call (agent op)`, `${cx}/v1/svc/${NAME}/call`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'text/plain' },
      body: 'ping',
    }),
  );
  const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: NAME, arguments: { input: 'ping' } } });
  const mcpHeaders = { ...bearer, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  // One call first: a row of errors would measure nothing.
  const first = await must(fetch(`${cx}/mcp/svc/${NAME}`, { method: 'POST', headers: mcpHeaders, body: rpc }), 'mcp call');
  if (!first.includes('"text":"ping"')) throw new Error(`bench compute: unexpected MCP answer ${first.slice(0, 200)}`);
  rows.push(
    await run(`MCP /mcp/svc/${NAME} tools/call`, `${cx}/mcp/svc/${NAME}`, {
      method: 'POST',
      headers: mcpHeaders,
      body: rpc,
    }),
  );

  // Through a job (svc.job, k=1 of n=1: the server is the donor): submitted by 10 callers at once,
  // each waiting for its job to be done before the next; jobs per second and server CPU per job.
  const JOBS = Math.max(50, DURATION * 25);
  const cpu0 = cpuMsOf(pid);
  const tj = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < JOBS) {
      next++;
      const made = (await (
        await fetch(`${cx}/v1/svc/${NAME}/job`, {
          method: 'POST',
          headers: { ...bearer, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ input: 'ping', k: 1, n: 1 }),
        })
      ).json()) as { id: string };
      for (;;) {
        const j = (await (await fetch(`${cx}/v1/job/${made.id}`, { headers: { ...bearer, accept: 'application/json' } })).json()) as { state: string };
        if (j.state !== 'open') break;
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  const jobSecs = (performance.now() - tj) / 1000;
  const jobCpu = (cpuMsOf(pid) - cpu0) / JOBS;

  // The same module in this process.
  const secs = Math.max(1, DURATION / 2);
  const module = await WebAssembly.compile(ECHO);
  const opts = { useWasi: false, allowedHosts: [], logLevel: 'silent' as const };
  const fresh = await loop(secs, async () => {
    const p = await createPlugin({ wasm: [{ module }] }, opts);
    await p.call('run', 'ping');
    await p.close();
  });
  const reused = await createPlugin({ wasm: [{ module }] }, opts);
  const kept = await loop(secs, () => reused.call('run', 'ping'));
  await reused.close();
  const runner = defaultRunner({ workers: 1 });
  const limits = { timeMs: 2000, memPages: 256, outBytes: 1 << 16 };
  const input = Buffer.from('ping');
  const viaRunner = await loop(secs, () => runner.run({ hash, wasm: async () => ECHO, entry: 'run', input, limits }));
  await runner.close();
  // Worker start: a fresh one-worker runner until its first call answers (start, Extism load, compile, call).
  const starts: number[] = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < 5; i++) {
    const r = defaultRunner({ workers: 1 });
    const t0 = performance.now();
    await r.run({ hash, wasm: async () => ECHO, entry: 'run', input, limits });
    starts.push(performance.now() - t0);
    await r.close();
  }
  const c = process.cpuUsage(c0);
  const med = starts.sort((a, b) => a - b)[2]!;
  const f = (x: number, d = 3) => x.toFixed(d);
  const notes = [
    `Compute, same module (echo fixture, ${ECHO.length} bytes) in the bench process, ${secs} s each, one caller:`,
    `  Extism direct, fresh instance per call (as the runner does): ${f(fresh.perS, 0)} calls/s, cpu ${f(fresh.cpuMs)} ms/call`,
    `  Extism direct, one instance reused:                         ${f(kept.perS, 0)} calls/s, cpu ${f(kept.cpuMs)} ms/call`,
    `  runner (1 worker thread, postMessage round trip):           ${f(viaRunner.perS, 0)} calls/s, cpu ${f(viaRunner.cpuMs)} ms/call (process, all threads)`,
    `  worker start to first answer (start, Extism load, compile, call): median ${f(med, 1)} ms of 5, cpu ${f((c.user + c.system) / 1000 / 5, 1)} ms each`,
    `  (the two HTTP rows above are the same module through the server: 50 connections, 2 runner workers, charged 1 credit per call)`,
    `  through a job (POST /v1/svc/${NAME}/job k=1 n=1, server as donor, polled until done; 10 callers): ${JOBS} jobs in ${f(jobSecs, 1)} s = ${f(JOBS / jobSecs, 0)} jobs/s, server cpu ${f(jobCpu)} ms per job (submit, polls, run, receipt)`,
  ];
  return { rows, notes };
}
