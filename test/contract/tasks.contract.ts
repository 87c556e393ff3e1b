// Task board: inserts with their escrow in one transaction, transitions as compare-and-set on
// (state, claimant) with their credit movement, exactly one winner among concurrent claimers and
// accepters, newest-first lists with a cursor and filters, counters, restart.
import { expect, it } from 'vitest';
import { escrowTx, mintTx, payoutTx, refundTx } from '../../src/core/platform/ledger/ledger.js';
import type { NewTask, Task } from '../../src/core/tasks/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { together } from './fixtures.js';

let k = 0;
const tid = () => `t${(k++).toString(36).padStart(8, '0')}`;
const bid = () => `b${(k++).toString(36).padStart(8, '0')}`;

function task(now: number, o: Partial<NewTask> = {}): NewTask {
  return {
    id: tid(),
    title: 'Parse ISO dates',
    body: 'in the log reader',
    tags: ['parser', 'dates'],
    creator: 'a000001',
    space: null,
    bounty: null,
    credits: 0,
    created: now,
    ...o,
  };
}

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('insert returns the open task; byId and byBounty find it, also after a restart', async () => {
    const s = await open();
    const now = s.clock.now();
    await s.store.ledger.post(mintTx('a000001', 50), now);
    const b = bid();
    const t = (await s.store.tasks.insert(task(now, { bounty: b, credits: 20, space: 's:parsers' }), escrowTx(b, 'a000001', 20), now)) as Task;
    expect(t).toMatchObject({
      state: 'open',
      claimant: null,
      claimed: null,
      result: null,
      note: null,
      hunter: null,
      tags: ['parser', 'dates'],
      space: 's:parsers',
      credits: 20,
      created: now,
      updated: now,
    });
    expect(typeof t.n).toBe('number');
    expect(await s.store.tasks.byId(t.id)).toEqual(t);
    expect(await s.store.tasks.byBounty(b)).toEqual(t);
    expect(await s.store.ledger.balance('a000001')).toBe(30);
    expect(await s.store.tasks.escrowedBy('a000001')).toBe(20);
    const again = await s.reopen();
    expect(await again.tasks.byId(t.id)).toEqual(t);
    expect(await again.tasks.byId('t_missing')).toBeNull();
    expect(await again.tasks.byBounty('b_missing')).toBeNull();
  });

  it('text round-trips exactly (accents, emoji, quotes, newlines)', async () => {
    const s = await open();
    const now = s.clock.now();
    const t = (await s.store.tasks.insert(
      task(now, { title: 'Décoder l’UTF-8 — “quoted” 🦘', body: "line 1\nline 2\t'; DROP TABLE tasks; --", tags: ['ünï', 'x-y'] }),
      null,
      now,
    )) as Task;
    const got = (await (await s.reopen()).tasks.byId(t.id))!;
    expect([got.title, got.body, got.tags]).toEqual(['Décoder l’UTF-8 — “quoted” 🦘', "line 1\nline 2\t'; DROP TABLE tasks; --", ['ünï', 'x-y']]);
    expect((await s.store.tasks.list({ tag: 'ünï' }, 10)).map((x) => x.id)).toEqual([t.id]);
  });

  it('a cursor is stable while tasks are added: paging on sees every older task once and none of the new ones', async () => {
    const s = await open();
    const now = s.clock.now();
    const old: string[] = [];
    for (let i = 0; i < 9; i++) old.push(((await s.store.tasks.insert(task(now + i), null, now + i)) as Task).id);
    const first = await s.store.tasks.list({}, 4);
    for (let i = 0; i < 5; i++) await s.store.tasks.insert(task(now + 100 + i), null, now + 100 + i);
    const seen = first.map((t) => t.id);
    let before = first.at(-1)!.n;
    for (;;) {
      const page = await s.store.tasks.list({ before }, 4);
      seen.push(...page.map((t) => t.id));
      if (page.length < 4) break;
      before = page.at(-1)!.n;
    }
    expect(seen).toEqual([...old].reverse());
  });

  it('an id or bounty id in use is taken; a short creator gets short and no task is written', async () => {
    const s = await open();
    const now = s.clock.now();
    const t = (await s.store.tasks.insert(task(now), null, now)) as Task;
    expect(await s.store.tasks.insert(task(now, { id: t.id }), null, now)).toBe('taken');
    await s.store.ledger.post(mintTx('a000001', 5), now);
    const b = bid();
    await s.store.tasks.insert(task(now, { bounty: b, credits: 1 }), escrowTx(b, 'a000001', 1), now);
    expect(await s.store.tasks.insert(task(now, { bounty: b, credits: 1 }), escrowTx(b, 'a000001', 1), now)).toBe('taken');
    const poor = task(now, { bounty: bid(), credits: 9 });
    expect(await s.store.tasks.insert(poor, escrowTx(poor.bounty!, 'a000001', 9), now)).toEqual({ short: 'a000001' });
    expect(await s.store.tasks.byId(poor.id)).toBeNull();
    expect(await s.store.ledger.balance('a000001')).toBe(4);
    expect(await s.store.ledger.audit()).toMatchObject({ problems: [] });
  });

  it('transition is a compare-and-set on state and claimant; untouched fields are kept, null clears', async () => {
    const s = await open();
    const now = s.clock.now();
    const t = (await s.store.tasks.insert(task(now), null, now)) as Task;
    const c = (await s.store.tasks.transition(t.id, { state: 'open' }, { state: 'claimed', claimant: 'a000002', claimed: now + 5 }, null, now + 5)) as Task;
    expect(c).toMatchObject({ state: 'claimed', claimant: 'a000002', claimed: now + 5, updated: now + 5, title: t.title });
    expect(await s.store.tasks.transition(t.id, { state: 'open' }, { state: 'claimed', claimant: 'a000003' }, null, now)).toBe('stale');
    expect(await s.store.tasks.transition(t.id, { state: 'claimed', claimant: 'a000003' }, { state: 'done', result: 'x' }, null, now)).toBe('stale');
    expect(await s.store.tasks.transition(t.id, { state: 'claimed', claimant: null }, { state: 'done', result: 'x' }, null, now)).toBe('stale');
    const d = (await s.store.tasks.transition(t.id, { state: 'claimed', claimant: 'a000002' }, { state: 'done', result: 'shipped' }, null, now + 6)) as Task;
    expect(d).toMatchObject({ state: 'done', claimant: 'a000002', claimed: now + 5, result: 'shipped' });
    const r = (await s.store.tasks.transition(
      t.id,
      { state: 'done' },
      { state: 'open', claimant: null, claimed: null, note: 'not yet' },
      null,
      now + 7,
    )) as Task;
    expect(r).toMatchObject({ state: 'open', claimant: null, claimed: null, result: 'shipped', note: 'not yet' });
    expect(await s.store.tasks.transition(t.id, { state: 'open', claimant: null }, { state: 'cancelled' }, null, now + 8)).toMatchObject({
      state: 'cancelled',
    });
    expect(await s.store.tasks.transition('t_missing', { state: 'open' }, { state: 'claimed' }, null, now)).toBe('stale');
    expect(await s.reopen().then((st) => st.tasks.byId(t.id))).toMatchObject({ state: 'cancelled', note: 'not yet', updated: now + 8 });
  });

  it('30 concurrent claimers: exactly one holds the claim', async () => {
    const s = await open();
    const now = s.clock.now();
    const t = (await s.store.tasks.insert(task(now), null, now)) as Task;
    const who = (i: number) => `a9${String(i).padStart(5, '0')}`;
    const res = await together(30, (i) => s.store.tasks.transition(t.id, { state: 'open' }, { state: 'claimed', claimant: who(i), claimed: now }, null, now));
    const won = res.filter((r): r is Task => typeof r === 'object' && 'state' in r);
    expect(won).toHaveLength(1);
    expect(res.filter((r) => r === 'stale')).toHaveLength(29);
    expect((await s.store.tasks.byId(t.id))!.claimant).toBe(won[0]!.claimant);
  });

  it('a bounty is paid exactly once under concurrent accepts and refunds; the ledger balances', async () => {
    const s = await open();
    const now = s.clock.now();
    await s.store.ledger.post(mintTx('a000001', 100), now);
    const b = bid();
    const t = (await s.store.tasks.insert(task(now, { bounty: b, credits: 40 }), escrowTx(b, 'a000001', 40), now)) as Task;
    await s.store.tasks.transition(t.id, { state: 'open' }, { state: 'claimed', claimant: 'a000002', claimed: now }, null, now);
    await s.store.tasks.transition(t.id, { state: 'claimed', claimant: 'a000002' }, { state: 'done', result: 'ok' }, null, now);
    const res = await together(20, (i) =>
      i % 2
        ? s.store.tasks.transition(t.id, { state: 'done' }, { state: 'accepted', hunter: 'a000002' }, payoutTx(b, 'a000002', 40), now)
        : s.store.tasks.transition(t.id, { state: 'done' }, { state: 'cancelled' }, refundTx(b, 'a000001', 40), now),
    );
    expect(res.filter((r) => r !== 'stale')).toHaveLength(1);
    const paid = await s.store.ledger.balance('a000002');
    const back = await s.store.ledger.balance('a000001');
    expect(paid + back).toBe(100);
    expect([0, 40]).toContain(paid);
    expect(await s.store.ledger.balance(`e:${b}`)).toBe(0);
    expect(await s.store.ledger.audit()).toMatchObject({ minted: 100, escrow: 0, problems: [] });
  });

  it('a transition whose movement is short changes nothing', async () => {
    const s = await open();
    const now = s.clock.now();
    const t = (await s.store.tasks.insert(task(now), null, now)) as Task;
    const r = await s.store.tasks.transition(
      t.id,
      { state: 'open' },
      { state: 'claimed', claimant: 'a000002' },
      {
        kind: 'payout',
        ref: null,
        postings: [
          { account: 'a000005', amount: -1 },
          { account: 'a000002', amount: 1 },
        ],
      },
      now + 1,
    );
    expect(r).toEqual({ short: 'a000005' });
    expect(await s.store.tasks.byId(t.id)).toEqual(t);
  });

  it('list: newest first, a cursor that pages through every task once, and each filter', async () => {
    const s = await open();
    const now = s.clock.now();
    const made: Task[] = [];
    for (let i = 0; i < 12; i++) {
      const t = (await s.store.tasks.insert(
        task(now + i, {
          title: i % 3 === 0 ? `Quokka importer ${i}` : `Task ${i}`,
          tags: i % 2 ? ['odd'] : ['even', 'x'],
          creator: i < 6 ? 'a000001' : 'a000002',
          space: i % 4 === 0 ? 's:four' : null,
        }),
        null,
        now + i,
      )) as Task;
      made.push(t);
    }
    const all = await s.store.tasks.list({}, 100);
    expect(all.map((t) => t.id)).toEqual([...made].reverse().map((t) => t.id));
    const seen: string[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await s.store.tasks.list({ before }, 5);
      seen.push(...page.map((t) => t.id));
      if (page.length < 5) break;
      before = page.at(-1)!.n;
    }
    expect(seen).toEqual(all.map((t) => t.id));
    expect((await s.store.tasks.list({ tag: 'odd' }, 100)).map((t) => t.id)).toEqual(all.filter((t) => t.tags.includes('odd')).map((t) => t.id));
    expect(await s.store.tasks.list({ creator: 'a000002' }, 100)).toHaveLength(6);
    expect((await s.store.tasks.list({ space: 's:four' }, 100)).map((t) => t.id)).toEqual(all.filter((t) => t.space === 's:four').map((t) => t.id));
    expect((await s.store.tasks.list({ q: 'quokka' }, 100)).map((t) => t.id)).toEqual(all.filter((t) => t.title.startsWith('Quokka')).map((t) => t.id));
    await s.store.tasks.transition(made[1]!.id, { state: 'open' }, { state: 'claimed', claimant: 'a000007' }, null, now);
    await s.store.tasks.transition(made[2]!.id, { state: 'open' }, { state: 'accepted', hunter: 'a000007' }, null, now);
    expect((await s.store.tasks.list({ claimant: 'a000007' }, 100)).map((t) => t.id)).toEqual([made[2]!.id, made[1]!.id]);
    expect((await s.store.tasks.list({ state: 'claimed' }, 100)).map((t) => t.id)).toEqual([made[1]!.id]);
    expect((await s.store.tasks.list({ state: 'open', tag: 'even', creator: 'a000001' }, 100)).map((t) => t.id)).toEqual([made[4]!.id, made[0]!.id]);
    expect(await s.store.tasks.list({ q: 'nothingmatchesthis' }, 100)).toEqual([]);
  });

  it('counters: per state, per space, tasks done by a hunter, credits in escrow', async () => {
    const s = await open();
    const now = s.clock.now();
    await s.store.ledger.post(mintTx('a000001', 100), now);
    const b1 = bid();
    const b2 = bid();
    const t1 = (await s.store.tasks.insert(task(now, { bounty: b1, credits: 10, space: 's:x' }), escrowTx(b1, 'a000001', 10), now)) as Task;
    const t2 = (await s.store.tasks.insert(task(now, { bounty: b2, credits: 15 }), escrowTx(b2, 'a000001', 15), now)) as Task;
    await s.store.tasks.insert(task(now, { space: 's:x' }), null, now);
    expect(await s.store.tasks.escrowedBy('a000001')).toBe(25);
    await s.store.tasks.transition(t1.id, { state: 'open' }, { state: 'accepted', hunter: 'a000002' }, payoutTx(b1, 'a000002', 10), now);
    await s.store.tasks.transition(t2.id, { state: 'open' }, { state: 'claimed', claimant: 'a000002' }, null, now);
    expect(await s.store.tasks.escrowedBy('a000001')).toBe(15);
    expect(await s.store.tasks.doneBy('a000002')).toBe(1);
    expect(await s.store.tasks.doneBy('a000001')).toBe(0);
    expect(await s.store.tasks.counts()).toEqual({ open: 1, claimed: 1, done: 0, accepted: 1, cancelled: 0 });
    expect(await s.store.tasks.counts('s:x')).toEqual({ open: 1, claimed: 0, done: 0, accepted: 1, cancelled: 0 });
    expect(await s.store.tasks.counts('s:none')).toEqual({ open: 0, claimed: 0, done: 0, accepted: 0, cancelled: 0 });
    expect(await s.store.ledger.audit()).toMatchObject({ problems: [] });
  });
}
