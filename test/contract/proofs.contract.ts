// Spent-PoW set: a proof is spent exactly once until it expires, then forgotten.
import { expect, it } from 'vitest';
import { type Adapter, storeFor } from './adapters.js';

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('spends a proof once; a replay is refused, also after a restart', async () => {
    const s = await open();
    const exp = s.clock.now() + 60_000;
    expect(await s.store.proofs.spend('c1', exp)).toBe(true);
    expect(await s.store.proofs.spend('c1', exp)).toBe(false);
    expect(await s.store.proofs.spend('c2', exp)).toBe(true);
    const again = await s.reopen();
    expect(await again.proofs.spend('c1', exp)).toBe(false);
  });

  it('exactly one of many concurrent spends of the same proof wins', async () => {
    const s = await open();
    const exp = s.clock.now() + 60_000;
    const wins = (await Promise.all(Array.from({ length: 20 }, () => s.store.proofs.spend('race', exp)))).filter(Boolean);
    expect(wins).toHaveLength(1);
  });

  it('purges only expired proofs', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.proofs.spend('old', t - 1);
    await s.store.proofs.spend('live', t + 60_000);
    expect(await s.store.proofs.purgeExpired(t)).toBe(1);
    expect(await s.store.proofs.spend('live', t + 60_000)).toBe(false);
    expect(await s.store.proofs.spend('old', t + 60_000)).toBe(true);
  });
}
