// Spaces: unique slugs (one creator wins concurrent creates), the creator a member from the start,
// idempotent join and leave, member counters (fixes of current members), newest members first.
import { expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { type Adapter, storeFor } from './adapters.js';
import { identity, newId, together } from './fixtures.js';

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('create makes the creator a member; a taken slug is refused; a restart keeps both', async () => {
    const s = await open();
    const now = s.clock.now();
    expect(await s.store.spaces.create({ slug: 'parsers', title: 'Parser people', creator: 'a000001', created: now })).toBe(true);
    expect(await s.store.spaces.create({ slug: 'parsers', title: 'Mine', creator: 'a000002', created: now })).toBe(false);
    const again = await s.reopen();
    expect(await again.spaces.bySlug('parsers')).toEqual({ slug: 'parsers', title: 'Parser people', creator: 'a000001', created: now, closed: false });
    expect(await again.spaces.isMember('parsers', 'a000001')).toBe(true);
    expect(await again.spaces.isMember('parsers', 'a000002')).toBe(false);
    expect(await again.spaces.createdBy('a000001')).toBe(1);
    expect(await again.spaces.createdBy('a000002')).toBe(0);
    expect(await again.spaces.bySlug('nope')).toBeNull();
  });

  it('of 10 concurrent creates of one slug exactly one wins, and only its creator is a member', async () => {
    const s = await open();
    const now = s.clock.now();
    const res = await together(10, (i) => s.store.spaces.create({ slug: 'hot', title: `t${i}`, creator: `a00000${i}`, created: now }));
    expect(res.filter(Boolean)).toHaveLength(1);
    const winner = `a00000${res.indexOf(true)}`;
    expect((await s.store.spaces.bySlug('hot'))!.creator).toBe(winner);
    expect(await s.store.spaces.members('hot', 20)).toEqual([{ member: winner, joined: now }]);
  });

  it('join and leave: new or already, left or not, null for an unknown space; concurrent joins add one membership', async () => {
    const s = await open();
    const now = s.clock.now();
    await s.store.spaces.create({ slug: 'sp', title: '', creator: 'a000001', created: now });
    expect(await s.store.spaces.join('sp', 'a000002', now + 1)).toBe('new');
    expect(await s.store.spaces.join('sp', 'a000002', now + 2)).toBe('member');
    expect(await s.store.spaces.join('none', 'a000002', now)).toBeNull();
    const res = await together(10, () => s.store.spaces.join('sp', 'a000003', now + 3));
    expect(res.filter((r) => r === 'new')).toHaveLength(1);
    expect(await s.store.spaces.counts('sp')).toMatchObject({ members: 3 });
    expect(await s.store.spaces.members('sp', 10)).toEqual([
      { member: 'a000003', joined: now + 3 },
      { member: 'a000002', joined: now + 1 },
      { member: 'a000001', joined: now },
    ]);
    expect(await s.store.spaces.members('sp', 1)).toHaveLength(1);
    expect(await s.store.spaces.joinedBy('a000002')).toBe(1);
    expect(await s.store.spaces.leave('sp', 'a000002')).toBe('left');
    expect(await s.store.spaces.leave('sp', 'a000002')).toBe('not');
    expect(await s.store.spaces.leave('none', 'a000002')).toBeNull();
    expect(await s.store.spaces.isMember('sp', 'a000002')).toBe(false);
    expect(await s.store.spaces.joinedBy('a000002')).toBe(0);
  });

  it('counts: fixes are the KB entries of the current members', async () => {
    const s = await open();
    const now = s.clock.now();
    const a = (await identity(s.store, now)).id;
    const b = (await identity(s.store, now)).id;
    const c = (await identity(s.store, now)).id;
    const fix = (author: string) => {
      const sig = `sig-${newId('x')}`;
      return {
        id: newId('k', 6),
        sig,
        h: createHash('sha256').update(sig).digest('hex'),
        title: 't',
        error: 'e',
        fix: 'f',
        eco: 'pypi',
        cls: '',
        tags: [],
        libs: [],
        author,
        created: now,
      };
    };
    await s.store.spaces.create({ slug: 'sp', title: '', creator: a, created: now });
    await s.store.spaces.join('sp', b, now);
    for (const author of [a, b, b, c]) await s.store.kb.insert(fix(author));
    expect(await s.store.spaces.counts('sp')).toEqual({ members: 2, fixes: 3 });
    await s.store.spaces.leave('sp', b);
    expect(await s.store.spaces.counts('sp')).toEqual({ members: 1, fixes: 1 });
  });
}
