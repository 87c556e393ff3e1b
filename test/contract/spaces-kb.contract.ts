// Spaces (issue 39): roles, one-time expiring invites, and the private KB entries of spaces, read
// only through the caller's spaces (another space's entry is as absent as an unknown id).
import { expect, it } from 'vitest';
import type { SpaceEntry } from '../../src/core/spaces/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { together } from './fixtures.js';

const entry = (o: Partial<SpaceEntry> & { id: string; space: string }): SpaceEntry => ({
  sig: 'py:KeyError: <str>',
  h: 'a'.repeat(64),
  ch: 'c'.repeat(64),
  title: 'a title',
  error: 'KeyError: x',
  fix: 'set the key first, then read it',
  eco: 'pypi',
  cls: 'keyerror',
  tags: ['py'],
  libs: ['flask@3.0'],
  author: 'a000001',
  created: 1000,
  ...o,
});

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('the creator is the owner, joiners members; closedSpacesOf lists closed memberships; closed is kept', async () => {
    const s = await open();
    const sp = s.store.spaces;
    const now = s.clock.now();
    await sp.create({ slug: 'team', title: '', creator: 'a000001', created: now, closed: true });
    await sp.create({ slug: 'open', title: '', creator: 'a000002', created: now });
    await sp.join('team', 'a000003', now);
    await sp.join('open', 'a000003', now);
    expect(await sp.role('team', 'a000001')).toBe('owner');
    expect(await sp.role('team', 'a000003')).toBe('member');
    expect(await sp.role('team', 'a000002')).toBeNull();
    expect(await sp.closedSpacesOf('a000003')).toEqual(['team']);
    expect(await sp.closedSpacesOf('a000002')).toEqual([]);
    expect((await sp.bySlug('team'))!.closed).toBe(true);
    const again = await s.reopen();
    expect((await again.spaces.bySlug('open'))!.closed).toBe(false);
    await again.spaces.leave('team', 'a000003');
    expect(await again.spaces.closedSpacesOf('a000003')).toEqual([]);
  });

  it('an invite is spent once (of 10 concurrent redeems one joins), only in its space, only before it expires', async () => {
    const s = await open();
    const sp = s.store.spaces;
    const now = s.clock.now();
    await sp.create({ slug: 'team', title: '', creator: 'a000001', created: now, closed: true });
    await sp.create({ slug: 'other', title: '', creator: 'a000001', created: now, closed: true });
    await sp.addInvite({ h: 'h1', space: 'team', role: 'member', by: 'a000001', created: now, expires: now + 1000 });
    await sp.addInvite({ h: 'h2', space: 'team', role: 'owner', by: 'a000001', created: now, expires: now + 10 });
    expect(await sp.openInvites('team', now)).toBe(2);
    expect(await sp.openInvites('team', now + 10)).toBe(1);
    expect(await sp.redeemInvite('h1', 'other', 'a000005', now)).toBeNull();
    const res = await together(10, (i) => sp.redeemInvite('h1', 'team', `a00001${i}`, now + 1));
    expect(res.filter((r) => r === 'joined')).toHaveLength(1);
    expect(res.filter((r) => r === null)).toHaveLength(9);
    expect(await sp.redeemInvite('h2', 'team', 'a000006', now + 10)).toBeNull();
    expect(await sp.role('team', 'a000006')).toBeNull();
    await sp.addInvite({ h: 'h3', space: 'team', role: 'owner', by: 'a000001', created: now, expires: now + 100 });
    expect(await sp.redeemInvite('h3', 'team', 'a000007', now)).toBe('joined');
    expect(await sp.role('team', 'a000007')).toBe('owner');
  });

  it('KB entries are read only through their own space: by id, hash, coarse hash, words; listed, counted, purged', async () => {
    const s = await open();
    const sp = s.store.spaces;
    const now = s.clock.now();
    await sp.create({ slug: 'team', title: '', creator: 'a000001', created: now, closed: true });
    await sp.create({ slug: 'other', title: '', creator: 'a000002', created: now, closed: true });
    const a = entry({ id: 'kaaaaaaa1', space: 'team', created: 1000, error: 'ZebraFault: 100% broken_thing', title: 'zebra fault' });
    const b = entry({ id: 'kaaaaaaa2', space: 'team', created: 2000, error: 'KeyError: quokka', title: 'quokka key' });
    const c = entry({ id: 'kaaaaaaa3', space: 'other', created: 3000 });
    for (const e of [a, b, c]) expect(await sp.kbInsert(e)).toBe(true);
    expect(await sp.kbInsert({ ...a, space: 'other' })).toBe(false);
    expect(await sp.kbById(a.id, ['team'])).toEqual(a);
    expect(await sp.kbById(a.id, ['other'])).toBeNull();
    expect(await sp.kbById(a.id, [])).toBeNull();
    expect((await sp.kbByHash('a'.repeat(64), ['team'], 10)).map((e) => e.id)).toEqual([b.id, a.id]);
    expect((await sp.kbByHash('a'.repeat(64), ['team', 'other'], 10)).map((e) => e.id)).toEqual([c.id, b.id, a.id]);
    expect(await sp.kbByHash('a'.repeat(64), [], 10)).toEqual([]);
    expect((await sp.kbByCoarse('c'.repeat(64), ['other'], 10)).map((e) => e.id)).toEqual([c.id]);
    // Any of the words, most words first; LIKE's own characters are plain text.
    expect((await sp.kbRetrieve(['zebra', 'quokka', 'fault'], ['team'], 10)).map((e) => e.id)).toEqual([a.id, b.id]);
    expect((await sp.kbRetrieve(['broken_thing'], ['team'], 10)).map((e) => e.id)).toEqual([a.id]);
    expect(await sp.kbRetrieve(['broken%thing'], ['team'], 10)).toEqual([]);
    expect(await sp.kbRetrieve(['zebra'], ['other'], 10)).toEqual([]);
    expect((await sp.kbSearch(['zebra', 'fault'], ['team'], 10)).map((e) => e.id)).toEqual([a.id]);
    expect(await sp.kbSearch(['zebra', 'quokka'], ['team'], 10)).toEqual([]);
    const again = await s.reopen();
    expect((await again.spaces.kbList('team', 10)).map((e) => e.id)).toEqual([a.id, b.id]);
    expect(await again.spaces.kbCount('team')).toBe(2);
    await again.spaces.addInvite({ h: 'hx', space: 'team', role: 'member', by: 'a000001', created: now, expires: now + 1000 });
    expect(await again.spaces.kbPurge('team')).toBe(2);
    expect(await again.spaces.kbCount('team')).toBe(0);
    expect(await again.spaces.kbById(a.id, ['team'])).toBeNull();
    expect(await again.spaces.openInvites('team', now)).toBe(0);
    expect(await again.spaces.kbCount('other')).toBe(1);
  });
}
