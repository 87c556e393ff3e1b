// Quota buckets under traffic from many networks: full buckets are dropped as the map grows, so
// memory follows the networks active lately; a drained bucket is never dropped (its limit holds),
// whatever its multiplier; and the map never passes its hard cap.
import { describe, expect, it } from 'vitest';
import { CxError } from '../../src/core/kernel/errors.js';
import { quotaDef } from '../../src/core/kernel/limits.js';
import { Quotas } from '../../src/core/platform/quota/buckets.js';
import { MemoryQuotaRepo } from '../../src/core/platform/quota/memory.js';

/** Quotas over the in-memory buckets, as the SQLite store builds them. */
function quotas(now: () => number, maxKeys: number, minPrune: number): Quotas & { size: number } {
  const repo = new MemoryQuotaRepo(maxKeys, minPrune);
  return Object.defineProperty(new Quotas(repo, now, 1), 'size', { get: () => repo.size }) as Quotas & { size: number };
}

const refused = async (f: () => void | Promise<void>): Promise<boolean> => {
  try {
    await f();
    return false;
  } catch (err) {
    if (err instanceof CxError && err.code === 'quota') return true;
    throw err;
  }
};

describe('quota buckets', () => {
  const def = quotaDef('challenge'); // 60 a minute, burst 60, per network
  const msPerToken = (def.window_s * 1000) / def.per;

  it('drops the buckets of networks that are full again, keeps a drained one and its 429', async () => {
    let now = 1_000_000;
    const q = quotas(() => now, 200_000, 1000);
    const reg = quotaDef('reg'); // 10 an hour: one token per 360 s
    for (let i = 0; i < reg.burst; i++) await q.take('reg', 'drained');
    expect(await refused(() => q.take('reg', 'drained'))).toBe(true);
    // 50,000 other networks, one challenge each, 1 ms apart: each bucket is full again 1 s later.
    for (let i = 0; i < 50_000; i++) {
      await q.take('challenge', `net${i}`);
      now += 1;
    }
    expect(now - 1_000_000).toBeLessThan((reg.window_s * 1000) / reg.per);
    // Without pruning the map would hold 50,001 buckets; it holds about those of the last second or two.
    expect(q.size).toBeGreaterThan(msPerToken - 1);
    expect(q.size).toBeLessThan(3 * msPerToken);
    expect(await refused(() => q.take('reg', 'drained'))).toBe(true);
  });

  it('a bucket with a multiplier, drained below its own capacity but above the plain burst, is kept', async () => {
    const now = 5_000_000;
    const q = quotas(() => now, 200_000, 100);
    const mult = 4;
    // Take 2x burst of the 4x capacity: 2x burst tokens remain, more than a plain bucket holds.
    for (let i = 0; i < 2 * def.burst; i++) await q.take('challenge', 'big', mult);
    for (let i = 0; i < 1000; i++) await q.take('challenge', `other${i}`); // several prunes, same instant
    let more = 0;
    while (!(await refused(() => q.take('challenge', 'big', mult)))) more++;
    expect(more).toBe(2 * def.burst);
  });

  it('never holds more than its hard cap, even when every bucket is drained', async () => {
    const now = 9_000_000;
    const q = quotas(() => now, 500, 100);
    for (let i = 0; i < 5000; i++) {
      for (let k = 0; k < def.burst; k++) await q.take('challenge', `flood${i}`);
      expect(q.size).toBeLessThanOrEqual(500);
    }
  });
});
