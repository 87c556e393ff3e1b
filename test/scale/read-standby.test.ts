// Reads from a streaming standby (issue 38; registered only with CX_PG_REAL and CX_PG_STANDBY, set by
// scripts/pg-test.sh, which starts the primary and a standby made by pg_basebackup -R on loopback).
// One server with CX_DATABASE_URL on the primary and CX_DATABASE_READ_URL on the standby:
// anonymous KB reads are served by the standby and a token's by the primary (counted by each
// server's pg_stat_statements), a token reads its own entry at once while the standby's replay is
// paused, reads fall back to the primary when the standby lags past db.standby_lag and when it is
// stopped (CX_PG_STANDBY_CTL stop), and come back to it; the lag is in /metrics and /admin/stats.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type Running } from '../../src/server.js';
import { agent, req, type Who } from '../helpers/http.js';
import type { TestServer } from '../helpers/server.js';

const primaryUrl = process.env.CX_PG_REAL;
const standbyUrl = process.env.CX_PG_STANDBY;
const ctl = process.env.CX_PG_STANDBY_CTL;

const until = async (what: () => Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
};
const onDb = (u: string, db: string) => {
  const x = new URL(u);
  x.pathname = `/${db}`;
  return x.toString();
};

/** The byId statement of the KB adapter (src/store/pg/kb.ts), as pg_stat_statements keeps it. */
const BY_ID = '%FROM kb_entries e WHERE e.id = $1 AND NOT e.hidden%';

describe.skipIf(!primaryUrl || !standbyUrl || !ctl)('reads from a streaming standby', () => {
  const name = `cx_rs_${process.pid}`;
  const primary = new pg.Client({ connectionString: primaryUrl });
  let dir = '';
  let running: Running;
  let s: TestServer;
  let who: Who;

  /** Calls of the byId statement on one server (postgres database: pg_stat_statements is there), in the test's database. */
  const calls = async (url: string): Promise<number> => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const r = await c.query<{ n: string | null }>(
        'SELECT sum(calls) AS n FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1) AND query LIKE $2',
        [name, BY_ID],
      );
      return Number(r.rows[0]?.n ?? 0);
    } finally {
      await c.end();
    }
  };
  /** Runs one statement on the standby's test database. */
  const onStandby = async <R extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<R[]> => {
    const c = new pg.Client({ connectionString: onDb(standbyUrl!, name) });
    await c.connect();
    try {
      return (await c.query<R>(text, params)).rows;
    } finally {
      await c.end();
    }
  };
  type Standby = { state: string; lag_ms: number | null; reads_standby: number; reads_primary: number; why: string };
  const standby = async (): Promise<Standby> =>
    (
      (await (await fetch(`${s.url}/admin/stats?f=json`, { headers: { authorization: `Bearer ${s.config.operatorTokens.poll}` } })).json()) as {
        standby: Standby;
      }
    ).standby;
  const metrics = async () => (await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${s.config.operatorTokens.poll}` } })).text();
  const publish = async (title: string): Promise<string> => {
    const r = await req(s, 'POST', '/k', {
      as: who,
      json: { error: `ModuleNotFoundError: No module named '${title}'`, fix: `pip install ${title}`, eco: 'pypi', title: `No module named ${title}` },
    });
    expect(r.status).toBe(201);
    return /^ok k\/(k[0-9a-z]{8})/.exec(await r.text())![1]!;
  };
  const anon = (id: string) => req(s, 'GET', `/k/${id}`, { net: '10.99.0.1' });
  /**
   * `n` new entries, replayed on the standby. Each is read once per round: the KB read memo (kept
   * from an entry's second read) would otherwise serve repeats from memory, on either server, and
   * the statement counts would no longer say where reads go.
   */
  const publishMany = async (title: string, n: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await publish(`${title}${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`));
    await until(async () => (await onStandby('SELECT 1 FROM kb_entries WHERE id = $1', [ids.at(-1)])).length === 1);
    return ids;
  };
  /**
   * `n` anonymous reads of `id` and the byId calls they added on each server. On a busy machine a
   * probe can answer late and send a few reads to the primary (the server counts them): then the
   * round is run again, up to 3 times, so the figures compared are of reads the standby was given.
   */
  const anonRound = async (title: string, n: number): Promise<{ primary: number; standby: number }> => {
    for (let round = 1; ; round++) {
      const ids = await publishMany(`${title}r${round}`, n);
      const fell = (await standby()).reads_primary;
      const [p0, s0] = [await calls(primaryUrl!), await calls(standbyUrl!)];
      for (const id of ids) expect((await anon(id)).status).toBe(200);
      const [p1, s1] = [await calls(primaryUrl!), await calls(standbyUrl!)];
      if ((await standby()).reads_primary === fell || round === 3) return { primary: p1 - p0, standby: s1 - s0 };
    }
  };
  const mine = (id: string) => req(s, 'GET', `/k/${id}`, { as: who });

  beforeAll(async () => {
    await primary.connect();
    await primary.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await primary.query(`CREATE DATABASE ${name}`);
    // The new database reaches the standby by replay.
    await until(async () => {
      try {
        await onStandby('SELECT 1');
        return true;
      } catch {
        return false;
      }
    });
    dir = mkdtempSync(join(tmpdir(), 'cx-rs-'));
    const config = loadConfig({
      CX_DATA: dir,
      PORT: '0',
      CATALOG_PORT: '0',
      HOST: '127.0.0.1',
      CX_POW_BITS: '8',
      CX_BASE_URL: 'http://commons.test',
      CX_DATABASE_URL: onDb(primaryUrl!, name),
      CX_DATABASE_READ_URL: onDb(standbyUrl!, name),
      CX_SEED: '0',
      CX_GIT_MIRROR: '0',
      CX_TRUST_PROXY: '1',
      CX_QUOTA_MULT: '1000',
    });
    running = await startServer(config, { logger: false });
    s = Object.assign(running, { dir, config, stop: () => running.close() }) as TestServer;
    who = await agent(s);
    await until(async () => (await standby()).state === 'ok');
  }, 60_000);

  afterAll(async () => {
    await running?.close().catch(() => undefined);
    // Whatever happened, the standby replays again (pg-test.sh's later runs share it).
    await onStandby('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await primary.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await primary.end().catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('anonymous KB reads are served by the standby, a token’s by the primary; the lag is in /metrics and /admin/stats', async () => {
    const id = await publish('zzqstandbyone');
    await until(async () => (await onStandby('SELECT 1 FROM kb_entries WHERE id = $1', [id])).length === 1);
    const round = await anonRound('zzqstandbyround', 20);
    expect(round.standby).toBeGreaterThanOrEqual(20);
    expect(round.primary).toBe(0);
    const own = await publishMany('zzqstandbymine', 5);
    const [p1, s1] = [await calls(primaryUrl!), await calls(standbyUrl!)];
    for (const x of own) expect((await mine(x)).status).toBe(200);
    const [p2, s2] = [await calls(primaryUrl!), await calls(standbyUrl!)];
    expect(p2 - p1).toBeGreaterThanOrEqual(5);
    expect(s2 - s1).toBe(0);
    // Search, the KB's feed and the KB index go the same way.
    let before = (await standby()).reads_standby;
    for (const path of ['/search?q=zzqstandbyone', '/f/kb.json', '/kb/?f=json']) {
      const r = await req(s, 'GET', path, { net: '10.99.0.1' });
      expect(r.status).toBe(200);
      if (path === '/f/kb.json') expect(await r.text()).toContain(own.at(-1)!); // the newest entry
      const now = (await standby()).reads_standby;
      expect(now, path).toBeGreaterThan(before);
      before = now;
    }
    const st = await standby();
    expect(st.state).toBe('ok');
    expect(st.lag_ms).not.toBeNull();
    expect(st.lag_ms!).toBeLessThanOrEqual(1000);
    expect(st.reads_standby).toBeGreaterThanOrEqual(21);
    const m = await metrics();
    expect(m).toMatch(/^cx_db_standby_up 1$/m);
    expect(m).toMatch(/^cx_db_standby_lag_seconds [0-9.e-]+$/m);
    expect(m).toMatch(/^cx_db_standby_reads_total\{server="standby"\} [1-9][0-9]*$/m);
    const txt = await (await fetch(`${s.url}/admin/stats`, { headers: { authorization: `Bearer ${s.config.operatorTokens.poll}` } })).text();
    expect(txt).toMatch(/^standby: state=ok lag_ms=\d+ reads_standby=\d+ reads_primary=\d+$/m);
  }, 60_000);

  it('a token reads its own entry at once while the standby lags; anonymous reads go to the primary past db.standby_lag, and back', async () => {
    await onStandby('SELECT pg_wal_replay_pause()');
    const id = await publish('zzqstandbytwo');
    // Read-your-writes: the token's read sees the entry the standby does not have.
    expect((await mine(id)).status).toBe(200);
    expect(await onStandby('SELECT 1 FROM kb_entries WHERE id = $1', [id])).toEqual([]);
    // Past the bound, anonymous reads are the primary's.
    await until(async () => (await standby()).state === 'lagging');
    const before = await standby();
    expect(before.lag_ms!).toBeGreaterThan(1000);
    expect(await metrics()).toMatch(/^cx_db_standby_up 0$/m);
    expect((await anon(id)).status).toBe(200);
    expect((await standby()).reads_primary).toBeGreaterThan(before.reads_primary);
    // Replaying again, the standby catches up and serves them again.
    await onStandby('SELECT pg_wal_replay_resume()');
    await until(async () => (await standby()).state === 'ok');
    expect((await anonRound('zzqstandbyback', 3)).standby).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('the standby stopped: reads fail over to the primary at once; started again, they return to it', async () => {
    const id = await publish('zzqstandbythree');
    await until(async () => (await onStandby('SELECT 1 FROM kb_entries WHERE id = $1', [id])).length === 1);
    execFileSync(ctl!, ['stop']);
    try {
      // The first read after the stop already answers (the standby's failure is retried on the primary).
      for (let i = 0; i < 10; i++) expect((await anon(id)).status).toBe(200);
      await until(async () => (await standby()).state === 'down');
      expect(await metrics()).toMatch(/^cx_db_standby_up 0$/m);
      // Entries written while it is down (the primary has them; none was read before), counted after.
      const down: string[] = [];
      for (let i = 0; i < 5; i++) down.push(await publish(`zzqstandbydown${String.fromCharCode(97 + i)}`));
      const p0 = await calls(primaryUrl!);
      for (const x of down) expect((await anon(x)).status).toBe(200);
      expect((await calls(primaryUrl!)) - p0).toBeGreaterThanOrEqual(5);
    } finally {
      execFileSync(ctl!, ['start']);
    }
    await until(async () => (await standby()).state === 'ok');
    const back = await anonRound('zzqstandbyup', 5);
    expect(back.standby).toBeGreaterThanOrEqual(5);
    expect(back.primary).toBe(0);
  }, 90_000);
});
