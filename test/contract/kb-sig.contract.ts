// KB signature levels and versions: entries answer to their coarse hash, entries signed by an
// earlier ErrSig version are listed for re-signing, and a re-signed entry keeps answering to its
// old hash. (Own file: test/contract/kb.contract.ts is the KB's general contract.)
import { expect, it } from 'vitest';
import type { NewEntry } from '../../src/core/kb/ports.js';
import { type Adapter, storeFor } from './adapters.js';

const hex = (c: string) => c.repeat(64);
const entry = (id: string, over: Partial<NewEntry> = {}): NewEntry => ({
  id, sig: `py:E: ${id}`, h: hex('1'), title: `title ${id}`, error: `E: error of ${id}`, fix: 'do the thing that fixes it', eco: 'pypi', cls: 'e',
  tags: [], libs: [], author: 'aauthor', created: 1, ...over,
});

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('finds entries by their coarse hash, best first; an empty coarse hash finds nothing', async () => {
    const s = await open();
    const kb = s.store.kb;
    await kb.insert(entry('kcoarse01', { h: hex('a'), ch: hex('c'), created: 1 }));
    await kb.insert(entry('kcoarse02', { h: hex('b'), ch: hex('c'), created: 2 }));
    await kb.insert(entry('kcoarse03', { h: hex('d'), created: 3 }));
    expect((await kb.byCoarse(hex('c'), 5)).map((e) => e.id)).toEqual(['kcoarse02', 'kcoarse01']);
    await kb.vote('kcoarse01', 'avoter', true, 10);
    expect((await kb.byCoarse(hex('c'), 5)).map((e) => e.id)).toEqual(['kcoarse01', 'kcoarse02']);
    expect(await kb.byCoarse(hex('c'), 1)).toHaveLength(1);
    expect(await kb.byCoarse('', 5)).toEqual([]);
    expect((await kb.byId('kcoarse01'))?.ch).toBe(hex('c'));
    expect((await kb.byId('kcoarse03'))?.ch).toBe('');
  });

  it('lists entries signed by an earlier version (or an unknown one) until they are re-signed', async () => {
    const s = await open();
    const kb = s.store.kb;
    await kb.insert(entry('kstale001', { sigv: 1 }));
    await kb.insert(entry('kstale002'));
    await kb.insert(entry('kfresh001', { sigv: 2 }));
    const stale = await kb.staleSigs(2, 10);
    expect(stale.map((r) => r.id).sort()).toEqual(['kstale001', 'kstale002']);
    expect(stale.find((r) => r.id === 'kstale001')).toEqual({ id: 'kstale001', sig: 'py:E: kstale001', title: 'title kstale001', error: 'E: error of kstale001' });
    expect(await kb.staleSigs(2, 1)).toHaveLength(1);
    expect(await kb.staleSigs(1, 10)).toHaveLength(1);
  });

  it('a re-signed entry answers to its new hash and coarse hash, and still to its old hash, after a restart too', async () => {
    const s = await open();
    await s.store.kb.insert(entry('kresign01', { sig: 'rust:error[E0502]: cannot borrow x', h: hex('1'), title: 'rust:error[E0502]: cannot borrow x', sigv: 1 }));
    await s.store.kb.insert(entry('ksame0001', { sig: 'py:E: same', h: hex('2'), sigv: 1 }));
    const n = await s.store.kb.resign(
      [
        { id: 'kresign01', sig: 'rust:error[E0502]: cannot borrow <s>', h: hex('3'), ch: hex('4'), cls: 'e0502', title: 'cannot borrow a value twice' },
        { id: 'ksame0001', sig: 'py:E: same', h: hex('2'), ch: hex('5'), cls: 'e', title: 'title ksame0001' },
        { id: 'knothere1', sig: 'py:E: none', h: hex('6'), ch: hex('7'), cls: 'e', title: 'nothing' },
      ],
      2,
    );
    expect(n).toBe(2);
    for (const restart of [false, true]) {
      const kb = restart ? (await s.reopen()).kb : s.store.kb;
      const e = await kb.byId('kresign01');
      expect(e).toMatchObject({ sig: 'rust:error[E0502]: cannot borrow <s>', h: hex('3'), ch: hex('4'), cls: 'e0502', title: 'cannot borrow a value twice', fix: 'do the thing that fixes it' });
      expect((await kb.byHash(hex('3'), 5, false)).map((x) => x.id)).toEqual(['kresign01']);
      expect(await kb.byHash(hex('1'), 5, false)).toEqual([]);
      expect((await kb.byOldHash(hex('1'), 5)).map((x) => x.id)).toEqual(['kresign01']);
      expect((await kb.byCoarse(hex('4'), 5)).map((x) => x.id)).toEqual(['kresign01']);
      // An unchanged hash needs no alias: the entry answers to it directly.
      expect((await kb.byHash(hex('2'), 5, false)).map((x) => x.id)).toEqual(['ksame0001']);
      expect(await kb.byOldHash(hex('2'), 5)).toEqual([]);
      expect(await kb.staleSigs(2, 10)).toEqual([]);
      // The new title is what search finds.
      expect((await kb.search('borrow value twice', 5)).map((x) => x.id)).toEqual(['kresign01']);
    }
  });
}
