// Load benchmark: the real server (child process) and, in the same run, two floors, each in its
// own process: a bare node:http server answering a constant, and a fastify route doing one
// better-sqlite3 point lookup (bench/floor.mjs). Per row: req/s, p50, p99, and the serving
// process's CPU time per request (/proc/<pid>/stat before and after the row, bench/load.ts), with
// the ratio of each floor's CPU per request to the row's. Load comes from wrk where every request
// of a row is the same, else autocannon.
import { serverArgs } from './server-args.js';
import { benchDrops } from './drops.js';
import { benchFeeds } from './feeds.js';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { benchKb } from './kb.js';
import { CONNECTIONS, DURATION, mergeRows, runner, WRK, type BenchRun, type Opts, type Row } from './load.js';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchWal } from './wal.js';
import { benchBus, formatBusRows } from './bus.js';
import { benchSwarm } from './swarm.js';

import { benchCompute } from './compute.js';

// BENCH_ONLY=mcp,a2a (groups: core, mcp, a2a, drops, feeds, kb, wal, bus, swarm, compute) runs only those beside the floors.
const ONLY = new Set((process.env.BENCH_ONLY || 'core,mcp,a2a,drops,feeds,kb,wal,bus,swarm,compute').split(','));
/** The admin token the benchmark gives the server (compute publishes a service and mints credits). */
const ADMIN = `cxo_admin_bench_${process.pid}_${Date.now().toString(36)}`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

async function waitUp(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

const BASELINE = `
const http = require('node:http');
http.createServer((req, res) => { res.writeHead(200, {'content-type': 'text/plain'}); res.end('ok\\n'); }).listen(Number(process.env.PORT), '127.0.0.1');
`;

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

async function waitUpPost(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

/** Initializes an MCP session and returns its id. */
async function mcpSession(url: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  await res.text();
  const sid = res.headers.get('mcp-session-id');
  if (!sid) throw new Error(`no session from ${url}`);
  await fetch(url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'mcp-session-id': sid },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return sid;
}

type Leg = (seconds: number) => Promise<Row>;
const leg =
  (run: BenchRun, url: string, opts: Opts): Leg =>
  (seconds) =>
    run('leg', url, { ...opts, duration: seconds });

/**
 * A head-to-head pair on this shared, noisy machine: A, B, B, A, each for half the duration, so a
 * slow stretch of the host weighs on both sides alike (see mergeRows for how legs combine).
 */
async function pair(a: [string, Leg], b: [string, Leg]): Promise<[Row, Row]> {
  const half = Math.max(1, Math.round(DURATION / 2));
  const a1 = await a[1](half);
  const b1 = await b[1](half);
  const b2 = await b[1](half);
  const a2 = await a[1](half);
  return [mergeRows(a[0], a1, a2), mergeRows(b[0], b1, b2)];
}

function spawnKid(kids: ChildProcess[], args: string[], env: Record<string, string>, stderr: 'ignore' | 'inherit' = 'ignore'): number {
  const k = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', stderr] });
  kids.push(k);
  if (!k.pid) throw new Error(`could not start ${args.join(' ')}`);
  return k.pid;
}

async function main(): Promise<void> {
  // The service as `npm start` runs it: compiled JavaScript under plain node.
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'cx-bench-'));
  const [bport, fport, port, cport] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const kids: ChildProcess[] = [];
  /** Lines printed after the table (sections that are not HTTP rows). */
  const notes: string[] = [];
  if (!WRK) console.log('\nwrk not found (Debian: apt-get install -y wrk): every row falls back to autocannon, which takes more CPU of the shared machine.\n');
  try {
    const basePid = spawnKid(kids, ['-e', BASELINE], { PORT: String(bport) });
    const floorPid = spawnKid(kids, ['bench/floor.mjs'], { PORT: String(fport) });
    const cxPid = spawnKid(
      kids,
      serverArgs(),
      {
        PORT: String(port),
        CATALOG_PORT: String(cport),
        HOST: '127.0.0.1',
        CX_DATA: dir,
        CX_LOG_LEVEL: 'warn',
        CX_TRUST_PROXY: '1',
        CX_QUOTA_MULT: '1000',
        CX_ADMIN_TOKEN: ADMIN,
        CX_SHED: '0',
      },
      'inherit',
    );
    const base = `http://127.0.0.1:${bport}`;
    const floor = `http://127.0.0.1:${fport}`;
    const floorRow = `${floor}/row/4242`;
    const cx = `http://127.0.0.1:${port}`;
    await waitUp(base);
    await waitUp(`${floor}/healthz`);
    await waitUp(`${cx}/healthz`);
    const run = runner(cxPid);
    let n = 0;
    const rows: Row[] = [];
    rows.push(await runner(basePid)('floor: node:http constant', base));
    rows.push(await runner(floorPid)('floor: fastify + 1 better-sqlite3 lookup', floorRow));
    if (ONLY.has('core')) rows.push(await run('GET /healthz', `${cx}/healthz`));
    if (ONLY.has('core')) rows.push(await run('GET /limits', `${cx}/limits`));
    // Challenges are quota'd per /24: spread the load over many (trusted X-Forwarded-For), as real traffic is.
    if (ONLY.has('core'))
      rows.push(
        await run('POST /v1/challenge', `${cx}/v1/challenge`, {
          method: 'POST',
          requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': `10.${(n >> 8) & 255}.${n++ & 255}.1` } }) }],
        }),
      );
    const ratios: string[] = [];
    const vs = (what: string, [m, c]: [Row, Row]) => {
      rows.push(m, c);
      ratios.push(`${what}: commons ${(c.rps / m.rps).toFixed(2)}x the minimal SDK server's req/s, at ${(c.cpuMs / m.cpuMs).toFixed(2)}x its CPU per request`);
    };
    // MCP: tools/call of a cheap read tool, session and stateless, beside the SDK's minimal server.
    if (ONLY.has('mcp')) {
      const mport = await freePort();
      const miniPid = spawnKid(kids, ['bench/minimal-mcp.mjs'], { PORT: String(mport) });
      const mini = `http://127.0.0.1:${mport}`;
      await waitUpPost(mini);
      // Unique JSON-RPC ids: concurrent requests in one session must not collide (autocannon).
      const mcpLegs = async (url: string, tool: string, r: BenchRun): Promise<{ session: Leg; stateless: Leg }> => {
        let id = 0;
        const calls = [
          {
            setupRequest: (req: Record<string, unknown>) => ({
              ...req,
              body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: tool, arguments: {} } }),
            }),
          },
        ];
        const sid = await mcpSession(url);
        return {
          session: leg(r, url, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': sid }, requests: calls as never }),
          stateless: leg(r, url, { method: 'POST', headers: MCP_HEADERS, requests: calls as never }),
        };
      };
      const m = await mcpLegs(`${mini}/mcp`, 'ping', runner(miniPid));
      const c = await mcpLegs(`${cx}/mcp`, 'sys_health', run);
      vs('MCP tools/call session', await pair(['minimal SDK tools/call session', m.session], ['commons tools/call session', c.session]));
      vs('MCP tools/call stateless', await pair(['minimal SDK tools/call stateless', m.stateless], ['commons tools/call stateless', c.stateless]));
      // Revision 2026-07-28 (no session, the envelope in _meta): beside the SDK 2.x's own minimal entry.
      const m26port = await freePort();
      const mini26Pid = spawnKid(kids, ['bench/minimal-mcp26.mjs'], { PORT: String(m26port) });
      const mini26 = `http://127.0.0.1:${m26port}`;
      await waitUpPost(mini26);
      const leg26 = (r: BenchRun, url: string, tool: string): Leg => {
        let id = 0;
        const meta = {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        };
        const calls = [
          {
            setupRequest: (req: Record<string, unknown>) => ({
              ...req,
              body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: tool, arguments: {}, _meta: meta } }),
            }),
          },
        ];
        const headers = {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': tool,
        };
        return leg(r, url, { method: 'POST', headers, requests: calls as never });
      };
      vs(
        'MCP tools/call 2026-07-28',
        await pair(
          ['minimal SDK 2.x tools/call 2026-07-28', leg26(runner(mini26Pid), `${mini26}/mcp`, 'ping')],
          ['commons tools/call 2026-07-28', leg26(run, `${cx}/mcp`, 'sys_health')],
        ),
      );
    }
    // A2A: blocking message/send (0.3 wire) of a cheap read skill, ours persisting every task in
    // SQLite, beside the SDK's own express server with an in-memory task store.
    if (ONLY.has('a2a')) {
      const aport = await freePort();
      const a2aPid = spawnKid(kids, ['bench/minimal-a2a.mjs'], { PORT: String(aport) });
      await waitUpPost(`http://127.0.0.1:${aport}/a2a`);
      const a2aLeg = (r: BenchRun, url: string, parts: unknown[]): Leg => {
        let id = 0;
        const calls = [
          {
            setupRequest: (req: Record<string, unknown>) => ({
              ...req,
              body: JSON.stringify({
                jsonrpc: '2.0',
                id: ++id,
                method: 'message/send',
                params: { message: { kind: 'message', messageId: `b${id}`, role: 'user', parts }, configuration: { blocking: true } },
              }),
            }),
          },
        ];
        return leg(r, url, { method: 'POST', headers: { 'content-type': 'application/json' }, requests: calls as never });
      };
      vs(
        'A2A message/send',
        await pair(
          ['minimal SDK a2a message/send', a2aLeg(runner(a2aPid), `http://127.0.0.1:${aport}/a2a`, [{ kind: 'text', text: 'ping' }])],
          ['commons a2a message/send', a2aLeg(run, `${cx}/a2a`, [{ kind: 'data', data: { skill: 'sys.health' } }])],
        ),
      );
    }
    // Dead drops: PUT with a token (quotas scaled by CX_QUOTA_MULT above), then GETs of those drops.
    if (ONLY.has('drops')) rows.push(...(await benchDrops(cx, run)));
    // Feeds: the newest-fixes feed, Atom and JSON, cached (304), memo and uncached (bench/feeds.ts).
    if (ONLY.has('feeds')) rows.push(...(await benchFeeds(cx, run)));

    // KB at scale (issue 3): its own server over the generated database.
    // Each KB row between two 3-s legs of the floor (BENCH_KB_BESIDE=0: without them).
    const floorLeg = process.env.BENCH_KB_BESIDE === '0' ? undefined : () => runner(floorPid)('floor (beside a KB row)', floorRow, { duration: 3 });
    const kb = ONLY.has('kb') ? await benchKb(runner, await freePort(), await freePort(), kids, floorLeg) : null;
    if (kb) rows.push(...kb.rows);

    // WAL size under a burst of small writes through the store (in this process; no HTTP).
    if (ONLY.has('wal')) {
      const w = await benchWal(Number(process.env.BENCH_WAL_WRITES || 50_000));
      notes.push(
        `WAL: ${w.writes} writes of 1 KiB through the store in ${w.seconds} s; WAL at most ${w.maxMb} MB, ${w.endMb} MB at the end, ${w.settledMb} MB 3 s later; longest event-loop stall ${w.maxStallMs} ms`,
      );
    }

    // Compute (issue 19): a trivial service through /mcp/svc/{name} and the agent op, beside the same module under Extism directly.
    if (ONLY.has('compute')) {
      const c = await benchCompute(cx, run, ADMIN, cxPid);
      rows.push(...c.rows);
      notes.push(c.notes.join('\n'));
    }

    // Event bus and job queue through the SQLite store, in this process (no HTTP).
    if (ONLY.has('bus')) notes.push(`Event bus and job queue (SQLite store in the bench process):\n${formatBusRows(await benchBus({ events1000: 500 }))}`);

    // Swarm topic lines through publishLine and delivery to kv: sinks, in this process (no HTTP), beside the bus rows.
    if (ONLY.has('swarm')) notes.push(`Swarm (SQLite store in the bench process; CPU from /proc/self):\n${formatBusRows(await benchSwarm())}`);

    const [node, fl] = [rows[0]!, rows[1]!];
    const pad = (s: string, w: number) => s.padEnd(w);
    const num = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
    const gens = [...new Set(rows.map((r) => r.gen))].map((g) => (g === 'wrk' ? `${WRK} (-t1)` : 'autocannon')).join(' and ');
    console.log(`\n${gens}, ${CONNECTIONS} connections, ${DURATION} s per row, same machine, same run`);
    console.log(
      "cpu = CPU time of the serving process per request (utime+stime from /proc/<pid>/stat); node/row and floor/row = the floors' CPU per request over the row's\n",
    );
    console.log(
      `${pad('route', 42)} ${pad('gen', 5)} ${pad('req/s', 8)} ${pad('p50 ms', 7)} ${pad('p99 ms', 7)} ${pad('non-2xx', 8)} ${pad('cpu ms', 7)} ${pad('node/row', 9)} floor/row`,
    );
    for (const r of rows) {
      console.log(
        `${pad(r.route, 42)} ${pad(r.gen === 'wrk' ? 'wrk' : 'ac', 5)} ${pad(r.rps.toFixed(0), 8)} ${pad(num(r.p50), 7)} ${pad(num(r.p99), 7)} ${pad(String(r.non2xx), 8)} ${pad(num(r.cpuMs, 3), 7)} ${pad(num(node.cpuMs / r.cpuMs, 2), 9)} ${num(fl.cpuMs / r.cpuMs, 2)}`,
      );
    }
    if (kb) {
      console.log('\nKB rows again, one connection (service time, no queueing)\n');
      for (const r of kb.light)
        console.log(`${pad(r.route, 50)} ${pad(r.rps.toFixed(0), 9)} p50 ${pad(num(r.p50), 4)} p99 ${num(r.p99)} ms  cpu ${num(r.cpuMs, 3)} ms`);
    }
    if (kb?.beside.length) {
      console.log('\nKB rows against the floor measured beside each (a 3-s floor leg just before the row and one just after)\n');
      for (const b of kb.beside)
        console.log(
          `${pad(b.route, 42)} cpu ${pad(num(b.cpuMs * 1000, 0) + ' µs', 8)} floor ${pad(num(b.floorMs * 1000, 0) + ' µs', 7)} ${num(b.cpuMs / b.floorMs, 2)}x the floor`,
        );
    }
    if (ratios.length) console.log(`\nhead to head (A B B A, ${Math.max(1, Math.round(DURATION / 2))} s legs): ${ratios.join('; ')}`);
    const f = kb?.facts;
    if (f)
      console.log(
        `\nKB: ${f.entries} entries, database ${f.dbMb} MB, server RSS after the KB rows ${f.rssMb} MB, cold start ${f.coldStartMs} ms${f.generatedS === null ? ' (database reused from .bench/)' : `, generated in ${f.generatedS} s`}`,
      );
    for (const line of notes) console.log(`\n${line}`);
  } finally {
    for (const k of kids) k.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
