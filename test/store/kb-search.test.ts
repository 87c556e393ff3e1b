// The KB search's bounded walk (newest windows first, stop at the budget) and its memo.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/store/sqlite/db.js';
import { sqliteKb } from '../../src/store/sqlite/kb.js';
import { kbSearch } from '../../src/store/sqlite/kb-search.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-kbsearch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const db = openDb(join(dir, 'kb.db'));
const kb = sqliteKb(db, { countHits: () => {} });

const entry = (i: number, words: string) => ({
  id: `k${String(i).padStart(8, '0')}`,
  sig: `E${i}: ${words}`,
  h: String(i).padStart(64, '0'),
  title: `E${i} ${words}`,
  error: words,
  fix: `fix ${i}`,
  eco: 'npm',
  cls: 'E',
  tags: [],
  libs: [],
  author: 'atest',
  created: 1_700_000_000_000 + i,
});

// Entries here are numbered as inserted, and their ids carry the number.
const num = (e: { id: string }) => Number(e.id.slice(1));

describe('KB search', () => {
  it('walks newest windows first; past the budget it keeps what the newest windows held', async () => {
    // 40 entries: "quartz" in every 10th, "ember" in all.
    await kb.insertMany(Array.from({ length: 40 }, (_, i) => entry(i + 1, i % 10 === 0 ? 'quartz ember' : 'ember')));
    const all = kbSearch(db, { budgetMs: 1000, firstWindow: 4 });
    expect(
      all
        .run('"quartz" "ember"', 10)
        .map(num)
        .sort((a, b) => a - b),
    ).toEqual([1, 11, 21, 31]);
    // A zero budget searches only the first window (rowids 37..40): none of them says quartz.
    const tight = kbSearch(db, { budgetMs: 0, firstWindow: 4 });
    expect(tight.run('"quartz" "ember"', 10)).toEqual([]);
    expect(
      tight
        .run('"ember"', 10)
        .map(num)
        .sort((a, b) => a - b),
    ).toEqual([37, 38, 39, 40]);
  });

  it('serves a repeated query from the memo until the KB changes or the entry ages out', async () => {
    let gen = 0;
    const s = kbSearch(db, { ttlMs: 1000, gen: () => gen });
    const first = s.run('"zircon"', 10, 0);
    expect(first).toEqual([]);
    await kb.insertMany([entry(41, 'zircon')]);
    expect(s.run('"zircon"', 10, 10)).toBe(first); // same object: from the memo
    gen++;
    expect(s.run('"zircon"', 10, 20).map(num)).toEqual([41]);
    await kb.insertMany([entry(42, 'zircon')]);
    expect(s.run('"zircon"', 10, 30).map(num)).toEqual([41]);
    expect(s.run('"zircon"', 10, 1100).map(num).sort()).toEqual([41, 42]); // aged out
  });

  it('the store forgets memoized results when an entry is published', async () => {
    expect((await kb.search('garnet', 10)).length).toBe(0);
    await kb.insertMany([entry(43, 'garnet')]);
    expect((await kb.search('garnet', 10)).map(num)).toEqual([43]);
  });
});
