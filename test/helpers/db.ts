// Direct access to a test server's database files (tests only: tampering, raising levels, byte scans).
import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Who } from './http.js';
import type { TestServer } from './server.js';

/** Writes to the server's database file through a second connection. */
export function sql(s: TestServer, stmt: string, ...args: unknown[]): void {
  const db = new Database(join(s.dir, 'commons.db'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(stmt).run(...args);
  } finally {
    db.close();
  }
}

/** Raises an identity to L2 (rep, confirmed fixes and age of the L2 row of TRUST_LEVELS). */
export function makeL2(s: TestServer, w: Who): void {
  sql(s, 'UPDATE identities SET rep = 30, confirmed = 6, created = ? WHERE id = ?', Date.now() - 10 * 86_400_000, w.id);
}

/** Every byte of the database files (main, WAL, shared memory). */
export function dbBytes(dir: string): Buffer[] {
  return ['commons.db', 'commons.db-wal', 'commons.db-shm']
    .map((f) => join(dir, f))
    .filter(existsSync)
    .map((f) => readFileSync(f));
}
