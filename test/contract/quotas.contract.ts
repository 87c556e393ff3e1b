// Quota buckets (src/core/platform/quota/ports.ts): a bucket starts full, refills at its rate up to its cap,
// refuses without taking and says how long to wait, keeps ids apart, and never grants more than it
// holds to concurrent takers. Persistence is not promised (the SQLite adapter keeps buckets in memory).
import { expect, it } from 'vitest';
import { type Adapter, storeFor } from './adapters.js';

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);
  const cap = 5;
  const rate = 1 / 1000; // one token a second

  it('a new bucket starts full; once empty it refuses with the wait and takes nothing', async () => {
    const s = await open();
    const t = s.clock.now();
    for (let i = 0; i < cap; i++) expect(await s.store.quotas.take('b|k', 1, cap, rate, t)).toBe(0);
    expect(await s.store.quotas.take('b|k', 1, cap, rate, t)).toBe(1000);
    // Refused takes spent nothing: still exactly one token a second later.
    expect(await s.store.quotas.take('b|k', 1, cap, rate, t)).toBe(1000);
    expect(await s.store.quotas.take('b|k', 1, cap, rate, t + 1000)).toBe(0);
    expect(await s.store.quotas.take('b|k', 1, cap, rate, t + 1000)).toBeGreaterThan(0);
  });

  it('refills at its rate up to its cap, and a cost takes that many', async () => {
    const s = await open();
    const t = s.clock.now();
    expect(await s.store.quotas.take('x', cap, cap, rate, t)).toBe(0);
    expect(await s.store.quotas.take('x', 3, cap, rate, t + 2000)).toBe(1000);
    // A long pause refills to the cap, not beyond.
    expect(await s.store.quotas.take('x', cap, cap, rate, t + 3_600_000)).toBe(0);
    expect(await s.store.quotas.take('x', 1, cap, rate, t + 3_600_000)).toBe(1000);
  });

  it('ids are independent', async () => {
    const s = await open();
    const t = s.clock.now();
    expect(await s.store.quotas.take('reg|net-a', cap, cap, rate, t)).toBe(0);
    expect(await s.store.quotas.take('reg|net-a', 1, cap, rate, t)).toBeGreaterThan(0);
    expect(await s.store.quotas.take('reg|net-b', 1, cap, rate, t)).toBe(0);
    expect(await s.store.quotas.take('write|net-a', 1, cap, rate, t)).toBe(0);
  });

  it('a larger cap (a caller whose level rose) applies from the next take', async () => {
    const s = await open();
    const t = s.clock.now();
    expect(await s.store.quotas.take('id', cap, cap, rate, t)).toBe(0);
    expect(await s.store.quotas.take('id', 1, cap, rate, t)).toBeGreaterThan(0);
    // Four times the cap and rate: refills four times faster.
    expect(await s.store.quotas.take('id', 4, 4 * cap, 4 * rate, t + 1000)).toBe(0);
  });

  it('concurrent takes never grant more than the bucket holds', async () => {
    const s = await open();
    const t = s.clock.now();
    const got = await Promise.all(Array.from({ length: 40 }, () => s.store.quotas.take('race', 1, 10, rate, t)));
    expect(got.filter((w) => w === 0)).toHaveLength(10);
  });
}
