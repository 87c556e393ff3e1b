// The serving connection's transactions take the write lock first: another connection (the
// background writer) committing between a transaction's first read and its first write must not
// make it fail with SQLITE_BUSY_SNAPSHOT, as a deferred transaction does.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/store/sqlite/db.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-immtx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('transactions of the serving connection', () => {
  it('hold the write lock from their start: a commit of another connection cannot slip between read and write', () => {
    const file = join(dir, 'a.db');
    const db = openDb(file);
    db.exec('CREATE TABLE t (x INTEGER)');
    const other = new Database(file, { timeout: 0 }); // no busy timeout: it fails at once when locked
    const otherWrite = () => other.exec('INSERT INTO t VALUES (0)');
    let otherErr: unknown = null;
    const tx = db.transaction(() => {
      const n = (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
      try {
        otherWrite();
      } catch (err) {
        otherErr = err;
      }
      db.prepare('INSERT INTO t VALUES (?)').run(n + 1);
    });
    expect(() => tx()).not.toThrow();
    expect((otherErr as { code?: string } | null)?.code).toBe('SQLITE_BUSY');
    // The deferred form still exists, and shows the race it avoids.
    const deferred = db.transaction(() => {
      db.prepare('SELECT count(*) AS n FROM t').get();
      otherWrite();
      db.prepare('INSERT INTO t VALUES (9)').run();
    }).deferred;
    expect(() => deferred()).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY_SNAPSHOT' }));
    // Nested calls are savepoints of the outer transaction.
    const inner = db.transaction(() => db.prepare('INSERT INTO t VALUES (5)').run());
    db.transaction(() => {
      inner();
      inner();
    })();
    expect((db.prepare('SELECT count(*) AS n FROM t WHERE x = 5').get() as { n: number }).n).toBe(2);
    other.close();
    db.close();
  });
});
