// Group writes on PostgreSQL (issue 38: src/store/pg/group.ts, events.ts, drops.ts). Concurrent
// content-origin records go in fewer statements than rows, every row committed before its call
// returns, the first record of a (kind, ref) kept; concurrent new drops likewise, each told whether
// it was written: of writers racing for one key exactly one wins, an expired row is taken over, a
// live one is not; concurrent publishes on one topic send fewer NOTIFYs than lines, and
// another replica's live listener still receives every line, in order, once.
// On PGlite always, on a real server with CX_PG_REAL (scripts/pg-test.sh).
import { beforeAll, describe, expect, it } from 'vitest';
import type { BusEvent } from '../../src/core/platform/events/ports.js';
import { pgAdmin } from '../../src/store/pg/admin.js';
import { pgDrops } from '../../src/store/pg/drops.js';
import type { DropRow } from '../../src/core/drops/ports.js';
import { pgEvents } from '../../src/store/pg/events.js';
import { migratePg } from '../../src/store/pg/migrate.js';
import type { Sql } from '../../src/store/pg/sql.js';
import { pgPair } from '../helpers/pg-pair.js';

const schema = `group${process.pid}`;

const { engines, onClose } = pgPair(schema, 8);

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

    it('50 concurrent new drops: fewer statements than drops; one key raced for has one winner; expired taken over, live kept', async () => {
      const drops = pgDrops(a);
      const now = Date.now();
      const row = (key: string, o: Partial<DropRow> = {}): DropRow => ({
        key: Buffer.from(key.padEnd(32, '.')),
        owner: null,
        wkey: null,
        nonce: Buffer.alloc(12, 1),
        ct: Buffer.from(`ciphertext of ${key}`),
        size: 10,
        exp: now + 60_000,
        reads: 1,
        once: false,
        masked: 0,
        ver: 1,
        created: now,
        ...o,
      });
      const before = a.counts().statements;
      const made = await Promise.all(Array.from({ length: 50 }, (_, i) => drops.create(row(`zzd${i}`, { owner: i % 2 ? 'a0owner' : null }), now)));
      const sent = a.counts().statements - before;
      console.log(`${engine.name}: 50 new drops in ${sent} statements`);
      expect(made.every(Boolean)).toBe(true);
      expect(sent).toBeLessThan(50);
      for (let i = 0; i < 50; i += 7) expect((await drops.get(row(`zzd${i}`).key, now))?.ct.toString()).toBe(`ciphertext of zzd${i}`);
      // Ten writers race for one key: exactly one writes it, and its body is the one stored.
      const raced = await Promise.all(Array.from({ length: 10 }, (_, i) => drops.create(row('zzrace', { ct: Buffer.from(`writer ${i}`) }), now)));
      expect(raced.filter(Boolean)).toHaveLength(1);
      expect((await drops.get(row('zzrace').key, now))?.ct.toString()).toBe(`writer ${raced.indexOf(true)}`);
      // A row past its expiry (not yet swept) is taken over; a live one is not.
      expect(await drops.create(row('zzold', { exp: now - 1 }), now - 10)).toBe(true);
      const [over, kept] = await Promise.all([
        drops.create(row('zzold', { ct: Buffer.from('new body') }), now),
        drops.create(row('zzd3', { ct: Buffer.from('intruder') }), now),
      ]);
      expect([over, kept]).toEqual([true, false]);
      expect((await drops.get(row('zzold').key, now))?.ct.toString()).toBe('new body');
      expect((await drops.get(row('zzd3').key, now))?.ct.toString()).toBe('ciphertext of zzd3');
    });

    it('100 concurrent publishes on one topic: fewer NOTIFYs than lines; the other replica hears every line, in order, once', async () => {
      let notifies = 0;
      const counting: Sql = { ...a, notify: (c, p) => (notifies++, a.notify(c, p)) };
      const ea = pgEvents(counting, Date.now);
      const eb = pgEvents(b, Date.now);
      await ea.start();
      await eb.start();
      onClose(async () => {
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
