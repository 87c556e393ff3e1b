// npm run bench:scale (issue 23): the service on PostgreSQL against SQLite, and N replicas.
//  1. CPU per request of the hot rows (POST /e hit, GET /h/{hex}, PUT /d and GET /d, MCP tools/call
//     2026-07-28) on ONE server process: SQLite under its data directory, then PostgreSQL. Beside the
//     server's CPU, PostgreSQL's own (the postmaster and every backend, from /proc) and what
//     pg_stat_statements counted per request: statements, transactions, rows written per table,
//     NOTIFYs, execution time. Those per-request database costs feed the model of docs/scaling.md.
//  2. Total req/s through HAProxy (deploy/haproxy.cfg) with 1, 2 and 3 replicas on one PostgreSQL.
// The servers are the built ones (`npm start`'s node command); PostgreSQL is a throwaway cluster of
// its own (initdb under a temporary directory, fsync off: this measures CPU, not the disk).
// BENCH_SECONDS (default 8) per row; BENCH_SCALE_PARTS=one|many runs one part; BENCH_SCALE_TOP=n prints the n statements called most per row; BENCH_SCALE_ARGS replaces the node arguments of the servers; the machine's cores are shared by the load generator, every
// server process and PostgreSQL: see the notes printed under each table for what limits a figure.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { errsig } from '../src/core/kb/errsig/errsig.js';
import { solve } from '../src/core/platform/identity/pow.js';
import { type Cluster, freshDatabase, startCluster, throwawayPg, type ThrowawayPg } from '../test/scale/cluster.js';
import { benchDrops } from './drops.js';
import { cpuMsOf, DURATION, runner, WRK, type BenchRun, type Opts, type Row } from './load.js';
import { serverArgs } from './server-args.js';

interface DbCost {
  /** Per request. */
  statements: number;
  commits: number;
  execMs: number;
  notifies: number;
  /** Rows written per request, by table and verb (e.g. 'UPDATE quota_buckets'). */
  writes: Record<string, number>;
}

interface Measured extends Row {
  engine: string;
  replicas: number;
  /** Server CPU per request over every replica, ms. */
  serverMs: number;
  /** PostgreSQL's CPU per request, ms (null on SQLite). */
  pgMs: number | null;
  db: DbCost | null;
}

// CX_SHED=0: a closed loop of 50 connections keeps a server saturated on purpose; shedding would
// turn part of each row into cheap 503s and hide the cost being measured.
const ENV = { CX_TRUST_PROXY: '1', CX_QUOTA_MULT: '1000', CX_POW_BITS: '12', CX_LOG_LEVEL: 'warn', CX_SHED: '0' };

/** The seed KB's errors (loaded into every fresh store) and their signatures. */
function seedErrors(): { errors: string[]; hashes: string[] } {
  const errors = readFileSync('src/core/kb/seed/fixes.jsonl', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { error: string }).error);
  return { errors, hashes: errors.map((e) => errsig(e).h) };
}

async function token(url: string): Promise<string> {
  const headers = { accept: 'application/json', 'x-forwarded-for': '192.0.2.77' };
  const c = (await (await fetch(`${url}/v1/challenge?for=reg`, { method: 'POST', headers })).json()) as { challenge: string; bits: number };
  const res = await fetch(`${url}/v1/register`, { method: 'POST', headers, body: new URLSearchParams({ pow: solve(c.challenge, c.bits) }) });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** pg_stat_statements of one database, reset and read around a row. */
async function statements(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const mine = '(SELECT oid FROM pg_database WHERE datname = current_database())';
  return {
    reset: async () => void (await c.query('SELECT pg_stat_statements_reset()')),
    async read(requests: number): Promise<DbCost> {
      const rows = (
        await c.query<{ query: string; calls: string; rows: string; ms: number }>(
          `SELECT query, calls, rows, total_exec_time AS ms FROM pg_stat_statements WHERE dbid = ${mine} AND query NOT LIKE '%pg_stat_statements%'`,
        )
      ).rows;
      const per = (n: number) => n / Math.max(1, requests);
      const writes: Record<string, number> = {};
      let statements = 0;
      let commits = 0;
      let execMs = 0;
      let notifies = 0;
      for (const r of rows) {
        const calls = Number(r.calls);
        statements += calls;
        execMs += r.ms;
        if (/^\s*COMMIT/i.test(r.query)) commits += calls;
        if (/pg_notify/i.test(r.query)) notifies += calls;
        const w = /^\s*(?:WITH .*?\)\s*)?(INSERT INTO|UPDATE|DELETE FROM)\s+("?\w+"?)/is.exec(r.query);
        if (w) {
          const k = `${w[1]!.split(' ')[0]!.toUpperCase()} ${w[2]!.replace(/"/g, '')}`;
          writes[k] = (writes[k] ?? 0) + per(Number(r.rows));
        }
      }
      // BENCH_SCALE_TOP=n: the n statements of the row called most, per request (what to cut next).
      const top = Number(process.env.BENCH_SCALE_TOP ?? 0);
      if (top > 0)
        for (const r of [...rows].sort((a, b) => Number(b.calls) - Number(a.calls)).slice(0, top))
          console.log(`      ${per(Number(r.calls)).toFixed(3)}/req ${r.query.replace(/\s+/g, ' ').slice(0, 140)}`);
      return { statements: per(statements), commits: per(commits), execMs: per(execMs), notifies: per(notifies), writes };
    },
    close: () => c.end(),
  };
}

/** A BenchRun that also sums every replica's CPU, PostgreSQL's, and the statements of the row. */
function measuring(c: Cluster, pgc: ThrowawayPg | null, stats: Awaited<ReturnType<typeof statements>> | null, out: Measured[], engine: string): BenchRun {
  const pids = c.replicas.map((r) => r.child.pid!);
  const load = runner(pids[0]!);
  return async (route, url, opts: Opts = {}) => {
    await stats?.reset();
    const cpu0 = pids.reduce((a, p) => a + cpuMsOf(p), 0);
    const pg0 = pgc?.cpuMs() ?? 0;
    const row = await load(route, url, opts);
    const cpu = pids.reduce((a, p) => a + cpuMsOf(p), 0) - cpu0;
    const pgMs = pgc ? (pgc.cpuMs() - pg0) / Math.max(1, row.requests) : null;
    const db = stats ? await stats.read(row.requests) : null;
    const m: Measured = { ...row, engine, replicas: c.replicas.length, serverMs: cpu / Math.max(1, row.requests), pgMs, db };
    out.push(m);
    console.log(
      `  ${engine} x${c.replicas.length} ${route}: ${Math.round(row.rps)} req/s, server ${(m.serverMs * 1000).toFixed(0)} µs/req${pgMs === null ? '' : `, postgres ${(pgMs * 1000).toFixed(0)} µs/req`}${row.non2xx ? `, non-2xx ${row.non2xx}` : ''}`,
    );
    return row;
  };
}

/** The hot rows against `url` (one server, or the balancer). */
async function hotRows(run: BenchRun, url: string, only?: string[]): Promise<void> {
  const { errors, hashes } = seedErrors();
  const want = (r: string) => !only || only.includes(r);
  /** The KB rows, each request from the network `net(i)` gives for its i-th request. */
  const kbRows = async (suffix: string, net: (i: number) => string) => {
    let k = 0;
    if (want('e'))
      await run(`POST /e hit${suffix}`, `${url}/e`, {
        method: 'POST',
        requests: [
          {
            setupRequest: (req: Record<string, unknown>) => ({
              ...req,
              headers: { 'content-type': 'text/plain', 'x-forwarded-for': net(k) },
              body: errors[k++ % errors.length],
            }),
          },
        ] as never,
      });
    // Counting on: the /h row's networks are new after the /e row's too.
    if (want('h'))
      await run(`GET /h/{hex}${suffix}`, `${url}/h/${hashes[0]}`, {
        requests: [
          { setupRequest: (req: Record<string, unknown>) => ({ ...req, path: `/h/${hashes[k % hashes.length]}`, headers: { 'x-forwarded-for': net(k++) } }) },
        ] as never,
      });
  };
  // Every request from a network never seen (a new quota_buckets row each) ...
  await kbRows('', (i) => `10.${(i >> 8) & 255}.${i & 255}.1`);
  // ... and from 16 steady callers, each well inside its bucket: a service's regular clients, whose
  // quota tokens come from a lease (no quota_buckets write per request).
  await kbRows(', 16 steady networks', (i) => `10.200.${i & 15}.1`);
  if (want('d')) await benchDrops(url, run);
  if (want('pub')) {
    // A topic line: an event in the outbox and, on PostgreSQL, its NOTIFY (ids only) after commit.
    const tok = await token(url);
    await run('POST /v1/pub/{topic}', `${url}/v1/pub/r:BenchScaleRoom0123456789.load`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tok}`, 'content-type': 'text/plain', 'x-forwarded-for': '192.0.2.78' },
      body: 'a line of the benchmark',
    });
  }
  if (want('mcp')) {
    const tok = await token(url);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    // id_me: the token's identity read from the store on every call (a read that touches the database).
    await run('MCP tools/call 2026-07-28 (id_me)', `${url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'id_me',
        authorization: `Bearer ${tok}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'id_me', arguments: {}, _meta: meta } }),
    });
  }
}

/** BENCH_SCALE_PARTS=one,many (default both): the one-replica rows, the replica rows. */
const PARTS = (process.env.BENCH_SCALE_PARTS || 'one,many').split(',');

const us = (ms: number | null) => (ms === null ? '-' : `${Math.round(ms * 1000)} µs`);

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const args = process.env.BENCH_SCALE_ARGS ? process.env.BENCH_SCALE_ARGS.split(' ') : serverArgs();
  const pgc = await throwawayPg({ preload: 'pg_stat_statements' });
  const one: Measured[] = [];
  const many: Measured[] = [];
  const opened: Cluster[] = [];
  try {
    if (PARTS.includes('one')) console.log(`\none replica, SQLite then PostgreSQL (${DURATION} s per row, ${WRK ?? 'autocannon'})`);
    for (const engine of PARTS.includes('one') ? (['sqlite', 'postgres'] as const) : []) {
      const db = engine === 'postgres' ? await freshDatabase(pgc.url, 'bench_one') : null;
      const c = await startCluster({ db, replicas: 1, lb: false, args, env: ENV });
      opened.push(c);
      const stats = db ? await statements(db) : null;
      // Two seconds of hits first, not recorded (JIT, first reads of a fresh store).
      await runner(c.replicas[0]!.child.pid!)('warm-up', `${c.replicas[0]!.url}/h/x`, { duration: 2 });
      await hotRows(measuring(c, engine === 'postgres' ? pgc : null, stats, one, engine), c.replicas[0]!.url);
      await stats?.close();
      await c.stop();
    }
    if (PARTS.includes('many')) console.log('\nN replicas on PostgreSQL behind HAProxy');
    for (const n of PARTS.includes('many') ? [1, 2, 3] : []) {
      const db = await freshDatabase(pgc.url, `bench_n${n}`);
      const c = await startCluster({ db, replicas: n, args, env: ENV });
      opened.push(c);
      const stats = await statements(db);
      await hotRows(measuring(c, pgc, stats, many, 'postgres'), c.lb!, ['e', 'h']);
      await stats.close();
      await c.stop();
    }
  } finally {
    for (const c of opened) await c.stop().catch(() => undefined);
    pgc.stop();
  }
  const cores = Number(execFileSync('nproc').toString().trim());
  console.log(`\n### One replica: CPU per request, SQLite vs PostgreSQL (${cores} cores, ${DURATION} s per row)\n`);
  console.log(
    '| row | engine | req/s | p99 ms | server CPU/req | PostgreSQL CPU/req | statements/req | COMMIT/req | exec/req | NOTIFY/req | rows written/req |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const m of one) {
    const w = m.db
      ? Object.entries(m.db.writes)
          .filter(([, v]) => v >= 0.005)
          .map(([k, v]) => `${k} ${v.toFixed(2)}`)
          .join(', ') || '-'
      : '-';
    console.log(
      `| ${m.route} | ${m.engine} | ${Math.round(m.rps)} | ${m.p99.toFixed(1)} | ${us(m.serverMs)} | ${us(m.pgMs)} | ${m.db ? m.db.statements.toFixed(2) : '-'} | ${m.db ? m.db.commits.toFixed(2) : '-'} | ${m.db ? us(m.db.execMs) : '-'} | ${m.db ? m.db.notifies.toFixed(2) : '-'} | ${w} |`,
    );
  }
  console.log(`\n### Replicas behind HAProxy (PostgreSQL): total req/s\n`);
  console.log('| row | replicas | req/s | p99 ms | replicas CPU/req | PostgreSQL CPU/req | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const m of many)
    console.log(`| ${m.route} | ${m.replicas} | ${Math.round(m.rps)} | ${m.p99.toFixed(1)} | ${us(m.serverMs)} | ${us(m.pgMs)} | ${m.non2xx} |`);
  console.log(
    `\nOn ${cores} cores the load generator, HAProxy, PostgreSQL and every replica share the CPU: more replicas cannot add req/s once the cores are busy; the CPU per request is the figure that carries to a larger machine.`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
