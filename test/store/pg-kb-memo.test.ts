// The KB read memo on PostgreSQL (issue 38: src/store/pg/kb.ts, kb-gen.ts). Two KB repositories on
// one database, each on its own connections, stand for two replicas. A hot signature is answered
// from memory (the same frozen array, no statement sent); a local write gives a new answer; the
// other replica's writes (an entry added, an outcome, an entry hidden, a purge's `changed`) reach
// the memo as soon as their NOTIFY arrives, while a change written behind the KB's back (no
// notification) is not seen until something moves the generation: the memo really serves. Real
// server only: a replica whose session connection was lost starts afresh once it is back. Reads
// from a standby let go once more, after the standby has had time to replay the write.
// On PGlite always, on a real server with CX_PG_REAL (scripts/pg-test.sh).
import { createHash } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/compose/store.js';
import type { KbHit, NewEntry } from '../../src/core/kb/ports.js';
import { limit } from '../../src/core/kernel/limits.js';
import { pgKb, type PgKb } from '../../src/store/pg/kb.js';
import { migratePg } from '../../src/store/pg/migrate.js';
import type { Sql } from '../../src/store/pg/sql.js';
import { pgPair } from '../helpers/pg-pair.js';
import { newId, vote } from '../contract/fixtures.js';

const url = process.env.CX_PG_REAL;
const schema = `kbmemo${process.pid}`;
const SIG = 'py:ModuleNotFoundError:zzmemo';
const H = createHash('sha256').update(SIG).digest('hex');
const entry = (o: Partial<NewEntry> = {}): NewEntry => ({
  id: newId('k', 6),
  sig: SIG,
  h: H,
  title: 'No module named zzmemo',
  error: "ModuleNotFoundError: No module named 'zzmemo'",
  fix: 'pip install zzmemo',
  eco: 'pypi',
  cls: 'ModuleNotFoundError',
  tags: ['python'],
  libs: [{ name: 'zzmemo', ver: '1.0' }],
  author: 'a_author',
  created: Date.now(),
  ...o,
});

const { engines, onClose } = pgPair(schema);

/** Polls `read` until `ok`; the milliseconds it took. */
async function within(read: () => Promise<KbHit[]>, ok: (rows: KbHit[]) => boolean, ms: number): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (ok(await read())) return Date.now() - t0;
    if (Date.now() - t0 > ms) throw new Error(`not seen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

for (const engine of engines)
  describe(`${engine.name}: KB read memo`, () => {
    let sqlA: Sql;
    let sqlB: Sql;
    let a: PgKb;
    let b: PgKb;
    const lookup = () => a.byHash(H, 5, false);
    const ids = (rows: KbHit[]) => rows.map((r) => r.id).sort();
    // Well under kb.memo_ttl: what is seen this fast was told, not timed out.
    const PROMPT = Math.min(1500, limit('kb.memo_ttl') / 3);

    beforeAll(async () => {
      [sqlA, sqlB] = await engine.open();
      await migratePg(sqlA);
      a = pgKb(sqlA);
      b = pgKb(sqlB);
      await a.start();
      await b.start();
      onClose(async () => {
        await a.close();
        await b.close();
      });
    }, 120_000);

    it('a hot signature is the same frozen array with no statement sent; a local write gives a new one', async () => {
      const first = await a.insert(entry());
      await lookup(); // first sight: read, not kept (the doorkeeper)
      const kept = await lookup();
      expect(ids(kept)).toEqual([first!.id]);
      expect(Object.isFrozen(kept)).toBe(true);
      const sent = sqlA.counts().statements;
      for (let i = 0; i < 20; i++) expect(await lookup()).toBe(kept);
      expect(sqlA.counts().statements).toBe(sent);
      // The other lookups and reads memoized as on SQLite: none sends a statement when asked again.
      for (const read of [() => a.byLib('zzmemo', 10), () => a.search('zzmemo', 10), () => a.digestsOf('zzmemo', 10), () => a.retrieve(['zzmemo'], 10)])
        await read();
      const before = sqlA.counts().statements;
      await Promise.all([a.byLib('zzmemo', 10), a.search('zzmemo', 10), a.digestsOf('zzmemo', 10), a.retrieve(['zzmemo'], 10)]);
      expect(sqlA.counts().statements).toBe(before);
      // A whole entry by id (the answer path reads candidates so): kept from its second read, frozen.
      await a.byId(first!.id);
      const e = await a.byId(first!.id);
      expect(Object.isFrozen(e)).toBe(true);
      const beforeId = sqlA.counts().statements;
      expect(await a.byId(first!.id)).toBe(e);
      expect(sqlA.counts().statements).toBe(beforeId);
      // A write here: the next answer is read again, and holds it.
      const second = await a.insert(entry({ title: 'No module named zzmemo (second)' }));
      const now = await lookup();
      expect(now).not.toBe(kept);
      expect(ids(now)).toEqual([first!.id, second!.id].sort());
    });

    it("another replica's writes reach the memo as soon as their notification arrives; a change with none is not seen", async () => {
      let rows = await lookup();
      await lookup();
      // B adds an entry of the signature.
      const added = (await b.insert(entry({ title: 'No module named zzmemo (from B)' })))!;
      const took = await within(lookup, (r) => r.some((x) => x.id === added.id), PROMPT);
      console.log(`${engine.name}: another replica's new entry seen after ${took} ms (kb.memo_ttl ${limit('kb.memo_ttl')} ms)`);
      // B records an outcome: A's answer shows the confirmation (and ranks it first).
      rows = await lookup();
      expect(rows.find((x) => x.id === added.id)!.confirms).toBe(0);
      expect(await vote({ kb: b } as unknown as Store, added.id, 'a_voter1', true, Date.now())).toBe('new');
      await within(lookup, (r) => r[0]!.id === added.id && r[0]!.confirms === 1, PROMPT);
      // B hides it: gone from A's answer.
      expect(await b.setHidden(added.id, true)).toBe(true);
      await within(lookup, (r) => !r.some((x) => x.id === added.id), PROMPT);

      // Written behind the KB's back (no NOTIFY): A keeps serving what it holds...
      const before = await lookup();
      const renamed = before[0]!.id;
      await sqlB.query("UPDATE kb_entries SET title = 'renamed behind its back' WHERE id = $1", [renamed]);
      await new Promise((r) => setTimeout(r, 200));
      expect(await lookup()).toBe(before);
      // ...until a replica says the KB changed (what a purge does, src/store/pg/admin.ts).
      b.changed();
      await within(lookup, (r) => r.find((x) => x.id === renamed)?.title === 'renamed behind its back', PROMPT);
    });

    if (engine.name === 'pglite')
      it('reads from a standby: moved by a write at once, and again once the standby has had time to replay it (db.standby_lag + 3 probes)', async () => {
        // The reading twin on A's own connection stands for a standby (what is tested is when its memo lets go).
        const twin = a.reading(sqlA);
        const read = () => twin.byHash(H, 5, false);
        const replay = limit('db.standby_lag') + 3 * limit('db.standby_probe');
        b.changed(); // another replica's write...
        await new Promise((r) => setTimeout(r, 50));
        const t0 = Date.now();
        await read();
        const kept = await read(); // ...read from a standby that has not replayed it yet: kept
        const id = kept[0]!.id;
        // The standby replays it now (written behind the KB's back: nothing else moves).
        await sqlB.query("UPDATE kb_entries SET title = 'replayed late' WHERE id = $1", [id]);
        expect(await read()).toBe(kept);
        await within(read, (r) => r.find((x) => x.id === id)?.title === 'replayed late', limit('kb.memo_ttl'));
        // Let go by the second move (due `replay` after the write), before kb.memo_ttl would have.
        expect(Date.now() - t0).toBeGreaterThan(replay - 500);
        expect(Date.now() - t0).toBeLessThan(limit('kb.memo_ttl') - 500);
      });

    if (engine.name === 'real server')
      it('a replica whose session connection (its LISTEN) was lost starts afresh once it is back', async () => {
        const before = await lookup();
        await lookup();
        const id = before[0]!.id;
        // Changed with no notification, as one lost while the connection was down would be.
        await sqlB.query("UPDATE kb_entries SET title = 'changed while A was deaf' WHERE id = $1", [id]);
        await new Promise((r) => setTimeout(r, 100));
        expect(await lookup()).toBe(before);
        // A's session connection is killed from outside (A's and B's share an application name: both go).
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        try {
          const r = await c.query('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1', [`cx session ${schema}`]);
          expect(r.rows.length).toBeGreaterThan(0);
        } finally {
          await c.end();
        }
        const took = await within(lookup, (r) => r.find((x) => x.id === id)?.title === 'changed while A was deaf', limit('kb.memo_ttl') / 2);
        console.log(`real server: a lost session connection: the memo started afresh after ${took} ms`);
      });
  });
