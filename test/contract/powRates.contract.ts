// Registration counts of the adaptive PoW (PowRateRepo): counted per network and in all, summed over
// the buckets after a point in time, never lost by concurrent notes, kept across a restart, purged
// by bucket.
import { expect, it } from 'vitest';
import { type Adapter, storeFor } from './adapters.js';

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);
  const W = 10_000; // a bucket's width in these tests

  it('counts per network and in all over the buckets after `since`; the busiest network is the highest', async () => {
    const s = await open();
    const r = s.store.powRates;
    const t = Math.floor(s.clock.now() / W) * W;
    expect(await r.counts('10.0.0', t - 60 * W)).toEqual({ global: 0, net: 0 });
    expect(await r.busiest(t - 60 * W)).toBe(0);
    await r.note('10.0.0', t - 5 * W);
    await r.note('10.0.0', t);
    await r.note('10.0.0', t);
    await r.note('10.0.1', t);
    expect(await r.counts('10.0.0', t - 60 * W)).toEqual({ global: 4, net: 3 });
    expect(await r.counts('10.0.1', t - 60 * W)).toEqual({ global: 4, net: 1 });
    expect(await r.counts('10.9.9', t - 60 * W)).toEqual({ global: 4, net: 0 });
    expect(await r.counts(null, t - 60 * W)).toEqual({ global: 4, net: 0 });
    expect(await r.busiest(t - 60 * W)).toBe(3);
    // Buckets starting at or before `since` do not count.
    expect(await r.counts('10.0.0', t - 5 * W)).toEqual({ global: 3, net: 2 });
    expect(await r.busiest(t)).toBe(0);
    expect(await r.busiest(t - 1)).toBe(2);
  });

  it('concurrent notes of one network and bucket are all counted; counts survive a restart', async () => {
    const s = await open();
    const t = Math.floor(s.clock.now() / W) * W;
    await Promise.all(Array.from({ length: 25 }, (_, i) => s.store.powRates.note(i % 5 === 0 ? '10.1.1' : '10.2.2', t)));
    expect(await s.store.powRates.counts('10.2.2', t - W)).toEqual({ global: 25, net: 20 });
    const again = await s.reopen();
    expect(await again.powRates.counts('10.1.1', t - W)).toEqual({ global: 25, net: 5 });
    expect(await again.powRates.busiest(t - W)).toBe(20);
  });

  it('purges the buckets starting at or before a time, and only those', async () => {
    const s = await open();
    const r = s.store.powRates;
    const t = Math.floor(s.clock.now() / W) * W;
    await r.note('10.3.3', t - 2 * W);
    await r.note('10.3.3', t - W);
    await r.note('10.3.3', t);
    // Each note writes its network's row and the all-networks row.
    expect(await r.purge(t - W)).toBe(4);
    expect(await r.counts('10.3.3', 0)).toEqual({ global: 1, net: 1 });
    expect(await r.purge(t - W)).toBe(0);
  });
}
