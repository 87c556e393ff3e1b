// Anchors: one claim per (key, owner), renewed in place; caps per key and per owner that hold
// under concurrent claims; claimants oldest first without frozen identities; expiry and purge.
import { expect, it } from 'vitest';
import type { AnchorClaim } from '../../src/core/anchors/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { identity, together } from './fixtures.js';

const HOUR = 3_600_000;
const claim = (key: string, owner: string, t: number, o: Partial<AnchorClaim> = {}): AnchorClaim => ({
  key,
  owner,
  note: 'here',
  cp: null,
  created: t,
  updated: t,
  exp: t + HOUR,
  ...o,
});

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('claim, renew in place (first claim time kept), claimants oldest first with their identity, a restart keeps them', async () => {
    const s = await open();
    const now = s.clock.now();
    const a = await identity(s.store, now, { name: 'ann' });
    const b = await identity(s.store, now);
    expect(await s.store.anchors.claim(claim('repo:x', a.id, now), now, 10, 10)).toEqual({ claimants: 1, renewed: false });
    expect(await s.store.anchors.claim(claim('repo:x', b.id, now + 1), now + 1, 10, 10)).toEqual({ claimants: 2, renewed: false });
    expect(await s.store.anchors.claim(claim('repo:x', a.id, now + 2, { note: 'still here', cp: 'c00000001', exp: now + 2 * HOUR }), now + 2, 10, 10)).toEqual({
      claimants: 2,
      renewed: true,
    });
    const list = await s.store.anchors.claimants('repo:x', now + 3);
    expect(list.map((c) => c.claim.owner)).toEqual([a.id, b.id]);
    expect(list[0]!.claim).toEqual({ key: 'repo:x', owner: a.id, note: 'still here', cp: 'c00000001', created: now, updated: now + 2, exp: now + 2 * HOUR });
    expect(list[0]!.who).toMatchObject({ id: a.id, name: 'ann', frozen: false });
    expect((await (await s.reopen()).anchors.claimants('repo:x', now + 3)).map((c) => c.claim.note)).toEqual(['still here', 'here']);
  });

  it('frozen claimants are left out of claimants', async () => {
    const s = await open();
    const now = s.clock.now();
    const a = await identity(s.store, now);
    const f = await identity(s.store, now, { frozen: true });
    await s.store.anchors.claim(claim('k', a.id, now), now, 10, 10);
    await s.store.anchors.claim(claim('k', f.id, now), now, 10, 10);
    expect((await s.store.anchors.claimants('k', now)).map((c) => c.claim.owner)).toEqual([a.id]);
  });

  it('per-key and per-owner caps; a renewal is never refused by them', async () => {
    const s = await open();
    const now = s.clock.now();
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await identity(s.store, now)).id);
    for (const id of ids.slice(0, 3)) await s.store.anchors.claim(claim('k', id, now), now, 3, 2);
    expect(await s.store.anchors.claim(claim('k', ids[3]!, now), now, 3, 2)).toBe('full');
    expect(await s.store.anchors.claim(claim('k', ids[0]!, now, { note: 'renew' }), now, 3, 2)).toMatchObject({ renewed: true });
    await s.store.anchors.claim(claim('k2', ids[0]!, now), now, 3, 2);
    expect(await s.store.anchors.claim(claim('k3', ids[0]!, now), now, 3, 2)).toBe('mine_full');
    expect(await s.store.anchors.claim(claim('k2', ids[0]!, now), now, 3, 2)).toMatchObject({ renewed: true });
  });

  it('the per-key cap holds under 12 concurrent claimants', async () => {
    const s = await open();
    const now = s.clock.now();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await identity(s.store, now)).id);
    const res = await together(12, (i) => s.store.anchors.claim(claim('hot', ids[i]!, now), now, 5, 10));
    expect(res.filter((r) => typeof r === 'object')).toHaveLength(5);
    expect(res.filter((r) => r === 'full')).toHaveLength(7);
    expect(await s.store.anchors.claimants('hot', now)).toHaveLength(5);
  });

  it('the per-owner cap holds under concurrent claims of different keys', async () => {
    const s = await open();
    const now = s.clock.now();
    const a = (await identity(s.store, now)).id;
    const res = await together(10, (i) => s.store.anchors.claim(claim(`key${i}`, a, now), now, 10, 4));
    expect(res.filter((r) => typeof r === 'object')).toHaveLength(4);
    expect(await s.store.anchors.mine(a, now, 100)).toHaveLength(4);
  });

  it('expiry: dead claims are not listed, not counted, and are replaced with a fresh first-claim time; purge deletes them', async () => {
    const s = await open();
    const now = s.clock.now();
    const a = (await identity(s.store, now)).id;
    const b = (await identity(s.store, now)).id;
    await s.store.anchors.claim(claim('k', a, now, { exp: now + 100 }), now, 1, 10);
    expect(await s.store.anchors.claim(claim('k', b, now), now, 1, 10)).toBe('full');
    const at = now + 100;
    expect(await s.store.anchors.claimants('k', at)).toEqual([]);
    expect(await s.store.anchors.mine(a, at, 10)).toEqual([]);
    expect(await s.store.anchors.unclaim('k', a, at)).toBe(false);
    expect(await s.store.anchors.claim(claim('k', b, at), at, 1, 10)).toEqual({ claimants: 1, renewed: false });
    expect(await s.store.anchors.claim(claim('k2', a, now, { exp: now + 100 }), now, 10, 10)).toMatchObject({ renewed: false });
    expect(await s.store.anchors.claim(claim('k2', a, at + 5), at + 5, 10, 10)).toEqual({ claimants: 1, renewed: false });
    expect((await s.store.anchors.claimants('k2', at + 5))[0]!.claim.created).toBe(at + 5);
    expect(await s.store.anchors.purgeExpired(at + 5)).toBe(1);
    expect(await s.store.anchors.claimants('k', at)).toHaveLength(1);
  });

  it("unclaim is the owner's; mine lists the owner's live claims, latest update first, limited", async () => {
    const s = await open();
    const now = s.clock.now();
    const a = (await identity(s.store, now)).id;
    const b = (await identity(s.store, now)).id;
    for (let i = 0; i < 4; i++) await s.store.anchors.claim(claim(`k${i}`, a, now + i), now + i, 10, 10);
    await s.store.anchors.claim(claim('k0', a, now + 10), now + 10, 10, 10);
    expect((await s.store.anchors.mine(a, now + 10, 100)).map((c) => c.key)).toEqual(['k0', 'k3', 'k2', 'k1']);
    expect((await s.store.anchors.mine(a, now + 10, 2)).map((c) => c.key)).toEqual(['k0', 'k3']);
    expect(await s.store.anchors.unclaim('k1', b, now + 10)).toBe(false);
    expect(await s.store.anchors.unclaim('k1', a, now + 10)).toBe(true);
    expect(await s.store.anchors.unclaim('k1', a, now + 10)).toBe(false);
    expect(await s.store.anchors.mine(b, now + 10, 10)).toEqual([]);
  });
}
