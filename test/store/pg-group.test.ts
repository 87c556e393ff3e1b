// Group writes on PostgreSQL (issue 38: src/store/pg/group.ts, events.ts). Concurrent content-origin
// records go in fewer statements than rows, every row committed before its call returns, the first
// record of a (kind, ref) kept; concurrent publishes on one topic send fewer NOTIFYs than lines, and
// another replica's live listener still receives every line, in order, once.
// On PGlite always, on a real server with CX_PG_REAL (scripts/pg-test.sh).
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusEvent } from '../../src/core/platform/events/ports.js';
import { pgAdmin } from '../../src/store/pg/admin.js';
import { pgEvents } from '../../src/store/pg/events.js';
import { migratePg } from '../../src/store/pg/migrate.js';
import { pgliteSql, poolSql, type Sql } from '../../src/store/pg/sql.js';

const url = process.env.CX_PG_REAL;
const schema = `group${process.pid}`;
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
});

const engines: Array<{ name: string; open(): Promise<[Sql, Sql]> }> = [
  {
    name: 'pglite',
    async open() {
      const db = new PGlite();
      closers.push(() => db.close());
      return [await pgliteSql(db), await pgliteSql(db)];
    },
  },
];
if (url)
  engines.push({
    name: 'real server',
    async open() {
      const a = await poolSql(url, { schema, max: 8 });
      const b = await poolSql(url, { schema, max: 4 });
      closers.push(async () => {
        await a.exec(`DROP SCHEMA ${schema} CASCADE`);
        await a.close();
        await b.close();
      });
      return [a, b];
    },
  });

for (const engine of engines)
  describe(`${engine.name}: group writes`, () => {
    let a: Sql;
    let b: Sql;
    beforeAll(async () => {
      [a, b] = await engine.open();
      await migratePg(a);
    }, 120_000);

    it('50 concurrent origin records: fewer statements than rows, each committed when its call returns, the first of a ref kept', async () => {
      const admin = pgAdmin(a, pgEvents(a, Date.now), undefined, Date.now);
      const before = a.counts().statements;
      const at = Date.now();
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          admin.recordOrigin({ kind: 'line', ref: `zz${i}`, root: `a${i}`, net: '192.0.2.0/24', at }).then(async () => {
            // Committed before the call returned: readable at once, on any connection.
            expect((await admin.origins({ ref: `zz${i}` }, 5)).map((o) => o.root)).toEqual([`a${i}`]);
          }),
        ),
      );
      const sent = a.counts().statements - before - 50; // less the 50 reads of the check
      console.log(`${engine.name}: 50 origin rows in ${sent} statements`);
      expect(sent).toBeLessThan(50);
      expect(sent).toBeGreaterThan(0);
      // A ref recorded twice in one batch or after: the first record stays.
      await Promise.all([
        admin.recordOrigin({ kind: 'line', ref: 'zzdup', root: 'first', net: 'n', at }),
        admin.recordOrigin({ kind: 'line', ref: 'zzdup', root: 'second', net: 'n', at }),
      ]);
      await admin.recordOrigin({ kind: 'line', ref: 'zzdup', root: 'third', net: 'n', at });
      expect((await admin.origins({ ref: 'zzdup' }, 5)).map((o) => o.root)).toEqual(['first']);
    });

    it('100 concurrent publishes on one topic: fewer NOTIFYs than lines; the other replica hears every line, in order, once', async () => {
      let notifies = 0;
      const counting: Sql = { ...a, notify: (c, p) => (notifies++, a.notify(c, p)) };
      const ea = pgEvents(counting, Date.now);
      const eb = pgEvents(b, Date.now);
      await ea.start();
      await eb.start();
      closers.push(async () => {
        await ea.close();
        await eb.close();
      });
      const topic = `ps:zzgroup${engine.name.length}`;
      const got: BusEvent[] = [];
      const off = eb.on({ topic }, (e) => got.push(e));
      await Promise.all(Array.from({ length: 100 }, (_, i) => ea.publish(topic, { i })));
      const end = Date.now() + 10_000;
      while (got.length < 100 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      off();
      console.log(`${engine.name}: 100 lines, ${notifies} NOTIFYs`);
      expect(got.map((e) => e.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      expect(notifies).toBeLessThan(100);
    });
  });
