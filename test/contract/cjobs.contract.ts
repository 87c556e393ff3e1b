// Replicated jobs: n slots; a slot goes to exactly one donor, a donor holds one slot of a job, an
// expired lease is free again and its old holder's submit is refused; a job ends once with its
// donors' standing and reports; revoked receipts; all kept across a restart.
import { expect, it } from 'vitest';
import type { CJob } from '../../src/core/compute/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { together } from './fixtures.js';

const job = (id: string, t: number, n = 3): Omit<CJob, 'state' | 'out_hash' | 'output' | 'receipt' | 'ended'> => ({
  id,
  name: 'svc',
  ver: 1,
  wasm: 'ab'.repeat(32),
  caller: 'a00010',
  input: Buffer.from('in'),
  in_hash: 'cd'.repeat(32),
  k: 2,
  n,
  price: 1,
  created: t,
});
const res = (h: string) => ({ out_hash: h, output: Buffer.from(h), dsig: 'x'.repeat(86) });

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('leases: one slot per donor and job, each slot to exactly one donor under concurrency, none when full', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.cjobs.create(job('j000000000a', t));
    const got = await together(6, (i) => s.store.cjobs.lease(`a0001${i}`, 'pub', `l00000000000${i}`, t + 1000, t, 'j000000000a'));
    expect(got.filter(Boolean)).toHaveLength(3);
    expect(new Set(got.filter(Boolean).map((g) => g!.slot)).size).toBe(3);
    const first = await open();
    await first.store.cjobs.create(job('j000000000b', t));
    expect(await first.store.cjobs.lease('a00020', 'p', 'l000000000001', t + 1000, t, null)).toMatchObject({ job: { id: 'j000000000b' }, slot: 0 });
    expect(await first.store.cjobs.lease('a00020', 'p', 'l000000000002', t + 1000, t, 'j000000000b')).toBeNull();
  });

  it('an expired lease is free again; the old holder cannot submit; a live one submits once', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.cjobs.create(job('j000000000c', t, 1));
    await s.store.cjobs.lease('a00030', 'p', 'l000000000010', t + 1000, t, null);
    expect(await s.store.cjobs.lease('a00031', 'p', 'l000000000011', t + 5000, t + 500, null)).toBeNull();
    expect(await s.store.cjobs.lease('a00031', 'p', 'l000000000011', t + 5000, t + 1500, null)).toMatchObject({ slot: 0 });
    expect(await s.store.cjobs.submit('l000000000010', 'a00030', res('aa'), t + 1600)).toBe('stale');
    expect(await s.store.cjobs.slotByLease('l000000000010')).toBeNull();
    expect(await s.store.cjobs.submit('l000000000011', 'a00030', res('aa'), t + 1600)).toBe('stale');
    expect(await s.store.cjobs.submit('l000000000011', 'a00031', res('aa'), t + 1600)).toEqual({ job: 'j000000000c', slot: 0 });
    expect(await s.store.cjobs.submit('l000000000011', 'a00031', res('bb'), t + 1600)).toBe('stale');
    expect((await (await s.reopen()).cjobs.slots('j000000000c'))[0]).toMatchObject({ state: 'done', donor: 'a00031', out_hash: 'aa' });
  });

  it('finish ends a job once, moves standing, keeps reports; receipts of a donor; revocations once', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.cjobs.create(job('j000000000d', t, 2));
    await s.store.cjobs.lease('a00040', 'p', 'l000000000020', t + 1000, t, null);
    await s.store.cjobs.submit('l000000000020', 'a00040', res('aa'), t);
    const end = {
      state: 'done' as const,
      out_hash: 'aa',
      output: Buffer.from('aa'),
      receipt: 'att1 line',
      agree: ['a00040'],
      disagree: [{ donor: 'a00041', out_hash: 'bb' }],
    };
    const ends = await together(3, () => s.store.cjobs.finish('j000000000d', end, t + 10));
    expect(ends.filter(Boolean)).toHaveLength(1);
    const again = await s.reopen();
    expect(await again.cjobs.get('j000000000d')).toMatchObject({ state: 'done', out_hash: 'aa', receipt: 'att1 line', ended: t + 10 });
    expect(await again.cjobs.donor('a00040')).toMatchObject({ good: 1, bad: 0, trusted: false });
    expect(await again.cjobs.donor('a00041')).toMatchObject({ good: 0, bad: 1 });
    expect(await again.cjobs.reports('j000000000d')).toEqual([{ job: 'j000000000d', donor: 'a00041', out_hash: 'bb', quorum: 'aa', at: t + 10 }]);
    expect(await again.cjobs.report({ job: 'j000000000d', donor: 'a00041', out_hash: 'bb', quorum: 'aa', at: t + 11 })).toBe(false);
    expect(await again.cjobs.receiptsWith('a00040', t)).toEqual([{ job: 'j000000000d', receipt: 'att1 line' }]);
    expect(await again.cjobs.receiptsWith('a00041', t)).toEqual([]);
    expect(await again.cjobs.revoke('j000000000d', 'att1 line', 'why', t + 20)).toBe(true);
    expect(await again.cjobs.revoke('j000000000d', 'att1 line', 'again', t + 21)).toBe(false);
    expect(await again.cjobs.revoked(t)).toEqual([{ job: 'j000000000d', line: 'att1 line', reason: 'why', at: t + 20 }]);
    expect(await again.cjobs.revoked(t + 30)).toEqual([]);
    await again.cjobs.setTrusted('a00041', true, t);
    expect((await again.cjobs.donor('a00041'))!.trusted).toBe(true);
  });

  it('one donor leasing from several requests at once holds one slot of a job', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.cjobs.create(job('j000000000e', t, 4));
    const got = await together(5, (i) => s.store.cjobs.lease('a00050', 'p', `l00000000005${i}`, t + 1000, t, i % 2 ? 'j000000000e' : null));
    expect(got.filter(Boolean)).toHaveLength(1);
    expect((await s.store.cjobs.slots('j000000000e')).filter((x) => x.state === 'leased').map((x) => x.donor)).toEqual(['a00050']);
  });
}
