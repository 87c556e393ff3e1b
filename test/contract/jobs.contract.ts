// Job queue: each job to exactly one caller, lease expiry and redelivery, lease tokens (a stale
// worker's ack is refused), backoff then dead letters, delayed jobs, extension, idempotency keys,
// retry of dead jobs, persistence across a restart.
import { expect, it, vi } from 'vitest';
import type { Job } from '../../src/core/platform/jobs/ports.js';
import { limit } from '../../src/core/kernel/limits.js';
import { type Adapter, storeFor } from './adapters.js';

const backoff = (tries: number) => Math.min(limit('jobs.backoff_max_ms'), limit('jobs.backoff_base_ms') * 2 ** (tries - 1));

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('many concurrent lease calls: each job goes to exactly one caller', async () => {
    const s = await open();
    const q = s.store.jobs;
    const enq = await Promise.all(Array.from({ length: 60 }, (_, i) => q.enqueue('w', { i })));
    expect(new Set(enq).size).toBe(60);
    const got = (await Promise.all(Array.from({ length: 100 }, (_, i) => q.lease('w', 10_000, 1 + (i % 3))))).flat();
    expect(got.map((j) => j.id).sort()).toEqual([...enq].sort());
    expect(new Set(got.map((j) => j.lease)).size).toBe(60);
    for (const j of got) expect(j).toMatchObject({ queue: 'w', tries: 1, maxTries: limit('jobs.max_tries'), leaseUntil: s.clock.now() + 10_000, error: null });
    expect(await q.lease('w', 10_000, 10)).toEqual([]);
    expect(await q.stats('w')).toEqual({ ready: 0, delayed: 0, leased: 60, dead: 0 });
    // Another queue is apart.
    expect(await q.stats('other')).toEqual({ ready: 0, delayed: 0, leased: 0, dead: 0 });
  });

  it('overview: depth by queue kind (the name up to its first colon) and the oldest ready job', async () => {
    const s = await open();
    const q = s.store.jobs;
    expect(await q.overview()).toEqual([]);
    const t0 = s.clock.now();
    await q.enqueue('wq:alice:a', 1);
    s.clock.advance(5);
    await q.enqueue('wq:bob:b', 2);
    await q.enqueue('wq:bob:b', 3, { delayMs: 60_000 });
    await q.enqueue('ex', 4);
    await q.enqueue('ex', 5);
    await q.lease('ex', 10_000, 1);
    s.clock.advance(10);
    const o = await q.overview();
    expect(o).toEqual([
      { kind: 'ex', ready: 1, delayed: 0, leased: 1, dead: 0, oldestReadyAt: t0 + 5 },
      { kind: 'wq', ready: 2, delayed: 1, leased: 0, dead: 0, oldestReadyAt: t0 },
    ]);
    // Nothing ready: no oldest job.
    await q.lease('ex', 10_000, 5);
    expect((await q.overview()).find((k) => k.kind === 'ex')).toEqual({ kind: 'ex', ready: 0, delayed: 0, leased: 2, dead: 0, oldestReadyAt: null });
  });

  it('leases oldest due first and carries the payload', async () => {
    const s = await open();
    const q = s.store.jobs;
    const late = await q.enqueue('o', 'late', { delayMs: 10 });
    const a = await q.enqueue('o', { n: 1, deep: { x: [1, 2] } });
    const b = await q.enqueue('o', 'two');
    s.clock.advance(10);
    const got = await q.lease('o', 1000, 3);
    expect(got.map((j) => j.id)).toEqual([a, b, late]);
    expect(got[0]!.payload).toEqual({ n: 1, deep: { x: [1, 2] } });
  });

  it('an expired lease is redelivered with a new token; the stale holder can neither ack, nack nor extend', async () => {
    const s = await open();
    const q = s.store.jobs;
    const id = await q.enqueue('r', 'x');
    const [first] = await q.lease('r', 5000);
    s.clock.advance(4999);
    expect(await q.lease('r', 5000)).toEqual([]);
    s.clock.advance(2);
    expect(await q.stats('r')).toMatchObject({ ready: 1, leased: 0 });
    const [second] = await q.lease('r', 5000);
    expect(second).toMatchObject({ id, tries: 2 });
    expect(second!.lease).not.toBe(first!.lease);
    expect(await q.ack(id, first!.lease)).toBe(false);
    expect(await q.nack(id, first!.lease, { error: 'late' })).toBe('stale');
    expect(await q.extend(id, first!.lease, 5000)).toBe(false);
    expect(await q.ack(id, second!.lease)).toBe(true);
    expect(await q.ack(id, second!.lease)).toBe(false); // done once
    expect(await q.stats('r')).toEqual({ ready: 0, delayed: 0, leased: 0, dead: 0 });
    expect(await q.ack('nosuchjob', 'nosuchlease')).toBe(false);
  });

  it('nack retries after an exponential backoff, then dead-letters after maxTries', async () => {
    const s = await open();
    const q = s.store.jobs;
    const id = await q.enqueue('n', { p: 1 }, { maxTries: 3 });
    for (let t = 1; t <= 2; t++) {
      const [j] = await q.lease('n', 1000);
      expect(j).toMatchObject({ id, tries: t });
      expect(await q.nack(id, j!.lease, { error: `boom ${t}` })).toBe('retry');
      expect(await q.stats('n')).toMatchObject({ delayed: 1, ready: 0 });
      s.clock.advance(backoff(t) - 1);
      expect(await q.lease('n', 1000)).toEqual([]);
      s.clock.advance(1);
    }
    const [last] = await q.lease('n', 1000);
    expect(last).toMatchObject({ tries: 3, error: 'boom 2' });
    expect(await q.nack(id, last!.lease, { error: 'boom 3' })).toBe('dead');
    s.clock.advance(backoff(10));
    expect(await q.lease('n', 1000)).toEqual([]);
    expect(await q.stats('n')).toEqual({ ready: 0, delayed: 0, leased: 0, dead: 1 });
    const dead = await q.dead('n', 10);
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ id, tries: 3, maxTries: 3, error: 'boom 3', payload: { p: 1 } });
    // retryInMs overrides the backoff.
    const id2 = await q.enqueue('n', 2);
    const [j2] = await q.lease('n', 1000);
    expect(await q.nack(id2, j2!.lease, { retryInMs: 0 })).toBe('retry');
    expect((await q.lease('n', 1000)).map((j) => j.id)).toEqual([id2]);
  });

  it('a job whose worker dies on its last try is dead-lettered, not delivered again', async () => {
    const s = await open();
    const q = s.store.jobs;
    const id = await q.enqueue('p', 'poison', { maxTries: 2 });
    await q.lease('p', 100);
    s.clock.advance(101);
    expect((await q.lease('p', 100))[0]).toMatchObject({ id, tries: 2 });
    s.clock.advance(101);
    expect(await q.lease('p', 100)).toEqual([]);
    expect(await q.dead('p', 10)).toEqual([expect.objectContaining({ id, tries: 2, error: expect.stringMatching(/lease expired/) })]);
  });

  it('delayed jobs are not leased early', async () => {
    const s = await open();
    const q = s.store.jobs;
    const id = await q.enqueue('d', 'later', { delayMs: 5000 });
    expect(await q.lease('d', 1000)).toEqual([]);
    expect(await q.stats('d')).toEqual({ ready: 0, delayed: 1, leased: 0, dead: 0 });
    s.clock.advance(4999);
    expect(await q.lease('d', 1000)).toEqual([]);
    s.clock.advance(1);
    expect((await q.lease('d', 1000)).map((j) => j.id)).toEqual([id]);
  });

  it('extend keeps a long job from being redelivered', async () => {
    const s = await open();
    const q = s.store.jobs;
    const id = await q.enqueue('e', 'long');
    const [j] = await q.lease('e', 1000);
    s.clock.advance(800);
    expect(await q.extend(id, j!.lease, 1000)).toBe(true);
    s.clock.advance(800); // past the first deadline
    expect(await q.lease('e', 1000)).toEqual([]);
    expect(await q.stats('e')).toMatchObject({ leased: 1 });
    s.clock.advance(201);
    const [again] = await q.lease('e', 1000);
    expect(again).toMatchObject({ id, tries: 2 });
    expect(await q.extend(id, j!.lease, 1000)).toBe(false);
  });

  it('an idempotency key returns the pending job, per queue, until it is done', async () => {
    const s = await open();
    const q = s.store.jobs;
    const a = await q.enqueue('k', 1, { key: 'once' });
    expect(await q.enqueue('k', 2, { key: 'once' })).toBe(a);
    const other = await q.enqueue('k2', 3, { key: 'once' });
    expect(other).not.toBe(a);
    const [j] = await q.lease('k', 1000);
    expect(j).toMatchObject({ id: a, payload: 1 });
    expect(await q.enqueue('k', 4, { key: 'once' })).toBe(a); // leased is not done
    expect(await q.ack(a, j!.lease)).toBe(true);
    const b = await q.enqueue('k', 5, { key: 'once' });
    expect(b).not.toBe(a);
    expect(await q.stats('k')).toMatchObject({ ready: 1 });
  });

  it('retryDead puts a dead job back with its tries reset', async () => {
    const s = await open();
    const q = s.store.jobs;
    const id = await q.enqueue('x', 'p', { maxTries: 1 });
    const [j] = await q.lease('x', 1000);
    expect(await q.nack(id, j!.lease, { error: 'no' })).toBe('dead');
    expect(await q.retryDead(id)).toBe(true);
    expect(await q.retryDead(id)).toBe(false); // not dead any more
    expect(await q.dead('x', 10)).toEqual([]);
    const [again] = await q.lease('x', 1000);
    expect(again).toMatchObject({ id, tries: 1, maxTries: 1 });
    expect(await q.retryDead('nosuchjob')).toBe(false);
  });

  it('dead letters are listed newest first', async () => {
    const s = await open();
    const q = s.store.jobs;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await q.enqueue('dl', i, { maxTries: 1 });
      const [j] = await q.lease('dl', 1000);
      await q.nack(id, j!.lease);
      s.clock.advance(10);
      ids.push(id);
    }
    expect((await q.dead('dl', 10)).map((j) => j.id)).toEqual(ids.reverse());
    expect(await q.dead('dl', 2)).toHaveLength(2);
  });

  it('jobs, leases, delays and dead letters persist across a restart', async () => {
    const s = await open();
    const ready = await s.store.jobs.enqueue('s', 'ready');
    const delayed = await s.store.jobs.enqueue('s', 'delayed', { delayMs: 60_000 });
    const held = await s.store.jobs.enqueue('s', 'held');
    const dead = await s.store.jobs.enqueue('s', 'dead', { maxTries: 1 });
    const leased: Job[] = await s.store.jobs.lease('s', 1000, 3);
    expect(leased.map((j) => j.id)).toEqual([ready, held, dead]);
    await s.store.jobs.nack(dead, leased[2]!.lease, { error: 'gone' });
    await s.store.jobs.nack(ready, leased[0]!.lease, { retryInMs: 0 });
    const again = await s.reopen();
    expect(await again.jobs.stats('s')).toEqual({ ready: 1, delayed: 1, leased: 1, dead: 1 });
    const [r] = await again.jobs.lease('s', 1000, 5);
    expect(r!.id).toBe(ready);
    expect(await again.jobs.ack(ready, r!.lease)).toBe(true);
    // The lease taken before the restart still holds, and its token still acks.
    expect(await again.jobs.ack(held, leased[1]!.lease)).toBe(true);
    expect((await again.jobs.dead('s', 5)).map((j) => j.id)).toEqual([dead]);
    s.clock.advance(60_000);
    expect((await again.jobs.lease('s', 1000, 5)).map((j) => j.id)).toEqual([delayed]);
  });

  it('onReady tells a worker in this process that jobs arrived', async () => {
    const s = await open();
    const q = s.store.jobs;
    let hints = 0;
    const off = q.onReady('h', () => hints++);
    await q.enqueue('h', 1);
    await q.enqueue('other', 1);
    await vi.waitFor(() => expect(hints).toBeGreaterThanOrEqual(1));
    const before = hints;
    off();
    await q.enqueue('h', 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(hints).toBe(before);
  });
}
