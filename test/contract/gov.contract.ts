// Governance port: proposals with their support per network, compare-and-set decisions (one winner),
// roadmap tasks shipping proposals once, checks recorded once, notices capped in the filing's own
// transaction and decided once, reports summed per target, /llms.txt revisions that only grow; all
// kept across a restart.
import { expect, it } from 'vitest';
import type { GovRepo, NewNotice } from '../../src/core/gov/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { together } from './fixtures.js';

const prop = (id: string, t: number, patch: string | null = null) => ({
  id,
  kind: 'feature',
  title: 'T',
  body: 'B',
  section: null,
  author: 'aauth',
  net: '10.0.0.0/24',
  patch,
  created: t,
});
const decision = (state: 'accepted' | 'planned' | 'later' | 'declined', at: number, revisitAt: number | null = null) => ({
  state,
  note: '',
  by: 'ops',
  at,
  revisitAt,
  bounty: 0,
});
const notice = (id: string, net: string, sgroup: string, t: number): NewNotice => ({
  id,
  url: 'http://x/about',
  ref: '/about',
  category: 'spam',
  reason: 'r',
  email: 'a@b.c',
  good_faith: true,
  net,
  sgroup,
  state: 'counted',
  created: t,
});

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('creates proposals once per id, sums support per network, one support per root', async () => {
    const s = await open();
    const g: GovRepo = s.store.gov;
    const t = s.clock.now();
    expect(await g.createProposal(prop('p000001', t))).toMatchObject({ id: 'p000001', state: 'open', check: null, hasPatch: false, nets: [] });
    expect(await g.createProposal(prop('p000001', t))).toBeNull();
    expect(await g.support({ proposal: 'p000001', root: 'a1', net: 'n1', lvl: 3, weight: 3, created: t })).toBe('new');
    expect(await g.support({ proposal: 'p000001', root: 'a1', net: 'n9', lvl: 3, weight: 3, created: t })).toBe('dup');
    await g.support({ proposal: 'p000001', root: 'a2', net: 'n1', lvl: 0, weight: 0.25, created: t });
    await g.support({ proposal: 'p000001', root: 'a3', net: 'n2', lvl: 1, weight: 1, created: t });
    const again = await s.reopen();
    expect((await again.gov.proposal('p000001'))!.nets).toEqual([
      { net: 'n1', w: 3.25, n: 2 },
      { net: 'n2', w: 1, n: 1 },
    ]);
    expect(await again.gov.supports(10)).toHaveLength(3);
  });

  it('decides by compare-and-set: of concurrent decisions from one state exactly one wins', async () => {
    const s = await open();
    const g = s.store.gov;
    const t = s.clock.now();
    await g.createProposal(prop('p000002', t));
    const rs = await Promise.all([
      g.decide('p000002', 'open', decision('accepted', t)),
      g.decide('p000002', 'open', decision('declined', t)),
      g.decide('p000002', 'open', decision('planned', t), { title: 'T', bounty: 5 }),
    ]);
    expect(rs.filter((r) => r !== 'stale')).toHaveLength(1);
    expect(await g.decide('p000002', 'open', decision('accepted', t))).toBe('stale');
  });

  it('opens a task with a planned decision; its done ships the proposal once', async () => {
    const s = await open();
    const g = s.store.gov;
    const t = s.clock.now();
    await g.createProposal(prop('p000003', t));
    const r = await g.decide('p000003', 'open', decision('planned', t), { title: 'T', bounty: 7 });
    expect(r).not.toBe('stale');
    const n = (r as { task: number }).task;
    expect(await g.tasks(10)).toEqual([expect.objectContaining({ n, proposal: 'p000003', state: 'open', bounty: 7 })]);
    expect(await g.taskDone(n, 'shipped in 1.1', t + 1)).toEqual({ proposal: 'p000003' });
    expect(await g.taskDone(n, 'again', t + 2)).toBe('done');
    expect(await g.taskDone(n + 100, '', t)).toBe('missing');
    expect((await (await s.reopen()).gov.proposal('p000003'))!.state).toBe('shipped');
  });

  it('reopens later proposals whose revisit time has come, once', async () => {
    const s = await open();
    const g = s.store.gov;
    const t = s.clock.now();
    await g.createProposal(prop('p000004', t));
    await g.decide('p000004', 'open', decision('later', t, t + 1000));
    expect(await g.reopenDue(t + 999)).toEqual([]);
    expect(await g.reopenDue(t + 1000)).toEqual(['p000004']);
    expect(await g.reopenDue(t + 5000)).toEqual([]);
    expect((await g.proposal('p000004'))!).toMatchObject({ state: 'open', revisitAt: null });
  });

  it('a patch requests a check; a result is recorded once', async () => {
    const s = await open();
    const g = s.store.gov;
    const t = s.clock.now();
    await g.createProposal(prop('p000005', t, '+x\n'));
    await g.createProposal(prop('p000006', t));
    expect((await g.checkQueue(10)).map((p) => p.id)).toEqual(['p000005']);
    expect(await g.patch('p000005')).toBe('+x\n');
    expect(await g.patch('p000006')).toBeNull();
    const wins = await Promise.all([g.recordCheck('p000005', 'pass', 'ok', t), g.recordCheck('p000005', 'fail', 'no', t)]);
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await g.recordCheck('p000006', 'pass', '', t)).toBe(false);
    expect(await g.checkQueue(10)).toEqual([]);
  });

  it('caps notices per network and super-group within the window; later ones are queued', async () => {
    const s = await open();
    const g = s.store.gov;
    const t = s.clock.now();
    const caps = { net: 2, group: 3, since: t - 1000 };
    expect((await g.fileNotice(notice('n1', 'a', 'G', t), caps)).state).toBe('counted');
    expect((await g.fileNotice(notice('n2', 'a', 'G', t), caps)).state).toBe('counted');
    expect((await g.fileNotice(notice('n3', 'a', 'G', t), caps)).state).toBe('queued');
    expect((await g.fileNotice(notice('n4', 'b', 'G', t), caps)).state).toBe('queued');
    expect((await g.fileNotice(notice('n5', 'c', 'H', t), caps)).state).toBe('counted');
    // Outside the window nothing counts.
    expect((await g.fileNotice(notice('n6', 'a', 'G', t + 5000), { net: 2, group: 3, since: t + 1 })).state).toBe('counted');
    expect((await g.notices({ open: true, limit: 10 })).map((n) => n.id).sort()).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'n6']);
  });

  it('decides a notice once; reports sum per target', async () => {
    const s = await open();
    const g = s.store.gov;
    const t = s.clock.now();
    await g.fileNotice(notice('n7', 'a', 'G', t), { net: 9, group: 9, since: 0 });
    const r = await Promise.all([g.decideNotice('n7', 'upheld', '', 'ops', t), g.decideNotice('n7', 'reversed', '', 'ops', t)]);
    expect(r.filter((x) => typeof x === 'object')).toHaveLength(1);
    expect(r.filter((x) => x === 'decided')).toHaveLength(1);
    expect(await g.decideNotice('nx', 'upheld', '', 'ops', t)).toBe('missing');
    expect(await (await s.reopen()).gov.notices({ open: true, limit: 10 })).toEqual([]);
    const g2 = s.store.gov;
    expect(await g2.addReport('kb:k1', 'notice:a', 1, t)).toBe(1);
    expect(await g2.addReport('kb:k1', 'notice:a', 1, t)).toBe(1);
    expect(await g2.addReport('kb:k1', 'notice:b', 1, t)).toBe(2);
    expect(await g2.dropReport('kb:k1', 'notice:a')).toBe(1);
  });

  it('numbers /llms.txt revisions from 2 and keeps them', async () => {
    const s = await open();
    const g = s.store.gov;
    const t = s.clock.now();
    expect(await g.llmsRevs()).toEqual([]);
    expect((await g.addLlmsRev({ section: 'norms', text: '- a', proposal: 'p1', why: 'support', created: t })).rev).toBe(2);
    expect((await g.addLlmsRev({ section: 'norms', text: '- b', proposal: null, why: 'veto', created: t })).rev).toBe(3);
    expect((await (await s.reopen()).gov.llmsRevs()).map((r) => [r.rev, r.text])).toEqual([
      [2, '- a'],
      [3, '- b'],
    ]);
  });

  it('notices filed at once from one network: the cap still holds; revisions added at once get distinct numbers', async () => {
    const s = await open();
    const g = s.store.gov;
    const t = s.clock.now();
    const filed = await together(6, (i) => g.fileNotice(notice(`nc${i}`, 'same', `G${i}`, t), { net: 2, group: 9, since: t - 1000 }));
    expect(filed.filter((n) => n.state === 'counted')).toHaveLength(2);
    const revs = await together(4, (i) => g.addLlmsRev({ section: 'norms', text: `- ${i}`, proposal: null, why: 'support', created: t }));
    expect(revs.map((r) => r.rev).sort()).toEqual([2, 3, 4, 5]);
  });
}
