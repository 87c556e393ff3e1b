// Swarm port: subscriptions held up to a cap, cursors that move only forward and compare-and-set
// (of concurrent moves from the same point exactly one wins), a kv: entry written with its cursor
// move or not at all and never backwards, digest due times, the per-day credit cap, expiry, and
// retention of topic lines (bus topics `ps:…`) per topic, filter time added with cursor moves and
// a pause with its reason (filter budget), all persistent across a restart.
import { expect, it } from 'vitest';
import type { NewSub } from '../../src/core/swarm/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { identity, newId, together } from './fixtures.js';

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);
  const sub = (owner: string, t: number, o: Partial<NewSub> = {}): NewSub => ({
    id: newId('u', 9),
    owner,
    topic: 'g:t',
    sink: 'kv:n/k',
    target: null,
    filter: null,
    mode: 'each',
    hopMax: 4,
    creditsDay: 10,
    expires: t + 3_600_000,
    created: t,
    cursor: 0,
    ...o,
  });
  const entry = (owner: string, seq: number, value: string, t: number) => ({
    owner,
    ns: 'n',
    k: 'k',
    value,
    topic: 'g:t',
    seq,
    by: 'a000000',
    hop: 0,
    missed: 0,
    updated: t,
  });

  it("creates up to the cap per owner, lists by owner and by topic, cancels only the owner's; kept across a restart", async () => {
    const s = await open();
    const t = s.clock.now();
    const a = await identity(s.store, t);
    const b = await identity(s.store, t);
    const rows = [sub(a.id, t), sub(a.id, t + 1, { topic: 'g:u' })];
    for (const r of rows) expect(await s.store.swarm.create(r, 2)).toBe('ok');
    expect(await s.store.swarm.create(sub(a.id, t + 2), 2)).toBe('full');
    expect(await s.store.swarm.create(sub(b.id, t), 2)).toBe('ok');
    const again = await s.reopen();
    expect((await again.swarm.byOwner(a.id)).map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(await again.swarm.count(a.id)).toBe(2);
    expect((await again.swarm.onTopic('g:u')).map((r) => r.id)).toEqual([rows[1]!.id]);
    expect(await again.swarm.get(rows[0]!.id)).toMatchObject({ ...rows[0], delivered: 0, filtered: 0, missed: 0, dropped: 0, due: null, spent: 0 });
    expect(await again.swarm.cancel(rows[0]!.id, b.id)).toBe(false);
    expect(await again.swarm.cancel(rows[0]!.id, a.id)).toBe(true);
    expect(await again.swarm.get(rows[0]!.id)).toBeNull();
  });

  it('the cap holds under concurrent creates', async () => {
    const s = await open();
    const t = s.clock.now();
    const a = await identity(s.store, t);
    const r = await together(10, (i) => s.store.swarm.create(sub(a.id, t + i), 3));
    expect(r.filter((x) => x === 'ok')).toHaveLength(3);
    expect(await s.store.swarm.count(a.id)).toBe(3);
  });

  it('a cursor moves only from where it is: of concurrent moves from the same point one wins; counts add up', async () => {
    const s = await open();
    const t = s.clock.now();
    const a = await identity(s.store, t);
    const r = sub(a.id, t);
    await s.store.swarm.create(r, 10);
    const wins = (await together(8, () => s.store.swarm.advance(r.id, 0, 1, { delivered: 1 }))).filter(Boolean);
    expect(wins).toHaveLength(1);
    expect(await s.store.swarm.advance(r.id, 0, 2, { delivered: 1 })).toBe(false);
    expect(await s.store.swarm.advance(r.id, 1, 5, { filtered: 1, missed: 3 })).toBe(true);
    expect(await s.store.swarm.advance('u999999999', 0, 1, {})).toBe(false);
    const again = await s.reopen();
    expect(await again.swarm.get(r.id)).toMatchObject({ cursor: 5, delivered: 1, filtered: 1, missed: 3, dropped: 0 });
  });

  it('kv: the entry is written with its cursor move or not at all, once per line, never backwards', async () => {
    const s = await open();
    const t = s.clock.now();
    const a = await identity(s.store, t);
    const r = sub(a.id, t);
    await s.store.swarm.create(r, 10);
    expect(await s.store.swarm.kv(a.id, 'n', 'k')).toBeNull();
    expect(await s.store.swarm.kvDeliver(r.id, 0, 1, { delivered: 1 }, entry(a.id, 1, 'one', t))).toBe(true);
    // A stale delivery of the same line (cursor already moved): nothing written.
    expect(await s.store.swarm.kvDeliver(r.id, 0, 1, { delivered: 1 }, entry(a.id, 1, 'one again', t))).toBe(false);
    const wins = (await together(5, () => s.store.swarm.kvDeliver(r.id, 1, 2, { delivered: 1 }, entry(a.id, 2, 'two', t)))).filter(Boolean);
    expect(wins).toHaveLength(1);
    // Another subscription writing the same key with an older seq of the same topic: the entry stays.
    const r2 = sub(a.id, t, { cursor: 0 });
    await s.store.swarm.create(r2, 10);
    expect(await s.store.swarm.kvDeliver(r2.id, 0, 1, { delivered: 1 }, entry(a.id, 1, 'older', t))).toBe(true);
    const again = await s.reopen();
    expect(await again.swarm.kv(a.id, 'n', 'k')).toMatchObject({ value: 'two', seq: 2, writes: 2 });
    expect(await again.swarm.get(r.id)).toMatchObject({ cursor: 2, delivered: 2 });
  });

  it('digest due times: set once while pending, taken (and cleared) when due, set again', async () => {
    const s = await open();
    const t = s.clock.now();
    const a = await identity(s.store, t);
    const r = sub(a.id, t, { mode: 'digest' });
    await s.store.swarm.create(r, 10);
    await s.store.swarm.markDue([r.id], t + 600_000);
    await s.store.swarm.markDue([r.id], t + 900_000);
    expect((await s.store.swarm.get(r.id))!.due).toBe(t + 600_000);
    expect(await s.store.swarm.takeDue(t + 599_999, 10)).toEqual([]);
    const again = await s.reopen();
    expect(await again.swarm.takeDue(t + 600_000, 10)).toEqual([r.id]);
    expect(await again.swarm.takeDue(t + 600_000, 10)).toEqual([]);
    await again.swarm.setDue(r.id, t + 1_200_000);
    expect(await again.swarm.takeDue(t + 1_200_000, 10)).toEqual([r.id]);
  });

  it('credits per day: spent up to the cap, a new day starts again; concurrent spends never pass the cap', async () => {
    const s = await open();
    const t = s.clock.now();
    const a = await identity(s.store, t);
    const r = sub(a.id, t);
    await s.store.swarm.create(r, 10);
    const ok = (await together(6, () => s.store.swarm.spend(r.id, 100, 1, 4))).filter(Boolean);
    expect(ok).toHaveLength(4);
    expect(await s.store.swarm.spend(r.id, 100, 1, 4)).toBe(false);
    expect(await s.store.swarm.spend(r.id, 101, 3, 4)).toBe(true);
    expect(await s.store.swarm.spend(r.id, 101, 2, 4)).toBe(false);
  });

  it('filter time adds up with cursor moves (kv: deliveries too); a pause and its reason are kept, a later one replaces it', async () => {
    const s = await open();
    const t = s.clock.now();
    const a = await identity(s.store, t);
    const r = sub(a.id, t);
    await s.store.swarm.create(r, 10);
    expect(await s.store.swarm.get(r.id)).toMatchObject({ filterUs: 0, pausedUntil: null, pausedWhy: null });
    expect(await s.store.swarm.advance(r.id, 0, 1, { filtered: 1, filterUs: 1234.4 })).toBe(true);
    // A refused move adds nothing.
    expect(await s.store.swarm.advance(r.id, 0, 1, { filtered: 1, filterUs: 99 })).toBe(false);
    expect(await s.store.swarm.kvDeliver(r.id, 1, 2, { delivered: 1, filterUs: 766 }, entry(a.id, 2, 'two', t))).toBe(true);
    await s.store.swarm.pause(r.id, t + 3_600_000, 'filter over its time budget (300 ms in the last minute, over 250 ms)');
    let again = await s.reopen();
    expect(await again.swarm.get(r.id)).toMatchObject({
      cursor: 2,
      filtered: 1,
      delivered: 1,
      filterUs: 2000,
      pausedUntil: t + 3_600_000,
      pausedWhy: 'filter over its time budget (300 ms in the last minute, over 250 ms)',
    });
    expect((await again.swarm.byOwner(a.id))[0]).toMatchObject({ pausedUntil: t + 3_600_000 });
    await again.swarm.pause(r.id, t + 86_400_000, 'filter cost: credits short');
    again = await s.reopen();
    expect((await again.swarm.onTopic('g:t'))[0]).toMatchObject({ id: r.id, pausedUntil: t + 86_400_000, pausedWhy: 'filter cost: credits short' });
  });

  it('expiry deletes only expired subscriptions; page walks every one by id', async () => {
    const s = await open();
    const t = s.clock.now();
    const a = await identity(s.store, t);
    const old = sub(a.id, t, { expires: t - 1 });
    const live = sub(a.id, t, { expires: t + 1000 });
    await s.store.swarm.create(old, 10);
    await s.store.swarm.create(live, 10);
    const ids = [old.id, live.id].sort();
    expect((await s.store.swarm.page('', 1)).map((r) => r.id)).toEqual([ids[0]]);
    expect((await s.store.swarm.page(ids[0]!, 10)).map((r) => r.id)).toEqual([ids[1]]);
    expect(await s.store.swarm.expire(t)).toBe(1);
    expect(await s.store.swarm.get(old.id)).toBeNull();
    expect(await s.store.swarm.get(live.id)).not.toBeNull();
  });

  it('line retention: per ps: topic, older than the bound or beyond the newest keep go; other topics and seqs stay', async () => {
    const s = await open();
    for (let i = 0; i < 5; i++) await s.store.events.publish('ps:g:a', { i });
    s.clock.advance(10_000);
    for (let i = 0; i < 3; i++) await s.store.events.publish('ps:g:b', { i });
    for (let i = 0; i < 4; i++) await s.store.events.publish('tasks', { i });
    // Keep 2 per topic, and nothing older than 5 s.
    expect(await s.store.swarm.pruneLines(s.clock.now() - 5_000, 2)).toBe(5 + 1);
    expect((await s.store.events.read('ps:g:a', 0, 10)).map((e) => e.id)).toEqual([]);
    expect((await s.store.events.read('ps:g:b', 0, 10)).map((e) => e.id)).toEqual([2, 3]);
    expect(await s.store.events.read('tasks', 0, 10)).toHaveLength(4);
    // Seqs are not reused after a prune.
    expect((await s.store.events.publish('ps:g:a', {})).id).toBe(6);
  });

  it("of concurrent takers (replicas' digest tickers) each due subscription goes to exactly one", async () => {
    const s = await open();
    const t = s.clock.now();
    const a = await identity(s.store, t);
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) {
      const r = sub(a.id, t, { mode: 'digest' });
      await s.store.swarm.create(r, 20);
      ids.push(r.id);
    }
    await s.store.swarm.markDue(ids, t);
    const got = (await together(6, () => s.store.swarm.takeDue(t, 4))).flat();
    expect(got.sort()).toEqual([...ids].sort());
  });
}
