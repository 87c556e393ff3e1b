// Signed confirmations: one per (entry, identity); counts of distinct identities and networks; kept across a restart.
import { expect, it } from 'vitest';
import { type Adapter, storeFor } from './adapters.js';

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('one per entry and identity; counts distinct identities and networks; persists across reopen', async () => {
    const s = await open();
    const c = (id: string, net: string, at: number) => ({ entry: 'k1', id, pub: 'aa'.repeat(32), sig: 's'.repeat(86), net, at });
    expect(await s.store.signedConfirms.count('k1')).toEqual({ ids: 0, nets: 0 });
    expect(await s.store.signedConfirms.add(c('a1', 'n1', 1))).toBe(true);
    expect(await s.store.signedConfirms.add(c('a2', 'n1', 2))).toBe(true);
    expect(await s.store.signedConfirms.add(c('a3', 'n2', 3))).toBe(true);
    expect(await s.store.signedConfirms.add(c('a1', 'n3', 4))).toBe(false);
    await s.store.signedConfirms.add({ ...c('a1', 'n9', 5), entry: 'k2' });
    expect(await s.store.signedConfirms.count('k1')).toEqual({ ids: 3, nets: 2 });
    const again = await s.reopen();
    expect(await again.signedConfirms.count('k1')).toEqual({ ids: 3, nets: 2 });
    expect((await again.signedConfirms.list('k1', 2)).map((r) => r.id)).toEqual(['a1', 'a2']);
    expect(await again.signedConfirms.list('k1', 10)).not.toContainEqual(expect.objectContaining({ net: expect.anything() }));
  });

  it("a signed outcome of another kind replaces the identity's statement, the same kind does not; drop forgets it", async () => {
    const s = await open();
    const c = (kind: '' | 'worked' | 'worked-with-changes' | 'did-not-work', sig: string, at: number) => ({
      entry: 'k7',
      id: 'a7',
      kind,
      pub: 'bb'.repeat(32),
      sig,
      net: 'n1',
      at,
    });
    expect(await s.store.signedConfirms.add(c('', 'x'.repeat(86), 1))).toBe(true);
    expect(await s.store.signedConfirms.add(c('', 'y'.repeat(86), 2))).toBe(false);
    expect(await s.store.signedConfirms.add(c('did-not-work', 'z'.repeat(86), 3))).toBe(true);
    expect(await s.store.signedConfirms.list('k7', 10)).toEqual([
      { entry: 'k7', id: 'a7', kind: 'did-not-work', pub: 'bb'.repeat(32), sig: 'z'.repeat(86), at: 3 },
    ]);
    expect(await s.store.signedConfirms.count('k7')).toEqual({ ids: 1, nets: 1 });
    expect(await (await s.reopen()).signedConfirms.drop('k7', 'a7')).toBe(true);
    expect(await s.store.signedConfirms.drop('k7', 'a7')).toBe(false);
    expect(await s.store.signedConfirms.count('k7')).toEqual({ ids: 0, nets: 0 });
  });
}
