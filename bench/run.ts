// Load benchmark: autocannon against the real server (child process) and, in the same run,
// a bare node:http server answering a constant as the baseline. Prints a table.
import { serverArgs } from './server-args.js';
import autocannon from 'autocannon';
import { benchDrops } from './drops.js';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { benchKb } from './kb.js';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DURATION = Number(process.env.BENCH_SECONDS || 8);
const CONNECTIONS = 50;
// BENCH_ONLY=mcp,a2a (groups: core, mcp, a2a, drops, kb) runs only those beside the baseline.
const ONLY = new Set((process.env.BENCH_ONLY || 'core,mcp,a2a,drops,kb').split(','));

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
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }),
  });
  await res.text();
  const sid = res.headers.get('mcp-session-id');
  if (!sid) throw new Error(`no session from ${url}`);
  await fetch(url, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': sid }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  return sid;
}

interface Row { route: string; rps: number; p50: number; p99: number; non2xx: number }

async function run(route: string, url: string, opts: Partial<autocannon.Options> = {}): Promise<Row> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, ...opts });
  return { route, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

type Leg = (seconds: number) => Promise<Omit<Row, 'route'>>;
const leg = (url: string, opts: Partial<autocannon.Options>): Leg => async (seconds) => {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, ...opts });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
};

/**
 * A head-to-head pair on this shared, noisy machine: A, B, B, A, each for half the duration, so a
 * slow stretch of the host weighs on both sides alike. req/s is the mean of the two legs; p50 and
 * p99 are the worse leg's (percentiles of two runs cannot be merged exactly).
 */
async function pair(a: [string, Leg], b: [string, Leg]): Promise<[Row, Row]> {
  const half = Math.max(1, Math.round(DURATION / 2));
  const a1 = await a[1](half);
  const b1 = await b[1](half);
  const b2 = await b[1](half);
  const a2 = await a[1](half);
  const merge = (route: string, x: Omit<Row, 'route'>, y: Omit<Row, 'route'>): Row => ({
    route, rps: (x.rps + y.rps) / 2, p50: Math.max(x.p50, y.p50), p99: Math.max(x.p99, y.p99), non2xx: x.non2xx + y.non2xx,
  });
  return [merge(a[0], a1, a2), merge(b[0], b1, b2)];
}

async function main(): Promise<void> {
  // The service as `npm start` runs it: compiled JavaScript under plain node.
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'cx-bench-'));
  const [bport, port, cport, mport] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const kids: ChildProcess[] = [];
  try {
    kids.push(spawn(process.execPath, ['-e', BASELINE], { env: { ...process.env, PORT: String(bport) }, stdio: 'ignore' }));
    kids.push(
      spawn(process.execPath, serverArgs(), {
        env: { ...process.env, PORT: String(port), CATALOG_PORT: String(cport), HOST: '127.0.0.1', CX_DATA: dir, CX_LOG_LEVEL: 'warn', CX_TRUST_PROXY: '1', CX_QUOTA_MULT: '1000' },
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );
    const base = `http://127.0.0.1:${bport}`;
    const cx = `http://127.0.0.1:${port}`;
    await waitUp(base);
    await waitUp(`${cx}/healthz`);
    let n = 0;
    const rows: Row[] = [];
    rows.push(await run('baseline node:http constant', base));
    if (ONLY.has('core')) rows.push(await run('GET /healthz', `${cx}/healthz`));
    if (ONLY.has('core')) rows.push(await run('GET /limits', `${cx}/limits`));
    // Challenges are quota'd per /24: spread the load over many (trusted X-Forwarded-For), as real traffic is.
    if (ONLY.has('core')) rows.push(
      await run('POST /v1/challenge', `${cx}/v1/challenge`, {
        method: 'POST',
        requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': `10.${(n >> 8) & 255}.${n++ & 255}.1` } }) }],
      }),
    );
    // MCP: tools/call of a cheap read tool, session and stateless, beside the SDK's minimal server.
    kids.push(spawn(process.execPath, ['bench/minimal-mcp.mjs'], { env: { ...process.env, PORT: String(mport) }, stdio: 'ignore' }));
    const mini = `http://127.0.0.1:${mport}`;
    await waitUpPost(mini);
    // Unique JSON-RPC ids: concurrent requests in one session must not collide.
    const mcpLegs = async (url: string, tool: string): Promise<{ session: Leg; stateless: Leg }> => {
      let id = 0;
      const calls = [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: tool, arguments: {} } }) }) }];
      const sid = await mcpSession(url);
      return {
        session: leg(url, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': sid }, requests: calls as never }),
        stateless: leg(url, { method: 'POST', headers: MCP_HEADERS, requests: calls as never }),
      };
    };
    const ratios: string[] = [];
    const vs = (what: string, [m, c]: [Row, Row]) => {
      rows.push(m, c);
      ratios.push(`${what}: commons ${(c.rps / m.rps).toFixed(2)}x the minimal SDK server`);
    };
    if (ONLY.has('mcp')) {
      const m = await mcpLegs(`${mini}/mcp`, 'ping');
      const c = await mcpLegs(`${cx}/mcp`, 'sys_health');
      vs('MCP tools/call session', await pair(['minimal SDK tools/call session', m.session], ['commons tools/call session', c.session]));
      vs('MCP tools/call stateless', await pair(['minimal SDK tools/call stateless', m.stateless], ['commons tools/call stateless', c.stateless]));
    }
    // A2A: blocking message/send (0.3 wire) of a cheap read skill, ours persisting every task in
    // SQLite, beside the SDK's own express server with an in-memory task store.
    const aport = await freePort();
    kids.push(spawn(process.execPath, ['bench/minimal-a2a.mjs'], { env: { ...process.env, PORT: String(aport) }, stdio: 'ignore' }));
    await waitUpPost(`http://127.0.0.1:${aport}/a2a`);
    const a2aLeg = (url: string, parts: unknown[]): Leg => {
      let id = 0;
      const calls = [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'message/send', params: { message: { kind: 'message', messageId: `b${id}`, role: 'user', parts }, configuration: { blocking: true } } }) }) }];
      return leg(url, { method: 'POST', headers: { 'content-type': 'application/json' }, requests: calls as never });
    };
    if (ONLY.has('a2a')) {
      vs('A2A message/send', await pair(
        ['minimal SDK a2a message/send', a2aLeg(`http://127.0.0.1:${aport}/a2a`, [{ kind: 'text', text: 'ping' }])],
        ['commons a2a message/send', a2aLeg(`${cx}/a2a`, [{ kind: 'data', data: { skill: 'sys.health' } }])],
      ));
    }
    // Dead drops: PUT with a token (quotas scaled by CX_QUOTA_MULT above), then GETs of those drops.
    if (ONLY.has('drops')) rows.push(...(await benchDrops(cx, run)));

    // KB at scale (issue 3): its own server over the generated database.
    const kb = ONLY.has('kb') ? await benchKb(run, await freePort(), await freePort(), kids) : null;
    if (kb) rows.push(...kb.rows);

    const b = rows[0]!.rps;
    const pad = (s: string, w: number) => s.padEnd(w);
    console.log(`\nautocannon, ${CONNECTIONS} connections, ${DURATION} s per route, same machine, same run\n`);
    console.log(`${pad('route', 38)} ${pad('req/s', 9)} ${pad('p50 ms', 7)} ${pad('p99 ms', 7)} ${pad('non-2xx', 8)} ratio`);
    for (const r of rows) console.log(`${pad(r.route, 38)} ${pad(r.rps.toFixed(0), 9)} ${pad(String(r.p50), 7)} ${pad(String(r.p99), 7)} ${pad(String(r.non2xx), 8)} ${(r.rps / b).toFixed(2)}`);
    if (kb) {
      console.log('\nKB rows again, one connection (service time, no queueing)\n');
      for (const r of kb.light) console.log(`${pad(r.route, 50)} ${pad(r.rps.toFixed(0), 9)} p50 ${pad(String(r.p50), 4)} p99 ${r.p99} ms`);
    }
    if (ratios.length) console.log(`\nhead to head (A B B A, ${Math.max(1, Math.round(DURATION / 2))} s legs): ${ratios.join('; ')}`);
    const f = kb?.facts;
    if (f) console.log(`\nKB: ${f.entries} entries, database ${f.dbMb} MB, server RSS after the KB rows ${f.rssMb} MB, cold start ${f.coldStartMs} ms${f.generatedS === null ? ' (database reused from .bench/)' : `, generated in ${f.generatedS} s`}`);
  } finally {
    for (const k of kids) k.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
