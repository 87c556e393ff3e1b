// The private KB entries of spaces (port spaceKb, the KB's; issue 39) with the spaces around them
// (port spaces; one adapter holds both): roles, one-time expiring invites, and the private entries,
// read only through the caller's spaces (another space's entry is as absent as an unknown id); their
// outcomes, tallied as public ones in the space's own tables; re-signing at an ErrSig version
// change; the last owner of a closed space staying.
import { expect, it } from 'vitest';
import { ERRSIG_VERSION, errsig } from '../../src/core/kb/errsig/errsig.js';
import * as v2 from '../../src/core/kb/errsig/errsig-v2.js';
import { tallyFn, type OutcomeWrite, type TallyFn } from '../../src/core/kb/outcomes.js';
import type { Store } from '../../src/compose/store.js';
import { resignSpaceKb } from '../../src/core/kb/space/resign.js';
import type { SpaceEntry, SpaceKbRepo } from '../../src/core/kb/space/ports.js';
import type { SpaceRepo } from '../../src/core/spaces/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { identity, together } from './fixtures.js';

/** The two ports the spaces adapter holds: membership (spaces) and the KB's private entries of spaces (spaceKb). */
type Both = SpaceRepo & SpaceKbRepo;
const both = (st: Store): Both => ({ ...st.spaces, ...st.spaceKb });

const NO_FIGURES = { confirms: 0, fails: 0, changes: 0, w_worked: 0, w_changes: 0, w_failed: 0, principals: 0, disputed: false, disputed_at: 0 };
const DAY = 86_400_000;

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
    const sp = both(s.store);
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
    const sp = both(s.store);
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
    const sp = both(s.store);
    const now = s.clock.now();
    await sp.create({ slug: 'team', title: '', creator: 'a000001', created: now, closed: true });
    await sp.create({ slug: 'other', title: '', creator: 'a000002', created: now, closed: true });
    const a = entry({ id: 'kaaaaaaa1', space: 'team', created: 1000, error: 'ZebraFault: 100% broken_thing', title: 'zebra fault' });
    const b = entry({ id: 'kaaaaaaa2', space: 'team', created: 2000, error: 'KeyError: quokka', title: 'quokka key' });
    const c = entry({ id: 'kaaaaaaa3', space: 'other', created: 3000 });
    for (const e of [a, b, c]) expect(await sp.kbInsert(e)).toBe(true);
    expect(await sp.kbInsert({ ...a, space: 'other' })).toBe(false);
    expect(await sp.kbById(a.id, ['team'])).toEqual({ ...a, ...NO_FIGURES });
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
    expect((await again.spaceKb.kbList('team', 10)).map((e) => e.id)).toEqual([a.id, b.id]);
    expect(await again.spaceKb.kbCount('team')).toBe(2);
    await again.spaces.addInvite({ h: 'hx', space: 'team', role: 'member', by: 'a000001', created: now, expires: now + 1000 });
    expect(await again.spaceKb.kbPurge('team')).toBe(2);
    expect(await again.spaceKb.kbCount('team')).toBe(0);
    expect(await again.spaceKb.kbById(a.id, ['team'])).toBeNull();
    expect(await again.spaces.openInvites('team', now)).toBe(0);
    expect(await again.spaceKb.kbCount('other')).toBe(1);
  });

  const put = (sp: Both, spaces: string[], o: Partial<OutcomeWrite> & Pick<OutcomeWrite, 'entry' | 'voter' | 'kind' | 'at'>, tally: TallyFn = tallyFn) =>
    sp.kbOutcome({ note: '', evidence: null, net: '', root: o.voter, ...o }, spaces, tally);

  it("outcomes of a private entry: only through its space, one per identity (replaced, or the same again), not the author's; tallied, ranked, noted, after a restart too", async () => {
    const s = await open();
    let st = s.store;
    let sp = both(st);
    const now = s.clock.now();
    const author = (await identity(s.store, now)).id;
    // An L1 identity two days old weighs 1 x (0.5 + 0.5 x 2/30) = 0.53; a new L0 one 0.125.
    const l1 = (await identity(s.store, now - 2 * DAY, { rep: 5, confirmed: 1 })).id;
    const l0 = (await identity(s.store, now)).id;
    await sp.create({ slug: 'team', title: '', creator: author, created: now, closed: true });
    await sp.create({ slug: 'other', title: '', creator: author, created: now, closed: true });
    const older = entry({ id: 'koutcome1', space: 'team', author, created: now - 10 });
    const newer = entry({ id: 'koutcome2', space: 'team', author, created: now });
    for (const e of [older, newer]) await sp.kbInsert(e);
    // Newest first while neither has outcomes.
    expect((await sp.kbByHash(older.h, ['team'], 5)).map((e) => e.id)).toEqual([newer.id, older.id]);
    expect(await put(sp, ['other'], { entry: older.id, voter: l1, kind: 'worked', at: now })).toBeNull();
    expect(await put(sp, [], { entry: older.id, voter: l1, kind: 'worked', at: now })).toBeNull();
    expect(await put(sp, ['team'], { entry: 'kzzzzzzzz', voter: l1, kind: 'worked', at: now })).toBeNull();
    expect(await put(sp, ['team'], { entry: older.id, voter: author, kind: 'worked', at: now })).toEqual({ result: 'own', prev: null });
    expect(await put(sp, ['team'], { entry: older.id, voter: l1, kind: 'worked-with-changes', note: 'pin it first', at: now })).toEqual({
      result: 'new',
      prev: null,
    });
    expect(await put(sp, ['team'], { entry: older.id, voter: l1, kind: 'worked-with-changes', note: 'pin it first', at: now })).toEqual({
      result: 'same',
      prev: 'worked-with-changes',
    });
    expect(await put(sp, ['team'], { entry: older.id, voter: l0, kind: 'worked', net: '10.0.0', at: now })).toEqual({ result: 'new', prev: null });
    expect(
      await put(sp, ['team'], { entry: newer.id, voter: l0, kind: 'did-not-work', net: '10.0.0', evidence: { cmd: 'make', exit_after: 2 }, at: now }),
    ).toEqual({ result: 'new', prev: null });
    for (const restart of [false, true]) {
      if (restart) sp = both((st = await s.reopen()));
      const r = sp;
      expect(await r.kbById(older.id, ['team'])).toMatchObject({
        confirms: 2,
        fails: 0,
        changes: 1,
        w_worked: 0.13,
        w_changes: 0.53,
        principals: 2,
        disputed: false,
      });
      expect(await r.kbById(newer.id, ['team'])).toMatchObject({ confirms: 0, fails: 1, w_failed: 0.13, principals: 1, disputed: false });
      // Outcomes rank within a signature as on public entries: the confirmed one first.
      expect((await r.kbByHash(older.h, ['team'], 5)).map((e) => e.id)).toEqual([older.id, newer.id]);
      expect((await r.kbByCoarse(older.ch, ['team'], 5)).map((e) => e.id)).toEqual([older.id, newer.id]);
      expect(await r.kbOutcomeNotes(older.id, ['team'], 'worked-with-changes', 5)).toEqual([{ note: 'pin it first', evidence: null, at: now }]);
      expect(await r.kbOutcomeNotes(newer.id, ['team'], 'did-not-work', 5)).toEqual([{ note: '', evidence: { cmd: 'make', exit_after: 2 }, at: now }]);
      // Another space's members read no notes of it.
      expect(await r.kbOutcomeNotes(older.id, ['other'], 'worked-with-changes', 5)).toEqual([]);
      expect(await r.kbList('team', 5)).toHaveLength(2);
    }
    // A replaced outcome counts once, of its new kind; enough did-not-work disputes the entry (a
    // tally that says so), which then ranks after the undisputed one; it lifts again.
    expect(await put(sp, ['team'], { entry: older.id, voter: l1, kind: 'did-not-work', at: now + 1 })).toEqual({
      result: 'changed',
      prev: 'worked-with-changes',
    });
    const disputing: TallyFn = (rows, t) => ({ tally: { ...tallyFn(rows, t).tally, disputed: true }, rep: 0 });
    await put(sp, ['team'], { entry: newer.id, voter: l1, kind: 'did-not-work', at: now + 2 }, disputing);
    const d = await sp.kbById(newer.id, ['team']);
    expect(d).toMatchObject({ confirms: 0, fails: 2, disputed: true, disputed_at: now + 2 });
    expect(await sp.kbById(older.id, ['team'])).toMatchObject({ confirms: 1, fails: 1, changes: 0 });
    expect((await sp.kbByHash(older.h, ['team'], 5)).map((e) => e.id)).toEqual([older.id, newer.id]);
    // No public figure moved: the author's reputation and confirmed count are as registered.
    expect(await st.identities.byId(author)).toMatchObject({ rep: 0, confirmed: 0 });
    // Purge takes the outcomes with the entries.
    expect(await sp.kbPurge('team')).toBe(2);
    await sp.kbInsert(older);
    expect(await sp.kbById(older.id, ['team'])).toMatchObject(NO_FIGURES);
    expect(await sp.kbOutcomeNotes(older.id, ['team'], 'did-not-work', 5)).toEqual([]);
  });

  it('outcomes of many identities at once on one private entry: each counted once', async () => {
    const s = await open();
    const sp = both(s.store);
    const now = s.clock.now();
    await sp.create({ slug: 'team', title: '', creator: 'a000001', created: now, closed: true });
    await sp.kbInsert(entry({ id: 'kmany0001', space: 'team', created: now }));
    const voters = await Promise.all(Array.from({ length: 8 }, async () => (await identity(s.store, now)).id));
    const res = await together(8, (i) => put(sp, ['team'], { entry: 'kmany0001', voter: voters[i]!, kind: 'worked', net: `10.0.${i}`, at: now }));
    expect(res.every((r) => r?.result === 'new')).toBe(true);
    expect(await sp.kbById('kmany0001', ['team'])).toMatchObject({ confirms: 8, principals: 8 });
  });

  it('private entries signed by an earlier ErrSig version are listed and re-signed; their old hash keeps resolving, for their space only, after a restart too', async () => {
    const s = await open();
    let sp = both(s.store);
    const now = s.clock.now();
    await sp.create({ slug: 'team', title: '', creator: 'a000001', created: now, closed: true });
    const out =
      "To github.com:acme/widgets.git\n ! [rejected]        main -> main (non-fast-forward)\nerror: failed to push some refs to 'github.com:acme/widgets.git'\nhint: Updates were rejected because the tip of your current branch is behind";
    const old = v2.errsig(out);
    const cur = errsig(out);
    expect(old.h).not.toBe(cur.h);
    const same = "ModuleNotFoundError: No module named 'zzqsame'";
    await sp.kbInsert(entry({ id: 'kpushsp01', space: 'team', sig: old.sig, h: old.h, ch: old.ch, title: old.sig, error: out, sigv: 2 }));
    await sp.kbInsert(entry({ id: 'ksamesp01', space: 'team', sig: v2.errsig(same).sig, h: v2.errsig(same).h, error: same }));
    await sp.kbInsert(entry({ id: 'kfreshsp1', space: 'team', error: 'x', sigv: ERRSIG_VERSION }));
    expect((await sp.kbStaleSigs(ERRSIG_VERSION, 10)).map((r) => r.id).sort()).toEqual(['kpushsp01', 'ksamesp01']);
    expect((await sp.kbStaleSigs(ERRSIG_VERSION, 10)).find((r) => r.id === 'kpushsp01')).toEqual({ id: 'kpushsp01', sig: old.sig, title: old.sig, error: out });
    expect(await sp.kbStaleSigs(ERRSIG_VERSION, 1)).toHaveLength(1);
    expect(await resignSpaceKb(sp)).toBe(2);
    expect(await resignSpaceKb(sp)).toBe(0);
    for (const restart of [false, true]) {
      if (restart) sp = both(await s.reopen());
      const r = sp;
      // A title that was the old signature follows the new one, and retrieval reads the new title.
      expect(await r.kbById('kpushsp01', ['team'])).toMatchObject({ sig: cur.sig, h: cur.h, ch: cur.ch, title: cur.sig });
      expect((await r.kbByHash(cur.h, ['team'], 5)).map((e) => e.id)).toEqual(['kpushsp01']);
      expect(await r.kbByHash(old.h, ['team'], 5)).toEqual([]);
      expect((await r.kbByOldHash(old.h, ['team'], 5)).map((e) => e.id)).toEqual(['kpushsp01']);
      expect(await r.kbByOldHash(old.h, ['other'], 5)).toEqual([]);
      expect(await r.kbByOldHash(old.h, [], 5)).toEqual([]);
      expect((await r.kbByCoarse(cur.ch, ['team'], 5)).map((e) => e.id)).toEqual(['kpushsp01']);
      expect((await r.kbSearch(['non-fast-forward', 'ref'], ['team'], 5)).map((e) => e.id)).toEqual(['kpushsp01']);
      // An unchanged hash needs no alias.
      expect((await r.kbByHash(errsig(same).h, ['team'], 5)).map((e) => e.id)).toEqual(['ksamesp01']);
      expect(await r.kbByOldHash(errsig(same).h, ['team'], 5)).toEqual([]);
      expect(await r.kbStaleSigs(ERRSIG_VERSION, 10)).toEqual([]);
    }
    expect(await sp.kbPurge('team')).toBe(3);
    expect(await sp.kbByOldHash(old.h, ['team'], 5)).toEqual([]);
  });

  it('the last owner of a closed space with members or entries stays; of two owners leaving at once one goes; open spaces as before', async () => {
    const s = await open();
    const sp = both(s.store);
    const now = s.clock.now();
    await sp.create({ slug: 'team', title: '', creator: 'a000001', created: now, closed: true });
    await sp.join('team', 'a000002', now);
    expect(await sp.leave('team', 'a000001')).toBe('last-owner');
    expect(await sp.role('team', 'a000001')).toBe('owner');
    expect(await sp.leave('team', 'a000002')).toBe('left');
    // Alone, with a private entry: still the last owner; after the purge it may go.
    await sp.kbInsert(entry({ id: 'klast0001', space: 'team' }));
    expect(await sp.leave('team', 'a000001')).toBe('last-owner');
    await sp.kbPurge('team');
    expect(await sp.leave('team', 'a000001')).toBe('left');
    expect(await sp.leave('team', 'a000001')).toBe('not');
    expect(await sp.leave('nosuch', 'a000001')).toBeNull();
    // Two owners and a member: both owners leaving at once, one goes and one stays.
    await sp.create({ slug: 'pair', title: '', creator: 'a000003', created: now, closed: true });
    await sp.addInvite({ h: 'hown', space: 'pair', role: 'owner', by: 'a000003', created: now, expires: now + 1000 });
    expect(await sp.redeemInvite('hown', 'pair', 'a000004', now)).toBe('joined');
    await sp.join('pair', 'a000005', now);
    const res = await together(2, (i) => sp.leave('pair', i ? 'a000004' : 'a000003'));
    expect(res.sort()).toEqual(['last-owner', 'left']);
    expect((await sp.members('pair', 10)).length).toBe(2);
    // An open space's creator leaves as before.
    await sp.create({ slug: 'board', title: '', creator: 'a000006', created: now });
    await sp.join('board', 'a000007', now);
    expect(await sp.leave('board', 'a000006')).toBe('left');
  });
}
