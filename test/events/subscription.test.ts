// The subscription logic every adapter shares, over a fake bus whose reads are slow and see
// events committed while they run (as a PostgreSQL read would): live events and read-back ones
// overlap, and the stream must still be gapless and free of duplicates, with a bounded buffer.
import { expect, it } from 'vitest';
import type { BusEvent, EventBus, TopicSelector } from '../../src/core/platform/events/ports.js';
import { selects, Subscription } from '../../src/core/platform/events/subscription.js';

function fakeBus() {
  const rows = new Map<string, BusEvent[]>();
  const listeners = new Set<{ sel: TopicSelector; fn: (e: BusEvent) => void }>();
  let reads = 0;
  const bus: Pick<EventBus, 'read' | 'on'> = {
    async read(topic, after, limit) {
      reads++;
      await new Promise((r) => setTimeout(r, 1)); // events commit meanwhile
      return (rows.get(topic) ?? []).filter((e) => e.id > after).slice(0, limit);
    },
    on(sel, fn) {
      const l = { sel, fn };
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
  const publish = (topic: string) => {
    const list = rows.get(topic) ?? [];
    rows.set(topic, list);
    const e: BusEvent = { topic, id: list.length + 1, time: 0, payload: null };
    list.push(e);
    for (const l of listeners) if (selects(l.sel, topic)) l.fn(e);
  };
  return { bus, publish, reads: () => reads };
}

async function take(sub: Subscription, n: number, each?: (got: BusEvent[]) => void): Promise<BusEvent[]> {
  const got: BusEvent[] = [];
  for await (const e of sub) {
    got.push(e);
    each?.(got);
    if (got.length === n) break;
  }
  return got;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

it('resume with events committed during slow reads: no gap, no duplicate', async () => {
  const f = fakeBus();
  for (let i = 0; i < 700; i++) f.publish('t');
  const sub = new Subscription(f.bus, { topic: 't' }, { resume: { t: 5 } }, 50);
  // Publishing from a timer lands in the middle of the reads.
  let extra = 0;
  const timer = setInterval(() => {
    if (extra < 300) {
      f.publish('t');
      extra++;
    }
  }, 0);
  const got = await take(sub, 700 - 5 + 300);
  clearInterval(timer);
  expect(got.map((e) => e.id)).toEqual(range(6, 1000));
  expect(f.reads()).toBeGreaterThan(3);
});

it('the buffer never holds more than its cap; everything arrives, per topic in order', async () => {
  const f = fakeBus();
  const sub = new Subscription(f.bus, { prefix: 'p.' }, {}, 10);
  for (let i = 0; i < 500; i++) f.publish(i % 3 ? 'p.a' : 'p.b');
  f.publish('q.x'); // not selected
  expect(sub.buffered).toBe(10);
  let peak = 0;
  const got = await take(sub, 500, () => {
    peak = Math.max(peak, sub.buffered);
    if (Math.random() < 0.2) f.publish('p.a');
  });
  expect(peak).toBeLessThanOrEqual(10);
  const a = got.filter((e) => e.topic === 'p.a').map((e) => e.id);
  const b = got.filter((e) => e.topic === 'p.b').map((e) => e.id);
  expect(b).toEqual(range(1, 167));
  expect(a).toEqual(range(1, a.length));
  expect(a.length + b.length).toBe(500);
});

it('ends on abort and on end(); a second iteration is refused', async () => {
  const f = fakeBus();
  const ac = new AbortController();
  const sub = new Subscription(f.bus, { topic: 't' }, { signal: ac.signal }, 10);
  const it1 = sub[Symbol.asyncIterator]();
  expect(() => sub[Symbol.asyncIterator]()).toThrow();
  const next = it1.next();
  ac.abort();
  expect(await next).toEqual({ done: true, value: undefined });
  f.publish('t');
  expect(sub.buffered).toBe(0);
});
