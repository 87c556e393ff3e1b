// Dead drops: a live row per key, compare-and-set writes on `ver`, reads that burn exactly once,
// expiry at `exp` (a row is dead from that instant on) and purge.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { DropRow } from '../../src/core/drops/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { together } from './fixtures.js';

const MIN = 60_000;

function drop(now: number, o: Partial<DropRow> = {}): DropRow {
  return {
    key: randomBytes(32),
    owner: null,
    wkey: null,
    nonce: randomBytes(12),
    ct: randomBytes(40),
    size: 24,
    exp: now + 10 * MIN,
    reads: 1,
    once: false,
    masked: 0,
    ver: 1,
    created: now,
    ...o,
  };
}

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('create then get and peek hand back the row byte for byte; it survives a restart', async () => {
    const s = await open();
    const now = s.clock.now();
    const d = drop(now, { owner: 'a000001', wkey: randomBytes(32), reads: 3, masked: 2 });
    expect(await s.store.drops.create(d, now)).toBe(true);
    const got = await s.store.drops.get(d.key, now);
    expect(got).toMatchObject({ owner: 'a000001', size: 24, exp: d.exp, reads: 3, once: false, masked: 2, created: now });
    expect(got!.key.equals(d.key) && got!.nonce.equals(d.nonce) && got!.ct.equals(d.ct) && got!.wkey!.equals(d.wkey!)).toBe(true);
    expect(await s.store.drops.peek(d.key, now)).toEqual({ exp: d.exp, reads: 3, once: false, size: 24 });
    const again = await s.reopen();
    const after = await again.drops.get(d.key, now);
    expect(after!.ct.equals(d.ct)).toBe(true);
    expect(after!.ver).toBe(got!.ver);
    expect(await again.drops.get(randomBytes(32), now)).toBeNull();
  });

  it('create refuses a key a live row holds, and takes over an expired one', async () => {
    const s = await open();
    const now = s.clock.now();
    const d = drop(now, { exp: now + MIN });
    expect(await s.store.drops.create(d, now)).toBe(true);
    expect(await s.store.drops.create({ ...d, ct: randomBytes(40) }, now)).toBe(false);
    expect((await s.store.drops.get(d.key, now))!.ct.equals(d.ct)).toBe(true);
    s.clock.advance(MIN);
    const later = s.clock.now();
    const fresh = { ...d, ct: randomBytes(40), exp: later + MIN, reads: 2, created: later };
    expect(await s.store.drops.create(fresh, later)).toBe(true);
    const got = await s.store.drops.get(d.key, later);
    expect(got!.ct.equals(fresh.ct)).toBe(true);
    expect(got).toMatchObject({ reads: 2, created: later });
  });

  it('exactly one of many concurrent creates of the same key wins', async () => {
    const s = await open();
    const now = s.clock.now();
    const key = randomBytes(32);
    const wins = (await together(20, () => s.store.drops.create(drop(now, { key }), now))).filter(Boolean);
    expect(wins).toHaveLength(1);
  });

  it('a row is dead from its exp on: get, peek, claim, update and remove see nothing', async () => {
    const s = await open();
    const now = s.clock.now();
    const d = drop(now, { exp: now + MIN, owner: 'a000001' });
    await s.store.drops.create(d, now);
    const ver = (await s.store.drops.get(d.key, now))!.ver;
    const at = d.exp;
    expect(await s.store.drops.get(d.key, at - 1)).not.toBeNull();
    expect(await s.store.drops.get(d.key, at)).toBeNull();
    expect(await s.store.drops.peek(d.key, at)).toBeNull();
    expect(await s.store.drops.claim(d.key, at)).toBeNull();
    expect(await s.store.drops.update(d.key, ver, { ...d, reads: 5 }, at)).toBe(false);
    expect(await s.store.drops.remove(d.key, 'a000001', null, at)).toBe(false);
  });

  it('update is a compare-and-set on ver: a stale version is refused and changes nothing', async () => {
    const s = await open();
    const now = s.clock.now();
    const d = drop(now, { reads: 2 });
    await s.store.drops.create(d, now);
    const v1 = (await s.store.drops.get(d.key, now))!.ver;
    const patch = { nonce: randomBytes(12), ct: randomBytes(50), size: 30, exp: now + 20 * MIN, reads: 7, once: true, masked: 1 };
    expect(await s.store.drops.update(d.key, v1, patch, now)).toBe(true);
    const got = (await s.store.drops.get(d.key, now))!;
    expect(got.ver).not.toBe(v1);
    expect(got).toMatchObject({ size: 30, exp: now + 20 * MIN, reads: 7, once: true, masked: 1 });
    expect(got.ct.equals(patch.ct)).toBe(true);
    expect(await s.store.drops.update(d.key, v1, { ...patch, reads: 99 }, now)).toBe(false);
    expect((await s.store.drops.get(d.key, now))!.reads).toBe(7);
    expect(await s.store.drops.update(randomBytes(32), 1, patch, now)).toBe(false);
  });

  it('of many concurrent updates from the same version exactly one applies', async () => {
    const s = await open();
    const now = s.clock.now();
    const d = drop(now);
    await s.store.drops.create(d, now);
    const ver = (await s.store.drops.get(d.key, now))!.ver;
    const res = await together(20, (i) => s.store.drops.update(d.key, ver, { ...d, reads: 10 + i }, now));
    expect(res.filter(Boolean)).toHaveLength(1);
    expect((await s.store.drops.get(d.key, now))!.reads).toBe(10 + res.indexOf(true));
  });

  it('claims count reads down and the last one burns the row', async () => {
    const s = await open();
    const now = s.clock.now();
    const d = drop(now, { reads: 3 });
    await s.store.drops.create(d, now);
    const left: number[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await s.store.drops.claim(d.key, now);
      expect(c!.ct.equals(d.ct) && c!.nonce.equals(d.nonce)).toBe(true);
      left.push(c!.reads);
    }
    expect(left).toEqual([2, 1, 0]);
    expect(await s.store.drops.claim(d.key, now)).toBeNull();
    expect(await s.store.drops.get(d.key, now)).toBeNull();
    expect(await s.store.drops.purgeExpired(now + 100 * MIN)).toBe(0);
  });

  it('reads left survive a restart: a drop of 2 reads gives exactly one more after a read and a restart', async () => {
    const s = await open();
    const now = s.clock.now();
    const d = drop(now, { reads: 2 });
    await s.store.drops.create(d, now);
    expect(await s.store.drops.claim(d.key, now)).toMatchObject({ reads: 1 });
    const again = await s.reopen();
    expect(await again.drops.peek(d.key, now)).toMatchObject({ reads: 1 });
    expect(await again.drops.claim(d.key, now)).toMatchObject({ reads: 0 });
    expect(await again.drops.claim(d.key, now)).toBeNull();
    expect(await (await s.reopen()).drops.get(d.key, now)).toBeNull();
  });

  it('a once drop burns on its first claim whatever reads were left', async () => {
    const s = await open();
    const now = s.clock.now();
    const d = drop(now, { reads: 5, once: true });
    await s.store.drops.create(d, now);
    expect(await s.store.drops.claim(d.key, now)).toMatchObject({ reads: 4, once: true });
    expect(await s.store.drops.claim(d.key, now)).toBeNull();
    expect(await s.store.drops.peek(d.key, now)).toBeNull();
  });

  it('reads_left=1 under 50 concurrent claims: exactly one gets the body', async () => {
    const s = await open();
    const now = s.clock.now();
    const d = drop(now, { reads: 1 });
    await s.store.drops.create(d, now);
    const got = (await together(50, () => s.store.drops.claim(d.key, now))).filter((c) => c !== null);
    expect(got).toHaveLength(1);
    expect(got[0]!.reads).toBe(0);
    expect(await s.store.drops.get(d.key, now)).toBeNull();
  });

  it('once under 50 concurrent claims: exactly one gets the body', async () => {
    const s = await open();
    const now = s.clock.now();
    const d = drop(now, { reads: 10, once: true });
    await s.store.drops.create(d, now);
    const got = (await together(50, () => s.store.drops.claim(d.key, now))).filter((c) => c !== null);
    expect(got).toHaveLength(1);
  });

  it('reads_left=5 under 50 concurrent claims: exactly five succeed, each with a distinct count left', async () => {
    const s = await open();
    const now = s.clock.now();
    const d = drop(now, { reads: 5 });
    await s.store.drops.create(d, now);
    const got = (await together(50, () => s.store.drops.claim(d.key, now))).filter((c) => c !== null);
    expect(got.map((c) => c!.reads).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(await s.store.drops.get(d.key, now)).toBeNull();
  });

  it('a claim changes the row: an update from the version read before it is refused (no read is given back)', async () => {
    const s = await open();
    const now = s.clock.now();
    const d = drop(now, { reads: 3 });
    await s.store.drops.create(d, now);
    const before = (await s.store.drops.get(d.key, now))!;
    expect(await s.store.drops.claim(d.key, now)).toMatchObject({ reads: 2 });
    expect(await s.store.drops.update(d.key, before.ver, { ...before, reads: before.reads }, now)).toBe(false);
    expect((await s.store.drops.peek(d.key, now))!.reads).toBe(2);
    const cur = (await s.store.drops.get(d.key, now))!;
    expect(await s.store.drops.update(d.key, cur.ver, { ...cur, size: 99 }, now)).toBe(true);
  });

  it('remove needs the owner or the write-key tag; a null owner or tag never matches', async () => {
    const s = await open();
    const now = s.clock.now();
    const wk = randomBytes(32);
    const byOwner = drop(now, { owner: 'a000001' });
    const byKey = drop(now, { wkey: wk });
    const anon = drop(now);
    for (const d of [byOwner, byKey, anon]) await s.store.drops.create(d, now);
    expect(await s.store.drops.remove(byOwner.key, 'a000002', null, now)).toBe(false);
    expect(await s.store.drops.remove(byOwner.key, null, null, now)).toBe(false);
    expect(await s.store.drops.remove(byKey.key, null, randomBytes(32), now)).toBe(false);
    expect(await s.store.drops.remove(anon.key, null, null, now)).toBe(false);
    expect(await s.store.drops.remove(byOwner.key, 'a000001', null, now)).toBe(true);
    expect(await s.store.drops.remove(byKey.key, 'a000009', wk, now)).toBe(true);
    expect(await s.store.drops.get(byOwner.key, now)).toBeNull();
    expect(await s.store.drops.get(byKey.key, now)).toBeNull();
    expect(await s.store.drops.get(anon.key, now)).not.toBeNull();
    expect(await s.store.drops.remove(byOwner.key, 'a000001', null, now)).toBe(false);
  });

  it('purgeExpired deletes exactly the rows dead at now and reports how many', async () => {
    const s = await open();
    const now = s.clock.now();
    const rows = [drop(now, { exp: now + MIN }), drop(now, { exp: now + 2 * MIN }), drop(now, { exp: now + 3 * MIN })];
    for (const d of rows) await s.store.drops.create(d, now);
    expect(await s.store.drops.purgeExpired(now)).toBe(0);
    expect(await s.store.drops.purgeExpired(now + 2 * MIN)).toBe(2);
    expect(await s.store.drops.get(rows[2]!.key, now + 2 * MIN)).not.toBeNull();
    expect(await s.store.drops.purgeExpired(now + 2 * MIN)).toBe(0);
    const again = await s.reopen();
    expect(await again.drops.purgeExpired(now + 3 * MIN)).toBe(1);
  });
}
