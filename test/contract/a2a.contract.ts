// A2A task persistence: tasks scoped by (owner, agent), `created` kept across saves, batched saves,
// filtered lists with a total and offset pages, the retention sweep (bounded batches, push configs
// go with their task); push configs scoped the same way, replaced by id, kept across a restart.
import { expect, it } from 'vitest';
import type { A2aPushRecord, A2aTaskRecord } from '../../src/core/a2a/ports.js';
import { type Adapter, storeFor } from './adapters.js';

const rec = (id: string, t: number, o: Partial<A2aTaskRecord> = {}): A2aTaskRecord => ({
  id,
  owner: 'a000001',
  agent: '',
  contextId: 'ctx1',
  state: 'TASK_STATE_WORKING',
  stateAt: t,
  body: JSON.stringify({ id, n: 1 }),
  created: t,
  updated: t,
  ...o,
});
const push = (task: string, id: string, t: number, o: Partial<A2aPushRecord> = {}): A2aPushRecord => ({
  task,
  owner: 'a000001',
  agent: '',
  id,
  body: JSON.stringify({ url: `https://hook.test/${id}`, token: `tok-${id}` }),
  wire: '1.0',
  created: t,
  ...o,
});
const FINAL = ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED'];
const OPEN = ['TASK_STATE_WORKING', 'TASK_STATE_SUBMITTED'];

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('save then load within the (owner, agent) scope only; a later save replaces but keeps created; a restart keeps it', async () => {
    const s = await open();
    const t = s.clock.now();
    const r = rec('task-1', t);
    await s.store.a2a.tasks.save(r);
    expect(await s.store.a2a.tasks.load('task-1', 'a000001', '')).toEqual(r);
    expect(await s.store.a2a.tasks.load('task-1', 'a000002', '')).toBeNull();
    expect(await s.store.a2a.tasks.load('task-1', 'a000001', 'a000009')).toBeNull();
    expect(await s.store.a2a.tasks.load('task-1', '', '')).toBeNull();
    const next = rec('task-1', t + 5, { state: 'TASK_STATE_COMPLETED', body: '{"done":true}', created: t + 5, contextId: 'ctx2' });
    await s.store.a2a.tasks.save(next);
    expect(await (await s.reopen()).a2a.tasks.load('task-1', 'a000001', '')).toEqual({ ...next, created: t });
  });

  it('a save of the same id from another scope changes nothing in the first', async () => {
    const s = await open();
    const t = s.clock.now();
    const r = rec('task-1', t);
    await s.store.a2a.tasks.save(r);
    await s.store.a2a.tasks.save(rec('task-1', t + 1, { owner: 'a000002', body: '{"evil":1}' })).catch(() => undefined);
    expect(await s.store.a2a.tasks.load('task-1', 'a000001', '')).toEqual(r);
  });

  it('saveMany is all or none: a record the store cannot keep rolls the batch back', async () => {
    const s = await open();
    const t = s.clock.now();
    const bad = { ...rec('bad', t), body: null } as unknown as A2aTaskRecord;
    await expect(s.store.a2a.tasks.saveMany([rec('good', t), bad])).rejects.toThrow();
    expect(await s.store.a2a.tasks.load('good', 'a000001', '')).toBeNull();
  });

  it('saveMany writes every record', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.a2a.tasks.saveMany([rec('m1', t), rec('m2', t, { agent: 'a000005' }), rec('m3', t + 1)]);
    expect(await s.store.a2a.tasks.load('m2', 'a000001', 'a000005')).toMatchObject({ id: 'm2' });
    expect((await s.store.a2a.tasks.list({ owner: 'a000001', agent: '', offset: 0, limit: 10 })).total).toBe(2);
  });

  it("list: the scope's tasks newest update first, filtered by context, state and status time, with a total and offset pages", async () => {
    const s = await open();
    const t = s.clock.now();
    for (let i = 0; i < 9; i++) {
      await s.store.a2a.tasks.save(
        rec(`t${i}`, t + i, { contextId: i % 3 ? 'ctxA' : 'ctxB', state: i % 2 ? 'TASK_STATE_COMPLETED' : 'TASK_STATE_WORKING', stateAt: t + i }),
      );
    }
    await s.store.a2a.tasks.save(rec('other', t + 100, { owner: 'a000002' }));
    const all = await s.store.a2a.tasks.list({ owner: 'a000001', agent: '', offset: 0, limit: 100 });
    expect(all.total).toBe(9);
    expect(all.rows.map((r) => r.id)).toEqual(['t8', 't7', 't6', 't5', 't4', 't3', 't2', 't1', 't0']);
    const pages: string[] = [];
    for (let off = 0; off < 9; off += 4) {
      const p = await s.store.a2a.tasks.list({ owner: 'a000001', agent: '', offset: off, limit: 4 });
      expect(p.total).toBe(9);
      pages.push(...p.rows.map((r) => r.id));
    }
    expect(pages).toEqual(all.rows.map((r) => r.id));
    const b = await s.store.a2a.tasks.list({ owner: 'a000001', agent: '', contextId: 'ctxB', offset: 0, limit: 2 });
    expect(b.total).toBe(3);
    expect(b.rows.map((r) => r.id)).toEqual(['t6', 't3']);
    expect((await s.store.a2a.tasks.list({ owner: 'a000001', agent: '', state: 'TASK_STATE_COMPLETED', offset: 0, limit: 100 })).rows.map((r) => r.id)).toEqual(
      ['t7', 't5', 't3', 't1'],
    );
    expect((await s.store.a2a.tasks.list({ owner: 'a000001', agent: '', after: t + 6, offset: 0, limit: 100 })).rows.map((r) => r.id)).toEqual(['t8', 't7']);
  });

  it('push configs: scoped to (task, owner, agent), replaced by id, deleted one or all, sealed yet read back intact after a restart', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.a2a.tasks.save(rec('task-1', t));
    await s.store.a2a.push.save(push('task-1', 'p1', t));
    await s.store.a2a.push.save(push('task-1', 'p2', t + 1, { wire: '0.3' }));
    await s.store.a2a.push.save(push('task-1', 'p1', t + 2, { body: '{"url":"https://hook.test/new"}' }));
    expect(await s.store.a2a.push.count('task-1', 'a000001', '')).toBe(2);
    expect(await s.store.a2a.push.list('task-1', 'a000002', '')).toEqual([]);
    expect(await s.store.a2a.push.count('task-1', 'a000002', '')).toBe(0);
    const again = await s.reopen();
    const got = await again.a2a.push.list('task-1', 'a000001', '');
    expect(got.map((p) => [p.id, p.body, p.wire]).sort()).toEqual([
      ['p1', '{"url":"https://hook.test/new"}', '1.0'],
      ['p2', push('task-1', 'p2', t).body, '0.3'],
    ]);
    await again.a2a.push.delete('task-1', 'a000002', '', 'p1');
    expect(await again.a2a.push.count('task-1', 'a000001', '')).toBe(2);
    await again.a2a.push.delete('task-1', 'a000001', '', 'p1');
    expect((await again.a2a.push.list('task-1', 'a000001', '')).map((p) => p.id)).toEqual(['p2']);
    await again.a2a.push.delete('task-1', 'a000001', '');
    expect(await again.a2a.push.count('task-1', 'a000001', '')).toBe(0);
  });

  it("sweep: removes tasks older than their state's cutoff with their push configs, at most max per call", async () => {
    const s = await open();
    const t = s.clock.now();
    for (let i = 0; i < 5; i++) await s.store.a2a.tasks.save(rec(`done${i}`, t, { state: 'TASK_STATE_COMPLETED' }));
    await s.store.a2a.tasks.save(rec('done-new', t + 1000, { state: 'TASK_STATE_COMPLETED' }));
    await s.store.a2a.tasks.save(rec('open-old', t, { state: 'TASK_STATE_WORKING' }));
    await s.store.a2a.tasks.save(rec('open-kept', t + 10, { state: 'TASK_STATE_WORKING' }));
    await s.store.a2a.push.save(push('done0', 'p', t));
    const rule = { final: FINAL, finalBefore: t + 1, open: OPEN, openBefore: t + 5 };
    const first = await s.store.a2a.tasks.sweep(rule, 4);
    expect(first).toHaveLength(4);
    const second = await s.store.a2a.tasks.sweep(rule, 4);
    expect(second).toHaveLength(2);
    expect(await s.store.a2a.tasks.sweep(rule, 4)).toEqual([]);
    expect([...first, ...second].map((k) => k.id).sort()).toEqual(['done0', 'done1', 'done2', 'done3', 'done4', 'open-old']);
    expect([...first, ...second][0]).toMatchObject({ owner: 'a000001', agent: '' });
    expect(await s.store.a2a.tasks.load('done0', 'a000001', '')).toBeNull();
    expect(await s.store.a2a.push.count('done0', 'a000001', '')).toBe(0);
    expect(await s.store.a2a.tasks.load('done-new', 'a000001', '')).not.toBeNull();
    expect(await s.store.a2a.tasks.load('open-kept', 'a000001', '')).not.toBeNull();
  });

  it('concurrent sweeps (one per replica) remove each task once: none is reported twice', async () => {
    const s = await open();
    const t = s.clock.now();
    for (let i = 0; i < 12; i++) await s.store.a2a.tasks.save(rec(`old${i}`, t, { state: 'TASK_STATE_COMPLETED' }));
    const rule = { final: FINAL, finalBefore: t + 1, open: OPEN, openBefore: t + 1 };
    const runs = await Promise.all(Array.from({ length: 4 }, () => s.store.a2a.tasks.sweep(rule, 5)));
    const gone = runs.flat().map((k) => k.id);
    gone.push(...(await s.store.a2a.tasks.sweep(rule, 12)).map((k) => k.id));
    expect(gone.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `old${i}`).sort());
  });
}
