// The hot paths' database cost on PostgreSQL (issue 38). Quota leases on PGlite (always) and a real
// server (CX_PG_REAL, scripts/pg-test.sh): several quota repositories on one database stand for
// replicas; a trigger counts the rows written to quota_buckets. A steady caller writes once per
// lease, not per take; concurrent takers on 3 replicas never get more than the bucket granted, and
// over a window at most one lease per replica beyond it; takes of many new buckets at once share a
// statement; a refused caller writes nothing until the bucket can hold its cost again. Real server
// only: statements are prepared once per connection (pg_prepared_statements), not with prepare
// off, and one whose table changed under it is re-run; a store keeps ONE session connection for
// its LISTEN channels and its leadership locks.
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limit } from '../../src/core/kernel/limits.js';
import type { QuotaRepo } from '../../src/core/platform/quota/ports.js';
import { openPgStore } from '../../src/store/pg/index.js';
import { migratePg } from '../../src/store/pg/migrate.js';
import { pgQuotas } from '../../src/store/pg/quotas.js';
import { pgliteSql, poolSql, type Sql } from '../../src/store/pg/sql.js';

const url = process.env.CX_PG_REAL;
const LEASE = limit('quota.lease');
// A bucket big enough for full leases (the share of its capacity is more than quota.lease).
const CAP = Math.ceil((LEASE * 2) / limit('quota.lease_share'));
const SLOW = 1e-9; // tokens per ms: no refill within a test

/** Rows written to quota_buckets (inserted or updated), counted by a trigger. */
async function countWrites(sql: Sql): Promise<() => Promise<number>> {
  await sql.exec(`
    CREATE TABLE IF NOT EXISTS t_qwrites (n int8 NOT NULL);
    DELETE FROM t_qwrites; INSERT INTO t_qwrites VALUES (0);
    CREATE OR REPLACE FUNCTION t_qcount() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE t_qwrites SET n = n + 1; RETURN NULL; END $$;
    DROP TRIGGER IF EXISTS t_qcount ON quota_buckets;
    CREATE TRIGGER t_qcount AFTER INSERT OR UPDATE ON quota_buckets FOR EACH ROW EXECUTE FUNCTION t_qcount();`);
  return async () => (await sql.query<{ n: number }>('SELECT n FROM t_qwrites')).rows[0]!.n;
}

const engines: Array<{ name: string; open(): Promise<Sql> }> = [
  {
    name: 'pglite',
    async open() {
      const db = new PGlite();
      closers.push(() => db.close());
      return pgliteSql(db);
    },
  },
];
if (url)
  engines.push({
    name: 'real server',
    async open() {
      const sql = await poolSql(url, { schema: `hot${process.pid}`, max: 4 });
      closers.push(async () => {
        await sql.exec(`DROP SCHEMA hot${process.pid} CASCADE`);
        await sql.close();
      });
      return sql;
    },
  });
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
});

for (const engine of engines)
  describe(`${engine.name}: quota leases`, () => {
    let sql: Sql;
    let writes: () => Promise<number>;
    let n = 0;
    const fresh = () => `hot|k${n++}`;
    const replicas = (k: number): QuotaRepo[] => Array.from({ length: k }, () => pgQuotas(sql));
    // A PGlite instance and its migrations take seconds (more on a loaded machine): once per engine.
    beforeAll(async () => {
      sql = await engine.open();
      await migratePg(sql);
      writes = await countWrites(sql);
    }, 120_000);

    it('a steady caller writes the bucket once per lease, not per request; within a lease a take is synchronous', async () => {
      const [q] = replicas(1);
      const id = fresh();
      const w0 = await writes();
      const t = Date.now();
      for (let i = 0; i < 5 * LEASE; i++) expect(await q!.take(id, 1, CAP, SLOW, t)).toBe(0);
      expect((await writes()) - w0).toBe(5);
      // Inside a lease: answered without a promise (no round trip).
      expect(await q!.take(id, 1, CAP, SLOW, t)).toBe(0);
      expect(typeof q!.take(id, 1, CAP, SLOW, t)).toBe('number');
      // A small bucket (its share is below 2 tokens) is taken one request at a time, as before.
      const small = fresh();
      const w1 = await writes();
      for (let i = 0; i < 10; i++) expect(await q!.take(small, 1, 10, SLOW, t)).toBe(0);
      expect(await q!.take(small, 1, 10, SLOW, t)).toBeGreaterThan(0);
      expect((await writes()) - w1).toBe(11);
    });

    it('3 replicas under concurrent load: never more than the bucket grants; in a window at most one lease per replica beyond it', async () => {
      const qs = replicas(3);
      const id = fresh();
      const t0 = Date.now();
      // 3 x CAP concurrent takes, spread over the replicas.
      const got = await Promise.all(Array.from({ length: 3 * CAP }, (_, i) => qs[i % 3]!.take(id, 1, CAP, SLOW, t0)));
      const granted = got.filter((w) => w === 0).length;
      // Every token spent came out of the one bucket; what is left stranded in leases is at most one each.
      expect(granted).toBeLessThanOrEqual(CAP);
      expect(granted).toBeGreaterThanOrEqual(CAP - 3 * LEASE);
      // The window bound: the bucket refills (at 1 token/ms here) while each replica still holds what
      // is left of a lease. From the window's start, the replicas grant at most what the bucket holds
      // then plus one lease each.
      const id2 = fresh();
      const rate = 1; // tokens per ms
      for (const q of qs) expect(await q.take(id2, 1, CAP, rate, t0)).toBe(0); // each holds LEASE - 1
      const t1 = t0 + CAP; // the bucket is full again
      const inWindow = await Promise.all(Array.from({ length: 3 * CAP }, (_, i) => qs[i % 3]!.take(id2, 1, CAP, rate, t1)));
      const spent = inWindow.filter((w) => w === 0).length;
      expect(spent).toBeGreaterThan(CAP); // the leases did carry over...
      expect(spent).toBeLessThanOrEqual(CAP + 3 * LEASE); // ...by at most one lease per replica
    });

    it('takes of many new buckets at once go to the database in a few statements, not one each', async () => {
      const [q] = replicas(1);
      const t = Date.now();
      const w0 = await writes();
      const s0 = sql.counts().statements;
      const got = await Promise.all(Array.from({ length: 60 }, () => q!.take(fresh(), 1, CAP, SLOW, t)));
      const sent = sql.counts().statements - s0;
      expect(got.every((w) => w === 0)).toBe(true);
      expect((await writes()) - w0).toBe(60);
      // The first goes alone; the others, asked meanwhile, together (with the first prune of full buckets).
      expect(sent).toBeLessThanOrEqual(3);
    });

    it("a refused caller writes nothing more until the bucket can hold its cost again; the wait is the bucket's", async () => {
      const [q] = replicas(1);
      const id = fresh();
      const t = Date.now();
      const rate = 1 / 1000;
      for (let i = 0; i < 5; i++) expect(await q!.take(id, 1, 5, rate, t)).toBe(0);
      expect(await q!.take(id, 1, 5, rate, t)).toBe(1000);
      const w0 = await writes();
      for (let i = 0; i < 50; i++) expect(await q!.take(id, 1, 5, rate, t + i)).toBe(1000 - i);
      expect((await writes()) - w0).toBe(0);
      // Once the wait is over, the database is asked again and grants.
      expect(await q!.take(id, 1, 5, rate, t + 1000)).toBe(0);
    });
  });

if (url)
  describe('real server: statements and sessions', () => {
    it('statements are prepared once per connection (named); with prepare off, none are', async () => {
      const on = await poolSql(url, { max: 1 });
      const off = await poolSql(url, { max: 1, prepare: false });
      try {
        for (let i = 0; i < 3; i++) await on.query('SELECT $1::int AS x', [i]);
        const mine = await on.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
        expect(mine.rows.map((r) => r.statement)).toContain('SELECT $1::int AS x');
        expect(on.counts()).toMatchObject({ statements: 4, prepared: 4 });
        for (let i = 0; i < 3; i++) await off.query('SELECT $1::int AS x', [i]);
        expect((await off.query('SELECT statement FROM pg_prepared_statements')).rows).toEqual([]);
        expect(off.counts().prepared).toBe(0);
      } finally {
        await on.close();
        await off.close();
      }
    });

    it('a prepared statement whose table changed under it (a newer replica migrated) is re-run on a fresh connection, not failed', async () => {
      const schema = `stale${process.pid}`;
      const sql = await poolSql(url, { schema, max: 1 });
      try {
        await sql.exec('CREATE TABLE t (a int); INSERT INTO t VALUES (1)');
        expect((await sql.query('SELECT * FROM t')).rows).toEqual([{ a: 1 }]);
        await sql.exec('ALTER TABLE t ADD COLUMN b int');
        // The server refuses the cached plan once ("cached plan must not change result type").
        expect((await sql.query('SELECT * FROM t')).rows).toEqual([{ a: 1, b: null }]);
      } finally {
        await sql.exec(`DROP SCHEMA ${schema} CASCADE`);
        await sql.close();
      }
    });

    it('a store keeps one session connection for its LISTEN channels and its leadership', async () => {
      const schema = `sess${process.pid}`;
      const s = await openPgStore(url, { allowPartial: true, schema, max: 2 });
      const other = await openPgStore(url, { allowPartial: true, schema, max: 2 });
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        expect(await s.leader.hold('sweeps')).toBe(true);
        expect(await other.leader.hold('sweeps')).toBe(false);
        // Two stores (replicas), one session each (three before: two LISTEN, one for the locks).
        const r = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [`cx session ${schema}`]);
        expect(r.rows[0]!.n).toBe(2);
        // Another replica's events still reach this one over it (the bus LISTENs there).
        const heard: unknown[] = [];
        const off = s.events.on({ topic: 'hot.t' }, (e) => heard.push(e.payload));
        await other.events.publish('hot.t', { a: 1 });
        const until = Date.now() + 5000;
        while (!heard.length && Date.now() < until) await new Promise((res) => setTimeout(res, 50));
        off();
        expect(heard).toEqual([{ a: 1 }]);
        await s.leader.release('sweeps');
        // Closed, a store's session goes (the server's backend exits a moment after the socket closes).
        await other.close();
        const sessions = async () =>
          (await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [`cx session ${schema}`])).rows[0]!.n;
        const deadline = Date.now() + 10_000;
        while ((await sessions()) !== 1 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
        expect(await sessions()).toBe(1);
      } finally {
        await other.close();
        await s.close();
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await c.end();
      }
    });
  });
