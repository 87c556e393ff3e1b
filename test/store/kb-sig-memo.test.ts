// The SQLite KB keeps the answers of hot signatures in memory (byHash, byCoarse, byOldHash): every
// write that changes what a lookup returns must show in the very next lookup, including a purge,
// which another repository does. Empty answers are kept apart, and a new entry shows through them.
// The memo keeps a signature from its second lookup on (Memo's `second`): each answer below is
// asked twice, so that it is memoized when the write comes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewEntry } from '../../src/core/kb/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { vote } from '../contract/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-sigmemo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (i: number) => i.toString(16).padStart(64, '0');
const entry = (id: string, h: string, ch: string, author: string, created: number): NewEntry => ({
  id,
  sig: `py:E: ${id}`,
  h,
  ch,
  title: `title ${id}`,
  error: `E: ${id}`,
  fix: `fix of ${id}, a real one`,
  eco: 'pypi',
  cls: 'E',
  tags: [],
  libs: [],
  author,
  created,
});

describe('memoized signature answers', () => {
  it('a new entry, a vote, hiding and a purge each show in the next lookup', async () => {
    const store = openSqliteStore(dir);
    const kb = {
      byHash: async (h: string, n: number, hit: boolean) => (await store.kb.byHash(h, n, hit), store.kb.byHash(h, n, hit)),
      byCoarse: async (h: string, n: number) => (await store.kb.byCoarse(h, n), store.kb.byCoarse(h, n)),
      insert: store.kb.insert.bind(store.kb),
      vote: (id: string, voter: string, ok: boolean, now: number) => vote(store, id, voter, ok, now),
      setHidden: store.kb.setHidden.bind(store.kb),
    };
    expect(await kb.byHash(hex(1), 5, false)).toEqual([]);
    await kb.insert(entry('kmemo0001', hex(1), hex(101), 'aauthor1', 1));
    // The empty answer above was memoized, and the insert moved the generation: the entry is found at once.
    expect((await kb.byHash(hex(1), 5, false)).map((e) => e.id)).toEqual(['kmemo0001']);
    expect((await kb.byCoarse(hex(101), 5)).map((e) => e.id)).toEqual(['kmemo0001']);
    // A second entry under the same signature, newer: first while neither has votes.
    await kb.insert(entry('kmemo0002', hex(1), hex(101), 'aauthor2', 2));
    expect((await kb.byHash(hex(1), 5, false)).map((e) => e.id)).toEqual(['kmemo0002', 'kmemo0001']);
    expect((await kb.byCoarse(hex(101), 5)).map((e) => e.id)).toEqual(['kmemo0002', 'kmemo0001']);
    // A confirmation moves the older one up, with its count.
    await kb.vote('kmemo0001', 'avoter001', true, 3);
    const voted = await kb.byHash(hex(1), 5, false);
    expect(voted.map((e) => [e.id, e.confirms])).toEqual([
      ['kmemo0001', 1],
      ['kmemo0002', 0],
    ]);
    // Hidden: gone from the answer.
    await kb.setHidden('kmemo0001', true);
    expect((await kb.byHash(hex(1), 5, false)).map((e) => e.id)).toEqual(['kmemo0002']);
    // Purged by the admin repository: gone too, fine and coarse.
    await store.admin.purgeRoots(
      ['aauthor2'],
      (id) => `gone-${id}`,
      () => [],
    );
    expect(await kb.byHash(hex(1), 5, false)).toEqual([]);
    expect(await kb.byCoarse(hex(101), 5)).toEqual([]);
    await store.close();
  });
});
