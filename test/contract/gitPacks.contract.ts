// The git mirror's history (GitPackRepo): rows in order with their packs; append only on top of the
// newest row (false otherwise, and for concurrent appends on one parent exactly one wins); kept
// across a restart.
import { expect, it } from 'vitest';
import { type Adapter, storeFor } from './adapters.js';

const c = (n: number) => String(n).repeat(40).slice(0, 40);

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('appends on top of the newest row only; tip, after and seqOf read them back; a restart keeps them', async () => {
    const s = await open();
    const r = s.store.gitPacks;
    expect(await r.tip()).toBeNull();
    expect(await r.append({ commit: c(1), parent: c(9), time: 1000, pack: Buffer.from('x') })).toBe(false);
    expect(await r.append({ commit: c(1), parent: null, time: 1000, pack: Buffer.from([0, 1, 2, 255]) })).toBe(true);
    expect(await r.append({ commit: c(2), parent: null, time: 2000, pack: Buffer.from('y') })).toBe(false);
    expect(await r.append({ commit: c(2), parent: c(1), time: 2000, pack: Buffer.from('two') })).toBe(true);
    expect(await r.tip()).toEqual({ seq: 2, commit: c(2), parent: c(1), time: 2000 });
    expect(await r.seqOf(c(1))).toBe(1);
    expect(await r.seqOf(c(7))).toBeNull();
    const again = await s.reopen();
    expect(await again.gitPacks.after(0, 10)).toEqual([
      { seq: 1, commit: c(1), parent: null, time: 1000, pack: Buffer.from([0, 1, 2, 255]) },
      { seq: 2, commit: c(2), parent: c(1), time: 2000, pack: Buffer.from('two') },
    ]);
    expect((await again.gitPacks.after(1, 10)).map((x) => x.seq)).toEqual([2]);
    expect((await again.gitPacks.after(0, 1)).map((x) => x.seq)).toEqual([1]);
  });

  it('concurrent appends on one parent: exactly one is kept', async () => {
    const s = await open();
    const r = s.store.gitPacks;
    expect(await r.append({ commit: c(1), parent: null, time: 1, pack: Buffer.from('a') })).toBe(true);
    const got = await Promise.all([2, 3, 4, 5, 6].map((n) => r.append({ commit: c(n), parent: c(1), time: n, pack: Buffer.from('b') })));
    expect(got.filter(Boolean).length).toBe(1);
    expect((await r.tip())!.seq).toBe(2);
  });
}
