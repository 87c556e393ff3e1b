// KB outcomes (issue 35) on every adapter: one outcome per identity and entry (a later one
// replaces it), the entry's figures tallied by principal in the writing transaction (one network
// or one root counts once, at its heaviest member's weight), disputes that rank an entry after
// undisputed ones without hiding it, notes by kind, the changes feed's disputes, and the author's
// reputation and confirmed count following the weighted outcomes.
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { tallyFn, type OutcomeKind, type OutcomeWrite } from '../../src/core/kb/outcomes.js';
import type { NewEntry } from '../../src/core/kb/ports.js';
import type { Store } from '../../src/compose/store.js';
import { type Adapter, storeFor } from './adapters.js';
import { identity, newId, together } from './fixtures.js';

const DAY = 86_400_000;
const hash = (sig: string) => createHash('sha256').update(sig).digest('hex');
const SIG = 'py:ZzOutcomeError:zzoutcome';
const entry = (author: string, t: number, o: Partial<NewEntry> = {}): NewEntry => ({
  id: newId('k', 8),
  sig: SIG,
  h: hash(SIG),
  title: 'ZzOutcomeError in zzoutcome',
  error: 'ZzOutcomeError: zzoutcome broke',
  fix: 'pin zzoutcome to 1.2',
  eco: 'pypi',
  cls: 'ZzOutcomeError',
  tags: [],
  libs: [],
  author,
  created: t,
  ...o,
});

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  const put = (store: Store, o: Partial<OutcomeWrite> & Pick<OutcomeWrite, 'entry' | 'voter' | 'kind' | 'at'>) =>
    store.kb.outcome({ note: '', evidence: null, net: '', root: o.voter, ...o }, tallyFn);
  /** An L1 identity two days old (TRUST_LEVELS row 1): weight 1 x (0.5 + 0.5 x 2/30) = 0.53. */
  const l1 = async (store: Store, now: number) => (await identity(store, now - 2 * DAY, { rep: 5, confirmed: 1 })).id;
  /** A new L0 identity: weight 0.25 x 0.5 = 0.125. */
  const l0 = async (store: Store, now: number) => (await identity(store, now)).id;

  it('one outcome per identity and entry: a later one replaces it (counted once), the same again changes nothing; own and unknown entries', async () => {
    const s = await open();
    const now = s.clock.now();
    const a = await l0(s.store, now);
    const b = await l0(s.store, now);
    const e = (await s.store.kb.insert(entry(a, now)))!;
    expect(await put(s.store, { entry: e.id, voter: a, kind: 'worked', at: now })).toEqual({ result: 'own', prev: null });
    expect(await put(s.store, { entry: 'kzzzzzzzz', voter: b, kind: 'worked', at: now })).toBeNull();
    expect(await put(s.store, { entry: e.id, voter: b, kind: 'worked', at: now + 1, net: '10.1.1.0/24' })).toEqual({ result: 'new', prev: null });
    expect(await put(s.store, { entry: e.id, voter: b, kind: 'worked', at: now + 2, net: '10.1.1.0/24' })).toEqual({ result: 'same', prev: 'worked' });
    expect(await s.store.kb.byId(e.id)).toMatchObject({ confirms: 1, fails: 0, changes: 0, w_worked: 0.13, principals: 1, disputed: false, updated: now + 1 });
    const note = 'had to pin zzdep below 2 as well';
    const evidence = { cmd: 'pytest -q', exit_before: 1, exit_after: 0, versions: 'zzoutcome@1.2 zzdep@1.9' };
    expect(await put(s.store, { entry: e.id, voter: b, kind: 'worked-with-changes', note, evidence, at: now + 3, net: '10.1.1.0/24' })).toEqual({
      result: 'changed',
      prev: 'worked',
    });
    // The same kind with another note is a change; with `keep` (POST /k/{id}/ok and /fail) the same kind is the same.
    expect(await put(s.store, { entry: e.id, voter: b, kind: 'worked-with-changes', note, evidence, at: now + 4, net: '10.1.1.0/24' })).toMatchObject({
      result: 'same',
    });
    expect(await put(s.store, { entry: e.id, voter: b, kind: 'worked-with-changes', at: now + 4, keep: true })).toMatchObject({ result: 'same' });
    expect(await s.store.kb.byId(e.id)).toMatchObject({ confirms: 1, fails: 0, changes: 1, w_worked: 0, w_changes: 0.13, principals: 1 });
    expect(await s.store.kb.outcomeNotes(e.id, 'worked-with-changes', 10)).toEqual([{ note, evidence, at: now + 3 }]);
    expect(await s.store.kb.outcomeNotes(e.id, 'did-not-work', 10)).toEqual([]);
    expect(await put(s.store, { entry: e.id, voter: b, kind: 'did-not-work', note: 'still broken', at: now + 5 })).toEqual({
      result: 'changed',
      prev: 'worked-with-changes',
    });
    const again = await s.reopen();
    expect(await again.kb.byId(e.id)).toMatchObject({ confirms: 0, fails: 1, changes: 0, w_failed: 0.13, principals: 1 });
    expect(await again.kb.outcomeNotes(e.id, 'worked-with-changes', 10)).toEqual([]);
    expect(await again.kb.outcomeNotes(e.id, 'did-not-work', 10)).toEqual([{ note: 'still broken', evidence: null, at: now + 5 }]);
  });

  it("principals: one network or one root counts once, at its heaviest member's weight; raw counts stay per identity", async () => {
    const s = await open();
    const now = s.clock.now();
    const author = await l0(s.store, now);
    const e = (await s.store.kb.insert(entry(author, now)))!;
    // Ten new identities on one network, plus one L1 on that network: one principal weighing 0.53.
    for (let i = 0; i < 10; i++) await put(s.store, { entry: e.id, voter: await l0(s.store, now), kind: 'worked', net: '10.7.7.0/24', at: now });
    await put(s.store, { entry: e.id, voter: await l1(s.store, now), kind: 'worked', net: '10.7.7.0/24', at: now });
    expect(await s.store.kb.byId(e.id)).toMatchObject({ confirms: 11, w_worked: 0.53, principals: 1 });
    // Two identities of one root on two other networks join it all: still one principal.
    const root = await l0(s.store, now);
    await put(s.store, { entry: e.id, voter: await l0(s.store, now), kind: 'worked', net: '10.8.8.0/24', root, at: now });
    await put(s.store, { entry: e.id, voter: await l0(s.store, now), kind: 'worked', net: '10.7.7.0/24', root, at: now });
    expect(await s.store.kb.byId(e.id)).toMatchObject({ confirms: 13, w_worked: 0.53, principals: 1 });
    // Another network is another principal; an IPv6 /48 likewise.
    await put(s.store, { entry: e.id, voter: await l1(s.store, now), kind: 'worked', net: '2001:db8:1::/48', at: now });
    expect(await s.store.kb.byId(e.id)).toMatchObject({ confirms: 14, w_worked: 1.07, principals: 2 });
  });

  it('15 identities of one network at once count as one principal (each tally sees every outcome before it)', async () => {
    const s = await open();
    const now = s.clock.now();
    const author = await l0(s.store, now);
    const e = (await s.store.kb.insert(entry(author, now)))!;
    const voters: string[] = [];
    for (let i = 0; i < 15; i++) voters.push(await l0(s.store, now));
    await together(15, (i) => put(s.store, { entry: e.id, voter: voters[i]!, kind: 'worked', net: '10.9.9.0/24', at: now }));
    expect(await s.store.kb.byId(e.id)).toMatchObject({ confirms: 15, w_worked: 0.13, principals: 1 });
  });

  it('disputes: weighted did-not-work past the threshold ranks an entry after undisputed ones, never hides it; the feed lists it; worked can lift it', async () => {
    const s = await open();
    const now = s.clock.now();
    const author = await l0(s.store, now);
    const wrong = (await s.store.kb.insert(entry(author, now + 2, { title: 'wrong fix' })))!;
    const right = (await s.store.kb.insert(entry(author, now + 1, { title: 'right fix' })))!;
    // Raw numbers favour the wrong one: twenty new identities of one network say it worked.
    for (let i = 0; i < 20; i++) await put(s.store, { entry: wrong.id, voter: await l0(s.store, now), kind: 'worked', net: '10.66.6.0/24', at: now + 10 });
    expect((await s.store.kb.byHash(wrong.h, 10, false)).map((h) => h.id)).toEqual([wrong.id, right.id]);
    expect(await s.store.identities.byId(author)).toMatchObject({ rep: 1, confirmed: 1 });
    // Two L1 identities of two networks: 1.07 did-not-work against 0.13 worked.
    const l1s = [await l1(s.store, now), await l1(s.store, now)];
    await put(s.store, { entry: wrong.id, voter: l1s[0]!, kind: 'did-not-work', note: 'pinning did nothing here', net: '10.1.0.0/24', at: now + 20 });
    expect(await s.store.kb.byId(wrong.id)).toMatchObject({ disputed: false, w_failed: 0.53 });
    await put(s.store, { entry: wrong.id, voter: l1s[1]!, kind: 'did-not-work', net: '10.2.0.0/24', at: now + 30 });
    expect(await s.store.kb.byId(wrong.id)).toMatchObject({
      confirms: 20,
      fails: 2,
      w_worked: 0.13,
      w_failed: 1.07,
      principals: 3,
      disputed: true,
      disputed_at: now + 30,
    });
    const hits = await s.store.kb.byHash(wrong.h, 10, false);
    expect(hits.map((h) => [h.id, h.disputed])).toEqual([
      [right.id, false],
      [wrong.id, true],
    ]);
    expect((await s.store.kb.search('zzoutcome', 10)).map((h) => h.id)).toEqual([right.id, wrong.id]);
    // The author's reputation and confirmed count follow: round(5 x 0.13 - 2 x 1.07) < 0, floored at 0; a disputed entry is not confirmed.
    expect(await s.store.identities.byId(author)).toMatchObject({ rep: 0, confirmed: 0 });
    expect((await s.store.kb.disputes(0, 10)).map((x) => [x.id, x.disputed_at])).toEqual([[wrong.id, now + 30]]);
    expect(await s.store.kb.disputes(now + 31, 10)).toEqual([]);
    // A third L1 saying it did not work keeps the first dispute time.
    await put(s.store, { entry: wrong.id, voter: await l1(s.store, now), kind: 'did-not-work', net: '10.3.0.0/24', at: now + 40 });
    expect(await s.store.kb.byId(wrong.id)).toMatchObject({ disputed: true, disputed_at: now + 30 });
    // Worked from enough principals lifts the dispute.
    for (let i = 0; i < 4; i++) await put(s.store, { entry: wrong.id, voter: await l1(s.store, now), kind: 'worked', net: `10.4.${i}.0/24`, at: now + 50 });
    expect(await (await s.reopen()).kb.byId(wrong.id)).toMatchObject({ disputed: false, disputed_at: 0 });
    expect(await s.store.kb.disputes(0, 10)).toEqual([]);
    expect(await s.store.identities.byId(author)).toMatchObject({ confirmed: 1 });
  });

  it('notes of one kind, newest first, bounded; outcomes without note or evidence are not notes; a hidden entry has none', async () => {
    const s = await open();
    const now = s.clock.now();
    const author = await l0(s.store, now);
    const e = (await s.store.kb.insert(entry(author, now)))!;
    const kinds: OutcomeKind[] = ['did-not-work', 'did-not-work', 'did-not-work', 'worked'];
    for (const [i, kind] of kinds.entries())
      await put(s.store, { entry: e.id, voter: await l0(s.store, now), kind, note: i === 1 ? '' : `note ${i}`, at: now + i });
    expect((await s.store.kb.outcomeNotes(e.id, 'did-not-work', 10)).map((n) => n.note)).toEqual(['note 2', 'note 0']);
    expect((await s.store.kb.outcomeNotes(e.id, 'did-not-work', 1)).map((n) => n.note)).toEqual(['note 2']);
    expect((await s.store.kb.outcomeNotes(e.id, 'worked', 10)).map((n) => n.note)).toEqual(['note 3']);
    await s.store.kb.setHidden(e.id, true);
    expect(await s.store.kb.outcomeNotes(e.id, 'did-not-work', 10)).toEqual([]);
    expect(await put(s.store, { entry: e.id, voter: await l0(s.store, now), kind: 'worked', at: now })).toBeNull();
  });
}
