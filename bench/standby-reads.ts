// What a read standby takes off the primary (issue 38): anonymous GET /h hits from one network on
// one in-process server, first on the primary alone, then with CX_DATABASE_READ_URL on a streaming
// standby of it. Per request: statements on each server (pg_stat_statements of the test database)
// and CPU of each server's backends on that database (/proc, utime + stime). Run alone, on a quiet
// machine, against a throwaway primary and its standby (scripts/pg-test.sh makes such a pair):
//   CX_PG_REAL=postgres://…primary/postgres CX_PG_STANDBY=postgres://…standby/postgres npx tsx bench/standby-reads.ts
// (BENCH_REQUESTS, BENCH_CONCURRENCY change the defaults 2000 and 10.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { register } from '../test/helpers/server.js';

const primaryUrl = process.env.CX_PG_REAL;
const standbyUrl = process.env.CX_PG_STANDBY;
if (!primaryUrl || !standbyUrl) {
  console.error('standby-reads: set CX_PG_REAL (primary) and CX_PG_STANDBY (its streaming standby)');
  process.exit(1);
}
const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 10);
const db = `cx_bench_rs_${process.pid}`;
const onDb = (u: string, name: string) => {
  const x = new URL(u);
  x.pathname = `/${name}`;
  return x.toString();
};
const TICK_MS = 10; // USER_HZ 100

/** Statements and backend CPU (ms) of the bench database on one server. */
async function sample(url: string): Promise<{ statements: number; cpuMs: number }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const st = await c.query<{ n: string | null }>(
      'SELECT sum(calls) AS n FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)',
      [db],
    );
    const pids = (await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [db])).rows;
    let ticks = 0;
    for (const { pid } of pids) {
      try {
        const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        ticks += Number(f[11]) + Number(f[12]);
      } catch {
        /* gone */
      }
    }
    return { statements: Number(st.rows[0]?.n ?? 0), cpuMs: ticks * TICK_MS };
  } finally {
    await c.end();
  }
}

// One data directory for both runs: the database records the keys of the first.
const dir = mkdtempSync(join(tmpdir(), 'cx-bench-rs-'));

async function run(readUrl: string | null): Promise<Record<string, number | string>> {
  const name = readUrl ? 'zzqbenchtwo' : 'zzqbenchone';
  const running = await startServer(
    loadConfig({
      CX_DATA: dir,
      PORT: '0',
      CATALOG_PORT: '0',
      HOST: '127.0.0.1',
      CX_POW_BITS: '8',
      CX_DATABASE_URL: onDb(primaryUrl!, db),
      ...(readUrl ? { CX_DATABASE_READ_URL: onDb(readUrl, db) } : {}),
      CX_SEED: '0',
      CX_GIT_MIRROR: '0',
      CX_TRUST_PROXY: '1',
      CX_QUOTA_MULT: '1000',
    }),
    { logger: false },
  );
  try {
    const who = await register(running.url, undefined, { 'x-forwarded-for': '10.1.0.1' });
    const r = await fetch(`${running.url}/k?f=json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json', 'x-forwarded-for': '10.1.0.1' },
      body: JSON.stringify({
        error: "ModuleNotFoundError: No module named 'zzqbench'",
        fix: 'pip install zzqbench',
        eco: 'pypi',
        title: 'No module named zzqbench',
      }),
    });
    const h = ((await r.json()) as { h: string }).h;
    const hit = () => fetch(`${running.url}/h/${h}`, { headers: { 'x-forwarded-for': '10.2.0.1' } }).then((x) => x.text());
    // Warm (connections, prepared statements, the standby's probe), then wait for the entry there.
    for (let i = 0; i < 200; i++) await hit();
    await new Promise((res) => setTimeout(res, 1500));
    const p0 = await sample(primaryUrl!);
    const s0 = await sample(standbyUrl!);
    const t0 = performance.now();
    let left = requests;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) await hit();
      }),
    );
    const secs = (performance.now() - t0) / 1000;
    const p1 = await sample(primaryUrl!);
    const s1 = await sample(standbyUrl!);
    const per = (a: number, b: number) => Number(((b - a) / requests).toFixed(3));
    const us = (a: number, b: number) => Math.round(((b - a) * 1000) / requests);
    return {
      mode: readUrl ? 'with standby' : 'primary only',
      reqPerSec: Math.round(requests / secs),
      primaryStatementsPerReq: per(p0.statements, p1.statements),
      standbyStatementsPerReq: readUrl ? per(s0.statements, s1.statements) : 0,
      primaryCpuUsPerReq: us(p0.cpuMs, p1.cpuMs),
      standbyCpuUsPerReq: readUrl ? us(s0.cpuMs, s1.cpuMs) : 0,
    };
  } finally {
    await running.close();
  }
}

const admin = new pg.Client({ connectionString: primaryUrl });
await admin.connect();
try {
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await admin.query(`CREATE DATABASE ${db}`);
  await new Promise((res) => setTimeout(res, 1000)); // the database reaches the standby
  console.log(JSON.stringify(await run(null)));
  console.log(JSON.stringify(await run(standbyUrl!)));
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
}
