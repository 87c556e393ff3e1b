// Migration 009 moves error texts out of kb_entries into kb_errors: a database written before it
// keeps every entry, error text included, and the store reads and writes it as before.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDb } from '../../src/store/sqlite/db.js';
import { sqliteKb } from '../../src/store/sqlite/kb.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-kbmig-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const all = fileURLToPath(new URL('../../src/store/sqlite/migrations/', import.meta.url));

describe('migration 009: error texts apart', () => {
  it('keeps the error texts of entries written before it; new entries keep theirs', async () => {
    // The schema as it stood before 009, with one entry written the old way.
    const before = join(dir, 'before');
    mkdirSync(before);
    for (const f of readdirSync(all).filter((f) => f < '009')) copyFileSync(join(all, f), join(before, f));
    const file = join(dir, 'kb.db');
    const old = new Database(file);
    migrate(old, before);
    old
      .prepare(
        `INSERT INTO kb_entries (n, id, sig, h, title, error, fix, eco, cls, tags, author, created, updated) VALUES (7, 'kold00001', 'py:E: x', ?, 'old one', 'Traceback ...\nE: x', 'do the thing properly', 'pypi', 'E', '', 'aold', 1, 1)`,
      )
      .run('a'.repeat(64));
    old.close();

    const db = openDb(file);
    expect(db.prepare("SELECT count(*) AS n FROM pragma_table_info('kb_entries') WHERE name = 'error'").pluck().get()).toBe(0);
    const kb = sqliteKb(db, { countHits: () => {} });
    expect((await kb.byId('kold00001'))?.error).toBe('Traceback ...\nE: x');
    expect((await kb.byHash('a'.repeat(64), 5, false)).map((e) => e.fix)).toEqual(['do the thing properly']);
    const added = await kb.insert({
      id: 'knew00001',
      sig: 'py:E: y',
      h: 'b'.repeat(64),
      title: 'new one',
      error: 'E: y happened',
      fix: 'do the other thing',
      eco: 'pypi',
      cls: 'E',
      tags: [],
      libs: [],
      author: 'anew',
      created: 2,
    });
    expect(added?.error).toBe('E: y happened');
    expect((await kb.byId('knew00001'))?.error).toBe('E: y happened');
    expect((await kb.search('happened', 5)).map((e) => e.id)).toEqual(['knew00001']);
    kb.flush();
    db.close();
  });
});
