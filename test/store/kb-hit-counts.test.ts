// Lookup counts go to the background writer, which writes them once per tick in key order: they
// reach the database while serving, and what is still waiting is written at a clean close. They
// live in a file of their own (kb-hits.db), where counts kept in the main file are moved at start.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewEntry } from '../../src/core/kb/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-hitcounts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (i: number) => i.toString(16).padStart(64, '0');
const entry = (i: number): NewEntry => ({
  id: `khits${String(i).padStart(4, '0')}`,
  sig: `py:E: ${i}`,
  h: hex(i),
  ch: hex(1000 + i),
  title: `title ${i}`,
  error: `E: ${i}`,
  fix: `fix number ${i}`,
  eco: 'pypi',
  cls: 'E',
  tags: [],
  libs: [],
  author: 'aauthor1',
  created: i,
});

describe('lookup counts', () => {
  it('are written while serving, and at close, many signatures at once', async () => {
    mkdirSync(join(dir, 'a'));
    const store = openSqliteStore(join(dir, 'a'));
    for (let i = 1; i <= 300; i++) await store.kb.insert(entry(i));
    for (let i = 1; i <= 300; i++) for (let k = 0; k < (i % 3) + 1; k++) await store.kb.byHash(hex(i), 5, true);
    // Written within a few ticks while the store is open.
    const deadline = Date.now() + 10_000;
    while ((await store.kb.byId('khits0300'))!.hits !== 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect((await store.kb.byId('khits0300'))!.hits).toBe(1);
    expect((await store.kb.byId('khits0002'))!.hits).toBe(3);
    // More counts, then a close right away: nothing waiting is lost.
    for (let i = 1; i <= 300; i++) await store.kb.byHash(hex(i), 5, true);
    await store.close();
    const again = openSqliteStore(join(dir, 'a'));
    expect((await again.kb.byId('khits0300'))!.hits).toBe(2);
    expect((await again.kb.byId('khits0002'))!.hits).toBe(4);
    expect((await again.kb.byId('khits0001'))!.hits).toBe(3);
    await again.close();
  });

  it('live in kb-hits.db; counts an older main file still holds are moved there at start', async () => {
    const d = join(dir, 'b');
    mkdirSync(d);
    const store = openSqliteStore(d);
    for (let i = 1; i <= 3; i++) await store.kb.insert(entry(i));
    await store.kb.byHash(hex(1), 5, true);
    await store.close();
    const table = (f: string) => {
      const db = new Database(join(d, f), { readonly: true });
      try {
        return db.prepare("SELECT name FROM sqlite_schema WHERE name = 'kb_sig_hits'").get() !== undefined
          ? (db.prepare('SELECT h, hits FROM kb_sig_hits ORDER BY h').all() as Array<{ h: string; hits: number }>)
          : null;
      } finally {
        db.close();
      }
    };
    expect(table('commons.db')).toBeNull();
    expect(table('kb-hits.db')).toEqual([{ h: hex(1), hits: 1 }]);
    // A main file as an older version left it: the table and its counts there.
    const main = new Database(join(d, 'commons.db'));
    main.exec('CREATE TABLE kb_sig_hits (h TEXT PRIMARY KEY, hits INTEGER NOT NULL DEFAULT 0) STRICT, WITHOUT ROWID');
    main.prepare('INSERT INTO kb_sig_hits (h, hits) VALUES (?, 40)').run(hex(2));
    main.close();
    const again = openSqliteStore(d);
    expect((await again.kb.byId('khits0002'))!.hits).toBe(40);
    expect((await again.kb.byId('khits0001'))!.hits).toBe(1);
    await again.close();
    expect(table('commons.db')).toBeNull();
    expect(table('kb-hits.db')).toEqual([
      { h: hex(1), hits: 1 },
      { h: hex(2), hits: 40 },
    ]);
  });
});
