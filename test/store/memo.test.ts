// The read-through memo of hot KB reads: values it keeps, values kept apart (empty answers), and
// that a flood of the latter never pushes out the former; a generation change or the TTL drops both.
// getAsync (PostgreSQL): the same frozen array on repeat, a new one once the generation moved, and
// nothing kept from a read during which the generation moved (a write committed meanwhile).
import { describe, expect, it } from 'vitest';
import { Memo } from '../../src/store/memo.js';

function counted(opts: ConstructorParameters<typeof Memo<string[]>>[0]) {
  const memo = new Memo<string[]>(opts);
  let reads = 0;
  const get = (key: string, v: string[], now = 0) => memo.get(key, now, () => (reads++, v));
  return { get, reads: () => reads };
}

describe('Memo', () => {
  it('keeps empty answers apart: 10,000 distinct misses do not push out a hot answer', () => {
    let gen = 0;
    const m = counted({ ttlMs: 60_000, max: 4, gen: () => gen, keep: (v) => v.length > 0, apart: 16 });
    m.get('hot', ['a']);
    for (let i = 0; i < 10_000; i++) m.get(`miss${i}`, []);
    const before = m.reads();
    expect(m.get('hot', ['changed?'])).toEqual(['a']);
    expect(m.reads()).toBe(before);
    // The last misses are memoized, the first ones were pushed out by the others.
    m.get('miss9999', []);
    expect(m.reads()).toBe(before);
    m.get('miss0', []);
    expect(m.reads()).toBe(before + 1);
    // A new generation: both maps are read again, and an answer that is no longer empty is kept.
    gen++;
    expect(m.get('miss9999', ['now found'])).toEqual(['now found']);
    expect(m.get('hot', ['b'])).toEqual(['b']);
    expect(m.reads()).toBe(before + 3);
    expect(m.get('miss9999', [])).toEqual(['now found']);
  });

  it('without `apart`, refused values are not kept; the TTL ends any value', () => {
    const m = counted({ ttlMs: 1000, max: 4, keep: (v) => v.length > 0 });
    m.get('miss', []);
    m.get('miss', []);
    expect(m.reads()).toBe(2);
    m.get('hot', ['a'], 0);
    m.get('hot', ['a'], 999);
    expect(m.reads()).toBe(3);
    m.get('hot', ['a'], 1000);
    expect(m.reads()).toBe(4);
  });

  it('with `second`, keeps only keys asked again while their fingerprint is in the table', () => {
    const m = counted({ ttlMs: 60_000, max: 4, second: 1024 });
    m.get('once', ['a']);
    m.get('twice', ['b']);
    m.get('twice', ['b']); // second sight: read again, and kept from now on
    expect(m.reads()).toBe(3);
    m.get('twice', ['b']);
    m.get('twice', ['b']);
    expect(m.reads()).toBe(3);
    // 'once' was not kept: asked again it is read (and now kept).
    m.get('once', ['a']);
    m.get('once', ['a']);
    expect(m.reads()).toBe(4);
    // A flood of keys asked once each takes no place: the kept ones stay.
    for (let i = 0; i < 10_000; i++) m.get(`cold${i}`, ['c']);
    const before = m.reads();
    m.get('twice', ['b']);
    m.get('once', ['a']);
    expect(m.reads()).toBe(before);
    expect(() => new Memo({ ttlMs: 1, max: 1, second: 1000 })).toThrow(/power of two/);
  });

  it('with `freeze`, a kept value is frozen and handed back as the same object; one not kept is not frozen', () => {
    const memo = new Memo<string[]>({ ttlMs: 60_000, max: 4, second: 64, freeze: true });
    const first = memo.get('k', 0, () => ['x']);
    expect(Object.isFrozen(first)).toBe(false);
    const second = memo.get('k', 0, () => ['x']);
    expect(Object.isFrozen(second)).toBe(true);
    expect(memo.get('k', 0, () => ['y'])).toBe(second);
  });

  it('getAsync: the same frozen array on repeat, a new one after a write (the generation); a read overtaken by a write is not kept', async () => {
    let gen = 0;
    let reads = 0;
    const memo = new Memo<string[]>({ ttlMs: 5000, max: 4, gen: () => gen, keep: (v) => v.length > 0, apart: 4, second: 64, freeze: true });
    const read = (v: string[]) => async () => (reads++, v);
    await memo.getAsync('h', 0, read(['a'])); // first sight: not kept
    const kept = await memo.getAsync('h', 0, read(['a']));
    expect(Object.isFrozen(kept)).toBe(true);
    expect(await memo.getAsync('h', 1, read(['other']))).toBe(kept);
    expect(reads).toBe(2);
    gen++; // a local write committed
    const fresh = await memo.getAsync('h', 2, read(['a', 'b']));
    expect(fresh).not.toBe(kept);
    expect(fresh).toEqual(['a', 'b']);
    expect(await memo.getAsync('h', 3, read(['x']))).toBe(fresh);
    // The TTL ends it as on SQLite.
    expect(await memo.getAsync('h', 5002, read(['after ttl']))).toEqual(['after ttl']);
    // A read during which the generation moves gives its answer but keeps nothing: the next call reads.
    gen++;
    const slow = memo.getAsync('h', 6000, async () => {
      reads++;
      gen++; // a write commits while the statement runs
      return ['old rows'];
    });
    expect(await slow).toEqual(['old rows']);
    const n = reads;
    expect(await memo.getAsync('h', 6001, read(['new rows']))).toEqual(['new rows']);
    expect(reads).toBe(n + 1);
  });
});
