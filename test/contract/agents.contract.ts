// Hosted agents: one card per identity (upserted, created kept), a directory limited to owners above
// a level floor and not frozen; inbound tasks that settle exactly once (also under concurrent
// answers), follow-ups only while open, the inbox newest first, and what a restart must repair.
import { expect, it } from 'vitest';
import type { AgentCardRec, InboundRec } from '../../src/core/agents/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { identity, together } from './fixtures.js';

const card = (id: string, t: number, o: Partial<AgentCardRec> = {}): AgentCardRec => ({
  id,
  name: 'helper',
  description: 'does things',
  tags: ['python', 'ci'],
  inbound: true,
  created: t,
  updated: t,
  ...o,
});
const inbound = (task: string, agent: string, t: number, o: Partial<InboundRec> = {}): InboundRec => ({
  task,
  agent,
  sender: 'a000009',
  text: 'please help',
  state: 'open',
  answer: null,
  created: t,
  updated: t,
  synced: false,
  ...o,
});
const floor = (createdBefore: number) => ({ rep: 0, confirmed: 0, createdBefore });

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('upsertCard keeps one card per identity and its first created time; a restart keeps it', async () => {
    const s = await open();
    const now = s.clock.now();
    const a = (await identity(s.store, now)).id;
    await s.store.agents.upsertCard(card(a, now));
    await s.store.agents.upsertCard(card(a, now + 5, { name: 'renamed', tags: ['go'], inbound: false }));
    const got = await (await s.reopen()).agents.card(a);
    expect(got).toEqual({ id: a, name: 'renamed', description: 'does things', tags: ['go'], inbound: false, created: now, updated: now + 5 });
    expect(await s.store.agents.card('a_none')).toBeNull();
  });

  it('directory: inbound cards of unfrozen owners over the floor, newest update first, by whole tag, with a total and offset pages', async () => {
    const s = await open();
    const now = s.clock.now();
    const ok1 = (await identity(s.store, now - 10, { rep: 30, confirmed: 6 })).id;
    const ok2 = (await identity(s.store, now - 10, { rep: 50, confirmed: 9 })).id;
    const young = (await identity(s.store, now, { rep: 30, confirmed: 6 })).id;
    const low = (await identity(s.store, now - 10, { rep: 1 })).id;
    const frozen = (await identity(s.store, now - 10, { rep: 30, confirmed: 6, frozen: true })).id;
    const closed = (await identity(s.store, now - 10, { rep: 30, confirmed: 6 })).id;
    await s.store.agents.upsertCard(card(ok1, now, { updated: now + 1, tags: ['python'] }));
    await s.store.agents.upsertCard(card(ok2, now, { updated: now + 2, tags: ['py', 'go'] }));
    for (const id of [young, low, frozen]) await s.store.agents.upsertCard(card(id, now, { updated: now + 3 }));
    await s.store.agents.upsertCard(card(closed, now, { inbound: false, updated: now + 4 }));
    const f = { rep: 30, confirmed: 6, createdBefore: now - 1 };
    const all = await s.store.agents.directory({ offset: 0, limit: 10, floor: f });
    expect(all.total).toBe(2);
    expect(all.rows.map((c) => c.id)).toEqual([ok2, ok1]);
    expect((await s.store.agents.directory({ offset: 1, limit: 1, floor: f })).rows.map((c) => c.id)).toEqual([ok1]);
    const py = await s.store.agents.directory({ tag: 'py', offset: 0, limit: 10, floor: f });
    expect(py.rows.map((c) => c.id)).toEqual([ok2]);
    expect((await s.store.agents.directory({ tag: 'p%', offset: 0, limit: 10, floor: f })).total).toBe(0);
  });

  it('inbound: settles exactly once, also when 10 answers race; follow-ups only while open', async () => {
    const s = await open();
    const now = s.clock.now();
    const agent = (await identity(s.store, now)).id;
    await s.store.agents.addInbound(inbound('task-1', agent, now));
    expect(await s.store.agents.appendInbound('task-1', '\nmore detail', now + 1)).toBe(true);
    expect(await s.store.agents.inbound('task-1')).toMatchObject({ text: 'please help\nmore detail', updated: now + 1, state: 'open' });
    expect(await s.store.agents.countOpen(agent)).toBe(1);
    const res = await together(10, (i) => s.store.agents.settle('task-1', i % 3 ? 'completed' : 'rejected', `answer ${i}`, now + 2));
    expect(res.filter(Boolean)).toHaveLength(1);
    const won = res.indexOf(true);
    expect(await s.store.agents.inbound('task-1')).toMatchObject({ state: won % 3 ? 'completed' : 'rejected', answer: `answer ${won}`, synced: false });
    expect(await s.store.agents.appendInbound('task-1', 'late', now + 3)).toBe(false);
    expect(await s.store.agents.settle('task-1', 'canceled', null, now + 3)).toBe(false);
    expect(await s.store.agents.countOpen(agent)).toBe(0);
    expect(await s.store.agents.inbound('task-none')).toBeNull();
  });

  it('pending: open tasks and answered unsynced ones (a restart keeps them); synced answers and cancellations are not', async () => {
    const s = await open();
    const now = s.clock.now();
    const agent = (await identity(s.store, now)).id;
    for (const t of ['open', 'answered', 'synced', 'canceled']) await s.store.agents.addInbound(inbound(t, agent, now));
    await s.store.agents.settle('answered', 'completed', 'done', now);
    await s.store.agents.settle('synced', 'completed', 'done', now);
    await s.store.agents.markSynced('synced');
    await s.store.agents.settle('canceled', 'canceled', null, now);
    const again = await s.reopen();
    expect((await again.agents.pending()).map((r) => r.task).sort()).toEqual(['answered', 'open']);
    await again.agents.markSynced('answered');
    expect((await again.agents.pending()).map((r) => r.task)).toEqual(['open']);
  });

  it("inbox: the agent's tasks newest first, open only on demand, paged by created", async () => {
    const s = await open();
    const now = s.clock.now();
    const agent = (await identity(s.store, now)).id;
    const other = (await identity(s.store, now)).id;
    for (let i = 0; i < 5; i++) await s.store.agents.addInbound(inbound(`t${i}`, agent, now + i));
    await s.store.agents.addInbound(inbound('x', other, now));
    await s.store.agents.settle('t3', 'completed', 'ok', now + 10);
    expect((await s.store.agents.inbox(agent, { open: false, limit: 10 })).map((r) => r.task)).toEqual(['t4', 't3', 't2', 't1', 't0']);
    expect((await s.store.agents.inbox(agent, { open: true, limit: 10 })).map((r) => r.task)).toEqual(['t4', 't2', 't1', 't0']);
    expect((await s.store.agents.inbox(agent, { open: false, before: now + 3, limit: 2 })).map((r) => r.task)).toEqual(['t2', 't1']);
    expect(await s.store.agents.countOpen(agent)).toBe(4);
  });

  it('the floor compares with at-least and at-or-before', async () => {
    const s = await open();
    const now = s.clock.now();
    const edge = (await identity(s.store, now, { rep: 30, confirmed: 6 })).id;
    await s.store.agents.upsertCard(card(edge, now));
    expect((await s.store.agents.directory({ offset: 0, limit: 5, floor: { rep: 30, confirmed: 6, createdBefore: now } })).total).toBe(1);
    expect((await s.store.agents.directory({ offset: 0, limit: 5, floor: { rep: 31, confirmed: 6, createdBefore: now } })).total).toBe(0);
    expect((await s.store.agents.directory({ offset: 0, limit: 5, floor: floor(now - 1) })).total).toBe(0);
  });

  it('concurrent follow-ups to an open task all land, none lost', async () => {
    const s = await open();
    const now = s.clock.now();
    const agent = (await identity(s.store, now)).id;
    await s.store.agents.addInbound(inbound('task-1', agent, now));
    const res = await together(8, (i) => s.store.agents.appendInbound('task-1', `|m${i}`, now + 1));
    expect(res.every(Boolean)).toBe(true);
    const text = (await s.store.agents.inbound('task-1'))!.text;
    for (let i = 0; i < 8; i++) expect(text).toContain(`|m${i}`);
    expect(text.length).toBe('please help'.length + 8 * 3);
  });
}
