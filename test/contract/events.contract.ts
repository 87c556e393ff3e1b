// Event bus: gapless per-topic ids in commit order, topic and prefix subscriptions, resume (also
// after a restart and while events are being published), events only from committed writes,
// bounded retention, and a slow subscriber that gets everything without unbounded buffering.
import { expect, it } from 'vitest';
import type { BusEvent, EventBus, Resume, TopicSelector } from '../../src/core/platform/events/ports.js';
import { escrowTx } from '../../src/core/platform/ledger/ledger.js';
import { limit } from '../../src/core/kernel/limits.js';
import { TASKS_TOPIC, taskEmit, type TaskEvent } from '../../src/core/tasks/events.js';
import type { NewTask } from '../../src/core/tasks/ports.js';
import { type Adapter, storeFor } from './adapters.js';

/** Subscribes and collects events in the background; `until(n)` waits for n of them. */
function collect(bus: EventBus, sel: TopicSelector, resume?: Resume, onEach?: (e: BusEvent, got: BusEvent[]) => Promise<void> | void) {
  const ac = new AbortController();
  const got: BusEvent[] = [];
  const sub = bus.subscribe(sel, { resume, signal: ac.signal });
  let waiter = null as { n: number; res: () => void } | null;
  const done = (async () => {
    for await (const e of sub) {
      got.push(e);
      await onEach?.(e, got);
      if (waiter && got.length >= waiter.n) waiter.res();
    }
  })();
  return {
    sub,
    got,
    async until(n: number, ms = 10_000) {
      if (got.length < n)
        await new Promise<void>((res, rej) => {
          const t = setTimeout(() => rej(new Error(`got ${got.length} of ${n} events`)), ms);
          waiter = { n, res: () => (clearTimeout(t), res()) };
        });
      return got;
    },
    async stop() {
      ac.abort();
      await done;
    },
  };
}

const ids = (es: BusEvent[], topic?: string) => es.filter((e) => topic === undefined || e.topic === topic).map((e) => e.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** Lets pending deliveries run (a negative check: nothing more arrives). */
const settle = () => new Promise((r) => setTimeout(r, 50));

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('ids are gapless and monotonic per topic, stamped with the clock; read pages after an id', async () => {
    const s = await open();
    const bus = s.store.events;
    expect(await bus.head('a')).toBe(0);
    const a1 = await bus.publish('a', { k: 1 });
    const b1 = await bus.publish('b', 'x');
    s.clock.advance(1000);
    const a2 = await bus.publish('a', { k: 2 });
    const a3 = await bus.publish('a', null);
    expect([a1.id, a2.id, a3.id, b1.id]).toEqual([1, 2, 3, 1]);
    expect(a1).toEqual({ topic: 'a', id: 1, time: s.clock.now() - 1000, payload: { k: 1 } });
    expect(a2.time).toBe(s.clock.now());
    expect(await bus.head('a')).toBe(3);
    expect(await bus.head('b')).toBe(1);
    expect(await bus.read('a', 0, 10)).toEqual([a1, a2, a3]);
    expect(ids(await bus.read('a', 1, 1))).toEqual([2]);
    expect(await bus.read('a', 3, 10)).toEqual([]);
    // Concurrent publishers still get distinct consecutive ids.
    const many = await Promise.all(Array.from({ length: 50 }, (_, i) => bus.publish('c', i)));
    expect(many.map((e) => e.id).sort((x, y) => x - y)).toEqual(range(1, 50));
    expect(ids(await bus.read('c', 0, 100))).toEqual(range(1, 50));
  });

  it('a topic subscription gets that topic live, a prefix one every topic under it, each in order; abort ends them', async () => {
    const s = await open();
    const bus = s.store.events;
    await bus.publish('x.a', 'before');
    const one = collect(bus, { topic: 'x.a' });
    const pre = collect(bus, { prefix: 'x.' });
    const seen: BusEvent[] = [];
    const off = bus.on({ prefix: 'x.' }, (e) => seen.push(e));
    for (let i = 0; i < 5; i++) {
      await bus.publish('x.a', i);
      await bus.publish('x.b', i);
      await bus.publish('y.a', i);
    }
    await one.until(5);
    await pre.until(10);
    await settle();
    expect(one.got.map((e) => [e.topic, e.id, e.payload])).toEqual(range(0, 4).map((i) => ['x.a', i + 2, i]));
    expect(ids(pre.got, 'x.a')).toEqual(range(2, 6));
    expect(ids(pre.got, 'x.b')).toEqual(range(1, 5));
    expect(pre.got).toHaveLength(10);
    expect(seen).toEqual(pre.got);
    off();
    await bus.publish('x.b', 'after off');
    await one.stop();
    await bus.publish('x.a', 'after stop');
    await pre.until(12);
    await settle();
    expect(seen).toHaveLength(10);
    expect(one.got).toHaveLength(5);
    await pre.stop();
  });

  it('resume replays what was missed, then live; also after a restart; prefix resume is per topic', async () => {
    const s = await open();
    for (let i = 1; i <= 5; i++) await s.store.events.publish('r.a', i);
    for (let i = 1; i <= 3; i++) await s.store.events.publish('r.b', i);
    const first = collect(s.store.events, { topic: 'r.a' }, { 'r.a': 0 });
    await first.until(5);
    await first.stop();
    const seen = first.got.at(-2)!.id; // pretend the last one was lost in transit
    expect(seen).toBe(4);
    const bus = await s.reopen();
    await bus.events.publish('r.a', 6);
    const again = collect(bus.events, { topic: 'r.a' }, { 'r.a': seen });
    await again.until(2);
    await bus.events.publish('r.a', 7);
    await again.until(3);
    expect(again.got.map((e) => e.payload)).toEqual([5, 6, 7]);
    expect(ids(again.got)).toEqual([5, 6, 7]);
    await again.stop();
    // Prefix: r.a resumes after 6, r.b (not in the map) starts live.
    const pre = collect(bus.events, { prefix: 'r.' }, { 'r.a': 6, 'q.z': 0 });
    await pre.until(1);
    await bus.events.publish('r.b', 4);
    await pre.until(2);
    await settle();
    expect(pre.got.map((e) => [e.topic, e.id])).toEqual([
      ['r.a', 7],
      ['r.b', 4],
    ]);
    await pre.stop();
  });

  it('events published during a replay are neither lost nor duplicated', async () => {
    const s = await open();
    const bus = s.store.events;
    const N = 600; // more than one read-back page
    for (let i = 1; i <= N; i++) await bus.publish('race', i);
    let extra = 0;
    // Every 7th replayed event, publish two more while the replay is still under way.
    const c = collect(bus, { topic: 'race' }, { race: 10 }, async (_e, got) => {
      if (got.length % 7 === 0 && extra < 200) {
        extra += 2;
        await Promise.all([bus.publish('race', 'live'), bus.publish('race', 'live')]);
      }
    });
    await c.until(N - 10 + 200);
    await settle();
    expect(extra).toBe(200);
    expect(ids(c.got)).toEqual(range(11, N + 200));
    await c.stop();
  });

  it('a write that rolls back emits nothing and leaves no gap; a committed one emits once', async () => {
    const s = await open();
    const { store, clock } = s;
    const live = collect(store.events, { topic: TASKS_TOPIC });
    const draft = (id: string): NewTask => ({
      id,
      title: 'a task',
      body: '',
      tags: ['x'],
      creator: 'anobody',
      space: null,
      bounty: 'b00000001',
      credits: 5,
      created: clock.now(),
    });
    // The escrow cannot be paid (no balance): the whole write rolls back, its event with it.
    const short = await store.tasks.insert(draft('t00000001'), escrowTx('b00000001', 'anobody', 5), clock.now(), taskEmit);
    expect(short).toEqual({ short: 'anobody' });
    expect(await store.events.head(TASKS_TOPIC)).toBe(0);
    const ok = await store.tasks.insert({ ...draft('t00000002'), bounty: null, credits: 0 }, null, clock.now(), taskEmit);
    if (typeof ok === 'string' || 'short' in ok) throw new Error('insert failed');
    // A compare-and-set that finds the task moved writes nothing and emits nothing.
    expect(await store.tasks.transition(ok.id, { state: 'claimed' }, { state: 'done' }, null, clock.now(), taskEmit)).toBe('stale');
    clock.advance(5);
    const claimed = await store.tasks.transition(
      ok.id,
      { state: 'open', claimant: null },
      { state: 'claimed', claimant: 'aclaim', claimed: clock.now() },
      null,
      clock.now(),
      taskEmit,
    );
    expect(claimed).toMatchObject({ state: 'claimed' });
    await live.until(2);
    await settle();
    const want: TaskEvent[] = [
      { n: ok.n, id: ok.id, state: 'open', title: 'a task', tags: ['x'], claimant: null, updated: ok.updated },
      { n: ok.n, id: ok.id, state: 'claimed', title: 'a task', tags: ['x'], claimant: 'aclaim', updated: clock.now() },
    ];
    expect(live.got.map((e) => [e.id, e.payload])).toEqual([
      [1, want[0]],
      [2, want[1]],
    ]);
    expect((await store.events.read(TASKS_TOPIC, 0, 10)).map((e) => e.payload)).toEqual(want);
    await live.stop();
  });

  it('retention prunes by age and by count per topic; ids are never reused, also after a restart', async () => {
    const s = await open();
    const bus = s.store.events;
    for (let i = 1; i <= 5; i++) await bus.publish('old', i);
    s.clock.advance(2 * 3_600_000);
    for (let i = 6; i <= 10; i++) await bus.publish('old', i);
    for (let i = 1; i <= 3; i++) await bus.publish('other', i);
    // Older than an hour: the first five of `old`.
    expect(await bus.prune(s.clock.now() - 3_600_000, 1000)).toBe(5);
    expect(ids(await bus.read('old', 0, 100))).toEqual(range(6, 10));
    expect(ids(await bus.read('other', 0, 100))).toEqual([1, 2, 3]);
    // At most 2 per topic.
    expect(await bus.prune(s.clock.now() - 3_600_000, 2)).toBe(4);
    expect(ids(await bus.read('old', 0, 100))).toEqual([9, 10]);
    expect(ids(await bus.read('other', 0, 100))).toEqual([2, 3]);
    // Everything aged out: the topic is empty but keeps its head.
    s.clock.advance(3_600_001);
    await bus.prune(s.clock.now() - 3_600_000, 1000);
    expect(await bus.read('old', 0, 100)).toEqual([]);
    expect(await bus.head('old')).toBe(10);
    const again = await s.reopen();
    expect((await again.events.publish('old', 11)).id).toBe(11);
    // A subscriber resuming from before the retained window gets what is kept, in order.
    const c = collect(again.events, { topic: 'old' }, { old: 3 });
    await c.until(1);
    await settle();
    expect(ids(c.got)).toEqual([11]);
    await c.stop();
  });

  it('a slow subscriber gets every event in order, with its buffer bounded', async () => {
    const s = await open();
    const bus = s.store.events;
    const cap = limit('events.buffer');
    const N = cap * 3 + 17;
    const sub = bus.subscribe({ prefix: 'slow.' });
    for (let i = 1; i <= N; i++) await bus.publish(i % 2 ? 'slow.a' : 'slow.b', i);
    if ('buffered' in sub) expect(sub.buffered).toBeLessThanOrEqual(cap);
    const got: BusEvent[] = [];
    for await (const e of sub) {
      got.push(e);
      if (got.length % 500 === 0) {
        await bus.publish('slow.a', 'more'); // also while catching up
        if ('buffered' in sub) expect(sub.buffered).toBeLessThanOrEqual(cap);
      }
      if (got.length === N + Math.floor(N / 500)) break;
    }
    const a = Math.ceil(N / 2) + Math.floor(N / 500);
    expect(ids(got, 'slow.a')).toEqual(range(1, a));
    expect(ids(got, 'slow.b')).toEqual(range(1, Math.floor(N / 2)));
    expect(got.filter((e) => e.topic === 'slow.b').map((e) => e.payload)).toEqual(range(1, Math.floor(N / 2)).map((i) => i * 2));
  });
}
