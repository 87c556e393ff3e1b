// SQLite lets the value bound to a bare `LIMIT ?` steer the query plan, so such a statement is
// re-prepared on every call with a new binding (measured twice the cost of a KB lookup). Every
// bound limit goes through the LIMIT constant (or the same cast of a named parameter); this keeps
// it that way and checks the cast still limits.
import Database from 'better-sqlite3';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMIT } from '../../src/store/sqlite/db.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('bound row limits', () => {
  it('no SQL in src binds LIMIT as a bare parameter', () => {
    // The rule is SQLite's (its planner): PostgreSQL plans `LIMIT $n` once per prepared statement.
    const pg = new URL('../../src/store/pg/', import.meta.url).pathname;
    const bare = sources(new URL('../../src', import.meta.url).pathname)
      .filter((f) => !f.startsWith(pg))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ at: `${f}:${i + 1}`, line }))
          .filter(({ line }) => !/^\s*(\*|\/\/)/.test(line) && /\bLIMIT\s+[?:@$]/.test(line) && !line.includes('${LIMIT}')),
      );
    expect(bare.map((b) => b.at)).toEqual([]);
  });

  it('the LIMIT constant still limits, with and without OFFSET', () => {
    const db = new Database(':memory:');
    db.exec(
      'CREATE TABLE t (n INTEGER PRIMARY KEY); WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 50) INSERT INTO t (n) SELECT n FROM s',
    );
    expect(db.prepare(`SELECT n FROM t ORDER BY n DESC ${LIMIT}`).pluck().all(3)).toEqual([50, 49, 48]);
    expect(db.prepare(`SELECT n FROM t ORDER BY n ${LIMIT} OFFSET ?`).pluck().all(2, 10)).toEqual([11, 12]);
    expect(db.prepare('SELECT n FROM t ORDER BY n LIMIT CAST(@n AS INTEGER)').pluck().all({ n: 2 })).toEqual([1, 2]);
    db.close();
  });
});
