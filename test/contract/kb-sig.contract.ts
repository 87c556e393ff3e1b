// KB signature levels and versions: entries answer to their coarse hash, entries signed by an
// earlier ErrSig version are listed for re-signing, and a re-signed entry keeps answering to its
// old hash (every old hash, when it was re-signed twice: v1, then v2, then v3). The server's own
// re-signing (resignKb, ErrSig v3) of an entry stored under v2 is checked here too, so on every
// adapter. (Own file: test/contract/kb.contract.ts is the KB's general contract.)
import { expect, it } from 'vitest';
import { ERRSIG_VERSION, errsig } from '../../src/core/kb/errsig/errsig.js';
import * as v2 from '../../src/core/kb/errsig/errsig-v2.js';
import type { NewEntry } from '../../src/core/kb/ports.js';
import { resignKb } from '../../src/core/kb/resign.js';
import { type Adapter, storeFor } from './adapters.js';
import { vote } from './fixtures.js';

const hex = (c: string) => c.repeat(64);
const entry = (id: string, over: Partial<NewEntry> = {}): NewEntry => ({
  id,
  sig: `py:E: ${id}`,
  h: hex('1'),
  title: `title ${id}`,
  error: `E: error of ${id}`,
  fix: 'do the thing that fixes it',
  eco: 'pypi',
  cls: 'e',
  tags: [],
  libs: [],
  author: 'aauthor',
  created: 1,
  ...over,
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
    await vote(s.store, 'kcoarse01', 'avoter', true, 10);
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
    expect(stale.find((r) => r.id === 'kstale001')).toEqual({
      id: 'kstale001',
      sig: 'py:E: kstale001',
      title: 'title kstale001',
      error: 'E: error of kstale001',
    });
    expect(await kb.staleSigs(2, 1)).toHaveLength(1);
    expect(await kb.staleSigs(1, 10)).toHaveLength(1);
  });

  it('a re-signed entry answers to its new hash and coarse hash, and still to its old hash, after a restart too', async () => {
    const s = await open();
    await s.store.kb.insert(
      entry('kresign01', { sig: 'rust:error[E0502]: cannot borrow x', h: hex('1'), title: 'rust:error[E0502]: cannot borrow x', sigv: 1 }),
    );
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
      expect(e).toMatchObject({
        sig: 'rust:error[E0502]: cannot borrow <s>',
        h: hex('3'),
        ch: hex('4'),
        cls: 'e0502',
        title: 'cannot borrow a value twice',
        fix: 'do the thing that fixes it',
      });
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

  it('an entry re-signed twice (v1, v2, v3) answers to its current hash and to both old ones, after a restart too', async () => {
    const s = await open();
    await s.store.kb.insert(entry('ktwice001', { sig: 'other:v1 sig', h: hex('a'), sigv: 1 }));
    expect(await s.store.kb.resign([{ id: 'ktwice001', sig: 'other:v2 sig', h: hex('b'), ch: hex('c'), cls: '', title: 'title ktwice001' }], 2)).toBe(1);
    expect(await s.store.kb.resign([{ id: 'ktwice001', sig: 'other:v3 sig', h: hex('d'), ch: hex('e'), cls: '', title: 'title ktwice001' }], 3)).toBe(1);
    for (const restart of [false, true]) {
      const kb = restart ? (await s.reopen()).kb : s.store.kb;
      expect((await kb.byHash(hex('d'), 5, false)).map((x) => x.id)).toEqual(['ktwice001']);
      expect((await kb.byOldHash(hex('a'), 5)).map((x) => x.id)).toEqual(['ktwice001']);
      expect((await kb.byOldHash(hex('b'), 5)).map((x) => x.id)).toEqual(['ktwice001']);
      expect((await kb.byCoarse(hex('e'), 5)).map((x) => x.id)).toEqual(['ktwice001']);
      expect(await kb.byCoarse(hex('c'), 5)).toEqual([]);
      expect(await kb.staleSigs(3, 10)).toEqual([]);
    }
  });

  it('resignKb moves an entry stored under ErrSig v2 to its v3 signature; the v2 hash keeps resolving, after a restart too', async () => {
    const s = await open();
    expect(ERRSIG_VERSION).toBe(3);
    // A push refused for a non-fast-forward: v2 signed the `failed to push some refs` wrapper (with
    // the remote's owner and name), v3 signs the rejected ref's reason.
    const out =
      "To github.com:acme/widgets.git\n ! [rejected]        main -> main (non-fast-forward)\nerror: failed to push some refs to 'github.com:acme/widgets.git'\nhint: Updates were rejected because the tip of your current branch is behind";
    const old = v2.errsig(out);
    const now = errsig(out);
    expect(old.sig).toBe("other:error: failed to push some refs to 'github.com:acme/widgets.git'");
    expect(now.sig).toBe('git:! [rejected] <ref> -> <ref> (non-fast-forward)');
    // One entry whose signature v3 leaves as it was (its hash needs no alias).
    const same = "ModuleNotFoundError: No module named 'zzqsame'";
    expect(v2.errsig(same).h).toBe(errsig(same).h);
    await s.store.kb.insert(entry('kpushv201', { sig: old.sig, h: old.h, ch: old.ch, title: old.sig, error: out, sigv: 2 }));
    await s.store.kb.insert(entry('ksamev201', { sig: v2.errsig(same).sig, h: v2.errsig(same).h, ch: v2.errsig(same).ch, error: same, sigv: 2 }));
    expect(await resignKb(s.store.kb)).toBe(2);
    expect(await resignKb(s.store.kb)).toBe(0);
    for (const restart of [false, true]) {
      const kb = restart ? (await s.reopen()).kb : s.store.kb;
      expect(await kb.byId('kpushv201')).toMatchObject({ sig: now.sig, h: now.h, ch: now.ch, title: now.sig });
      expect((await kb.byHash(now.h, 5, false)).map((x) => x.id)).toEqual(['kpushv201']);
      expect(await kb.byHash(old.h, 5, false)).toEqual([]);
      expect((await kb.byOldHash(old.h, 5)).map((x) => x.id)).toEqual(['kpushv201']);
      expect((await kb.byCoarse(now.ch, 5)).map((x) => x.id)).toEqual(['kpushv201']);
      expect((await kb.byHash(errsig(same).h, 5, false)).map((x) => x.id)).toEqual(['ksamev201']);
      expect(await kb.staleSigs(ERRSIG_VERSION, 10)).toEqual([]);
    }
  });
}
