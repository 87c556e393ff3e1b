// Checkpoints: saves numbered per (owner, name) without gaps or repeats under concurrent saves,
// the oldest beyond `keep` pruned, a live-row cap, publication and its reader-network cap (exactly
// `cap` networks read, the next one ends publication for good), expiry and purge, restart.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { CheckpointRow, NewCheckpoint } from '../../src/core/checkpoints/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { identity, newId, together } from './fixtures.js';

const HOUR = 3_600_000;
const cp = (owner: string, t: number, o: Partial<NewCheckpoint> = {}): NewCheckpoint => ({
  id: newId('c', 8),
  owner,
  name: 'build',
  body: 'step 3 of 5',
  size: 11,
  created: t,
  exp: t + HOUR,
  ...o,
});

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  async function setup() {
    const s = await open();
    const now = s.clock.now();
    return { s, now, a: (await identity(s.store, now)).id, b: (await identity(s.store, now, { name: 'bee' })).id };
  }
  const save = async (s: Awaited<ReturnType<typeof setup>>['s'], row: NewCheckpoint, now: number, max = 100, keep = 100) =>
    (await s.store.checkpoints.save(row, now, max, keep)) as CheckpointRow;

  it('save numbers the saves of a name from 1; own gives them to their owner only; a restart keeps them', async () => {
    const { s, now, a, b } = await setup();
    const c1 = await save(s, cp(a, now), now);
    const c2 = await save(s, cp(a, now, { body: 'step 4 of 5' }), now);
    const other = await save(s, cp(a, now, { name: 'deploy' }), now);
    expect([c1.seq, c2.seq, other.seq]).toEqual([1, 2, 1]);
    expect(c1).toMatchObject({ owner: a, name: 'build', body: 'step 3 of 5', size: 11, published: false, lost: false, hidden: false });
    expect(await s.store.checkpoints.own(c2.id, a, now)).toEqual(c2);
    expect(await s.store.checkpoints.own(c2.id, b, now)).toBeNull();
    expect(await (await s.reopen()).checkpoints.own(c2.id, a, now)).toEqual(c2);
    expect(await s.store.checkpoints.save(cp(b, now, { id: c1.id }), now, 100, 100)).toBe('taken');
  });

  it('20 concurrent saves of one name get seqs 1..20 once each; keep prunes the oldest', async () => {
    const { s, now, a } = await setup();
    const res = await together(20, () => save(s, cp(a, now), now));
    expect(res.map((r) => r.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    await save(s, cp(a, now), now, 100, 3);
    expect((await s.store.checkpoints.list(a, 'build', null, 100, now)).map((r) => r.seq)).toEqual([21, 20, 19]);
    expect(await s.store.checkpoints.own(res.find((r) => r.seq === 1)!.id, a, now)).toBeNull();
  });

  it('the live cap holds under concurrent saves; expired saves do not count', async () => {
    const { s, now, a } = await setup();
    await save(s, cp(a, now, { name: 'old', exp: now + 1000 }), now);
    const later = now + 1000;
    const res = await together(12, (i) => s.store.checkpoints.save(cp(a, later, { name: `n${i}` }), later, 5, 10));
    expect(res.filter((r) => typeof r === 'object')).toHaveLength(5);
    expect(res.filter((r) => r === 'full')).toHaveLength(7);
  });

  it('a row is dead from its exp on: own, published, list and setPublished skip it; purge deletes it', async () => {
    const { s, now, a } = await setup();
    const c = await save(s, cp(a, now, { exp: now + 1000 }), now);
    const keep = await save(s, cp(a, now, { name: 'keep', exp: now + 5000 }), now);
    await s.store.checkpoints.setPublished(c.id, a, true, now);
    expect(await s.store.checkpoints.published(c.id, now + 999)).not.toBeNull();
    const at = now + 1000;
    expect(await s.store.checkpoints.own(c.id, a, at)).toBeNull();
    expect(await s.store.checkpoints.published(c.id, at)).toBeNull();
    expect(await s.store.checkpoints.setPublished(c.id, a, false, at)).toBeNull();
    expect((await s.store.checkpoints.list(a, null, null, 10, at)).map((r) => r.id)).toEqual([keep.id]);
    expect(await s.store.checkpoints.purgeExpired(at - 1)).toBe(0);
    expect(await s.store.checkpoints.purgeExpired(at)).toBe(1);
    expect(await s.store.checkpoints.own(c.id, a, now)).toBeNull();
  });

  it('publication: the owner only; published() gives the row and its owner; unpublished reads are gone', async () => {
    const { s, now, a, b } = await setup();
    const c = await save(s, cp(b, now), now);
    expect(await s.store.checkpoints.published(c.id, now)).toBeNull();
    expect(await s.store.checkpoints.read(c.rid, randomBytes(16), 3)).toBe('gone');
    expect(await s.store.checkpoints.setPublished(c.id, a, true, now)).toBeNull();
    expect(await s.store.checkpoints.setPublished(c.id, b, true, now)).toMatchObject({ id: c.id, published: true });
    const p = await s.store.checkpoints.published(c.id, now);
    expect(p!.cp).toMatchObject({ id: c.id, body: 'step 3 of 5', published: true });
    expect(p!.owner).toMatchObject({ id: b, name: 'bee', frozen: false });
    expect(await (await s.reopen()).checkpoints.published(c.id, now)).not.toBeNull();
    await s.store.checkpoints.setPublished(c.id, b, false, now);
    expect(await s.store.checkpoints.published(c.id, now)).toBeNull();
  });

  it('reader networks: a repeated network counts once; the network after the first cap ends publication for good', async () => {
    const { s, now, a } = await setup();
    const c = await save(s, cp(a, now), now);
    await s.store.checkpoints.setPublished(c.id, a, true, now);
    const nets = Array.from({ length: 4 }, () => randomBytes(16));
    expect(await s.store.checkpoints.read(c.rid, nets[0]!, 3)).toBe('ok');
    expect(await s.store.checkpoints.read(c.rid, nets[0]!, 3)).toBe('ok');
    expect(await s.store.checkpoints.read(c.rid, nets[1]!, 3)).toBe('ok');
    expect(await s.store.checkpoints.read(c.rid, nets[2]!, 3)).toBe('ok');
    expect(await s.store.checkpoints.readers(c.rid)).toBe(3);
    expect(await s.store.checkpoints.read(c.rid, nets[0]!, 3)).toBe('ok');
    expect(await s.store.checkpoints.read(c.rid, nets[3]!, 3)).toBe('over');
    expect(await s.store.checkpoints.read(c.rid, nets[0]!, 3)).toBe('gone');
    expect(await s.store.checkpoints.published(c.id, now)).toBeNull();
    expect(await s.store.checkpoints.own(c.id, a, now)).toMatchObject({ published: false, lost: true });
    expect(await s.store.checkpoints.setPublished(c.id, a, true, now)).toBeNull();
    expect(await (await s.reopen()).checkpoints.own(c.id, a, now)).toMatchObject({ published: false, lost: true });
  });

  it('cap null (owner at L2+) records nothing and never ends publication', async () => {
    const { s, now, a } = await setup();
    const c = await save(s, cp(a, now), now);
    await s.store.checkpoints.setPublished(c.id, a, true, now);
    for (let i = 0; i < 10; i++) expect(await s.store.checkpoints.read(c.rid, randomBytes(16), null)).toBe('ok');
    expect(await s.store.checkpoints.readers(c.rid)).toBe(0);
    expect(await s.store.checkpoints.published(c.id, now)).not.toBeNull();
  });

  it('20 distinct networks reading at once with cap 3: exactly 3 read, publication ends', async () => {
    const { s, now, a } = await setup();
    const c = await save(s, cp(a, now), now);
    await s.store.checkpoints.setPublished(c.id, a, true, now);
    const res = await together(20, () => s.store.checkpoints.read(c.rid, randomBytes(16), 3));
    expect(res.filter((r) => r === 'ok')).toHaveLength(3);
    expect(res.filter((r) => r === 'over').length).toBeGreaterThanOrEqual(1);
    expect(res.every((r) => ['ok', 'over', 'gone'].includes(r))).toBe(true);
    expect(await s.store.checkpoints.readers(c.rid)).toBe(3);
    expect(await s.store.checkpoints.own(c.id, a, now)).toMatchObject({ published: false, lost: true });
  });

  it("list: the owner's live saves newest first, by name or all, a cursor that pages through once; remove is the owner's", async () => {
    const { s, now, a, b } = await setup();
    const made: CheckpointRow[] = [];
    for (let i = 0; i < 7; i++) made.push(await save(s, cp(a, now, { name: i % 2 ? 'odd' : 'even' }), now));
    await save(s, cp(b, now), now);
    const all = await s.store.checkpoints.list(a, null, null, 100, now);
    expect(all.map((r) => r.id)).toEqual([...made].reverse().map((r) => r.id));
    expect((await s.store.checkpoints.list(a, 'odd', null, 100, now)).map((r) => r.id)).toEqual(all.filter((r) => r.name === 'odd').map((r) => r.id));
    const seen: string[] = [];
    let before: number | null = null;
    for (;;) {
      const page = await s.store.checkpoints.list(a, null, before, 3, now);
      seen.push(...page.map((r) => r.id));
      if (page.length < 3) break;
      before = page.at(-1)!.rid;
    }
    expect(seen).toEqual(all.map((r) => r.id));
    expect(await s.store.checkpoints.remove(made[0]!.id, b)).toBe(false);
    expect(await s.store.checkpoints.remove(made[0]!.id, a)).toBe(true);
    expect(await s.store.checkpoints.remove(made[0]!.id, a)).toBe(false);
    expect(await s.store.checkpoints.own(made[0]!.id, a, now)).toBeNull();
  });
}
