// What replicas need from the PostgreSQL adapter beyond the ports: leadership across processes,
// and the pool pressure load shedding reads. Real-server cases are registered only with CX_PG_REAL
// (scripts/pg-test.sh): two stores on one schema stand for two replicas. One leads a name, the
// other cannot take it; when the leader's session ends (its process died: the server terminates
// the backend) the other's next try takes it; a clean close lets go at once; stores on other
// schemas do not contend.
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import type { Store } from '../../src/compose/store.js';
import { openPgStore } from '../../src/store/pg/index.js';

const url = process.env.CX_PG_REAL;
const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close().catch(() => undefined);
});
const replica = async (schema: string) => {
  const s = await openPgStore(url!, { allowPartial: true, schema, max: 4 });
  opened.push(s);
  return s;
};

// PGlite is one session in one process: two stores on one instance share it, so both lead (as on
// SQLite, where one process always leads); exclusion needs server sessions (below).
it('pglite: stores on one instance (one process) both lead; a name is one lock, let go once', async () => {
  const db = new PGlite();
  try {
    const a = await openPgStore({ pglite: db }, { allowPartial: true });
    const b = await openPgStore({ pglite: db }, { allowPartial: true });
    opened.push(a, b);
    expect(await a.leader.hold('sweeps')).toBe(true);
    expect(await a.leader.hold('sweeps')).toBe(true);
    expect(await b.leader.hold('sweeps')).toBe(true);
    await a.leader.release('sweeps');
    await b.leader.release('sweeps');
    // Each store took the session's lock once and let it go once: none is left.
    expect((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'")).rows[0]!.n).toBe(0);
  } finally {
    for (const s of opened.splice(0)) await s.close().catch(() => undefined);
    await db.close();
  }
});

if (url) {
  it('real server: one replica leads a name; a dead leader is replaced on the next try; other schemas do not contend', async () => {
    const schema = `lead${process.pid}`;
    const [a, b] = [await replica(schema), await replica(schema)];
    expect(await a.leader.hold('sweeps')).toBe(true);
    expect(await b.leader.hold('sweeps')).toBe(false);
    expect(await b.leader.hold('export')).toBe(true);
    expect(await a.leader.hold('export')).toBe(false);
    expect(await a.leader.hold('sweeps')).toBe(true);
    const other = await replica(`${schema}x`);
    expect(await other.leader.hold('sweeps')).toBe(true);
    // A's session is killed from outside, as when its process dies: the lock goes with it.
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const r = await c.query(
        "SELECT pg_terminate_backend(l.pid) AS ok FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objid = (hashtextextended($1, 0) & x'ffffffff'::bigint)::oid",
        [`cx.leader:${schema}:sweeps`],
      );
      expect(r.rows.map((x: { ok: boolean }) => x.ok)).toEqual([true]);
    } finally {
      await c.end();
    }
    // The next try: B takes it; A, when it tries again, finds it lost.
    let took = false;
    for (let i = 0; i < 50 && !took; i++) {
      took = await b.leader.hold('sweeps');
      if (!took) await new Promise((r) => setTimeout(r, 100));
    }
    expect(took).toBe(true);
    expect(await a.leader.hold('sweeps')).toBe(false);
    // A clean close lets go at once.
    await b.close();
    expect(await a.leader.hold('sweeps')).toBe(true);
  }, 30_000);
}

// Load shedding's db_busy on PostgreSQL: what counts is the pool's queue, a call's wait for a
// connection beyond shed.db_wait, not the time calls spend on the server (they do not block the loop).
if (url)
  it('real server: busyMs counts waits for a pooled connection beyond the floor, not time on the server', async () => {
    const { poolSql } = await import('../../src/store/pg/sql.js');
    const sql = await poolSql(url, { max: 1, waitFloorMs: 100 });
    try {
      // One slow call alone: it waited for nothing.
      await sql.query('SELECT pg_sleep(0.5)');
      expect(sql.busyMs()).toBe(0);
      // A second call behind it waits about 0.5 s for the only connection: about 0.4 s beyond the floor.
      await Promise.all([sql.query('SELECT pg_sleep(0.5)'), sql.query('SELECT 1')]);
      expect(sql.busyMs()).toBeGreaterThan(250);
      expect(sql.busyMs()).toBeLessThan(5000);
      // A query error leaves the connection in the pool, usable.
      await expect(sql.query('SELECT no_such_column')).rejects.toThrow(/no_such_column/);
      expect((await sql.query<{ ok: number }>('SELECT 1 AS ok')).rows[0]!.ok).toBe(1);
    } finally {
      await sql.close();
    }
  });
