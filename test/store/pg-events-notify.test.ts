// Event-bus and job fan-out across replicas (issue 23): two stores on one database stand for two replicas.
// An event committed through one reaches the other's live subscribers through LISTEN/NOTIFY
// carrying only '<topic> <id>' (the body is read back by id), in order, with no duplicates.
// Runs on PGlite, and on a real server with scripts/pg-test.sh (CX_PG_REAL).
import { PGlite } from '@electric-sql/pglite';
import { afterEach, expect, it } from 'vitest';
import type { BusEvent } from '../../src/core/platform/events/ports.js';
import type { Store } from '../../src/compose/store.js';
import { openPgStore } from '../../src/store/pg/index.js';

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of opened.splice(0).reverse()) await f();
});

async function twoReplicas(real: boolean): Promise<[Store, Store]> {
  if (real) {
    const schema = `notify${process.pid}_${opened.length}`;
    const a = await openPgStore(process.env.CX_PG_REAL!, { allowPartial: true, schema });
    const b = await openPgStore(process.env.CX_PG_REAL!, { allowPartial: true, schema });
    opened.push(
      () => a.close(),
      () => b.close(),
    );
    return [a, b];
  }
  const db = new PGlite();
  opened.push(() => db.close());
  const a = await openPgStore({ pglite: db }, { allowPartial: true });
  const b = await openPgStore({ pglite: db }, { allowPartial: true });
  opened.push(
    () => a.close(),
    () => b.close(),
  );
  return [a, b];
}

const until = async (cond: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

// Notifications of concurrent commits arrive in any order. Here three events of a topic the
// listening replica never wrote commit (written as another replica's transactions would leave them)
// and their notifications arrive last first: all three are delivered, in id order, once each.
it('pglite: notifications heard out of order still deliver every event committed since the listener began', async () => {
  const db = new PGlite();
  opened.push(() => db.close());
  const b = await openPgStore({ pglite: db }, { allowPartial: true });
  opened.push(() => b.close());
  const before = Date.now() - 60_000;
  await db.query(`INSERT INTO event_heads (topic, head) VALUES ('ps:ooo', 1)`);
  await db.query(`INSERT INTO events (topic, id, time, payload) VALUES ('ps:ooo', 1, $1, '"history"')`, [before]);
  const got: BusEvent[] = [];
  const off = b.events.on({ topic: 'ps:ooo' }, (e) => got.push(e));
  const t = Date.now() + 1;
  await db.query(`UPDATE event_heads SET head = 4 WHERE topic = 'ps:ooo'`);
  for (const id of [2, 3, 4]) await db.query(`INSERT INTO events (topic, id, time, payload) VALUES ('ps:ooo', $1, $2, $3)`, [id, t, JSON.stringify(`e${id}`)]);
  for (const id of [4, 2, 3]) await db.query(`SELECT pg_notify('cx_events', $1)`, [`ps:ooo ${id}`]);
  await until(() => got.length >= 3);
  await new Promise((r) => setTimeout(r, 100));
  expect(got.map((e) => [e.id, e.payload])).toEqual([
    [2, 'e2'],
    [3, 'e3'],
    [4, 'e4'],
  ]);
  off();
});

// The real server is one more case only where scripts/pg-test.sh provides it (as in adapters.ts).
for (const real of process.env.CX_PG_REAL ? [false, true] : [false])
  it(`${real ? 'real server' : 'pglite'}: a line published on one replica reaches a subscriber on another, live, in order`, async () => {
    const [a, b] = await twoReplicas(real);
    const exact: BusEvent[] = [];
    const prefixed: BusEvent[] = [];
    const offExact = b.events.on({ topic: 'ps:news' }, (e) => exact.push(e));
    const offPrefix = b.events.on({ prefix: 'ps:' }, (e) => prefixed.push(e));
    // Concurrent publishers on replica A; replica B never writes the topic.
    await Promise.all([1, 2, 3, 4, 5].map((i) => a.events.publish('ps:news', { i })));
    await a.events.publish('ps:other', 'x');
    await until(() => exact.length === 5 && prefixed.length === 6);
    expect(exact.map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
    expect(exact.map((e) => (e.payload as { i: number }).i).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(prefixed.filter((e) => e.topic === 'ps:news').map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
    // A subscription (the stream form) on B gets what A publishes next, once each.
    const ac = new AbortController();
    const got: BusEvent[] = [];
    const done = (async () => {
      for await (const e of b.events.subscribe({ topic: 'ps:news' }, { resume: { 'ps:news': 5 }, signal: ac.signal })) got.push(e);
    })();
    await a.events.publish('ps:news', 'six');
    await b.events.publish('ps:news', 'seven');
    await until(() => got.length === 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(got.map((e) => [e.id, e.payload])).toEqual([
      [6, 'six'],
      [7, 'seven'],
    ]);
    expect(exact.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    ac.abort();
    await done;
    offExact();
    offPrefix();
  });

// The real server is one more case only where scripts/pg-test.sh provides it (as in adapters.ts).
for (const real of process.env.CX_PG_REAL ? [false, true] : [false])
  it(`${real ? 'real server' : 'pglite'}: a job enqueued on one replica wakes the workers of another`, async () => {
    const [a, b] = await twoReplicas(real);
    let woken = 0;
    const off = b.jobs.onReady('mail', () => void woken++);
    await a.jobs.enqueue('other', {});
    await a.jobs.enqueue('mail', { to: 'x' });
    await until(() => woken > 0);
    const got = await b.jobs.lease('mail', 10_000, 5);
    expect(got.map((j) => j.payload)).toEqual([{ to: 'x' }]);
    off();
  });
