// Opens the SQLite database (WAL, foreign keys) and applies numbered migrations at start-up.
import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Db = Database.Database;

/** True for a UNIQUE or PRIMARY KEY clash (an id drawn twice). */
export const isUnique = (e: unknown) =>
  (e as { code?: string })?.code === 'SQLITE_CONSTRAINT_UNIQUE' || (e as { code?: string })?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';

/**
 * A row limit bound at run time. SQLite lets the value bound to a bare `LIMIT ?` steer the
 * query plan, so each call with a new binding re-prepares the statement: measured 29 against
 * 14 us per KB lookup at 1M entries, and 13% of the server's CPU under POST /e. A cast keeps
 * the value out of the planner; the limit still applies. test/sql-limit.test.ts keeps it so.
 */
export const LIMIT = 'LIMIT CAST(? AS INTEGER)';

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Opens a database file with our pragmas and applies the numbered migrations of `dir`. */
export function openDb(file: string, sync: 'normal' | 'full' = 'normal', dir = migrationsDir): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a committed transaction is in the WAL before the call returns, so a
  // killed process loses nothing acknowledged; FULL also survives power loss (CX_SYNC=full).
  db.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_MS}`);
  // Reads of a large KB are random: a 64 MiB page cache. Memory-mapping the file measured ~18%
  // faster POST /e at 1M entries but counted 960 MB of RSS against 300 MB: left off.
  db.pragma('cache_size = -65536');
  immediateTransactions(db);
  migrate(db, dir);
  return db;
}

/** How long a request's write waits for the write lock before it is a `503 err busy`. */
const BUSY_MS = 5000;
/** How long a background poll's write waits (a job lease, the swarm's due digests): it runs again next tick. */
const POLL_BUSY_MS = 250;

/**
 * Runs a background poll's transaction with a short busy timeout. better-sqlite3 waits on the
 * serving thread: with the lock held elsewhere (a backup, a `sqlite3` shell), five job workers and
 * the swarm tick each held the event loop for the whole 5 s, so a request's own `503` came after
 * 35 s and reads stalled with it. Synchronous, so no other statement sees the shorter timeout.
 */
export function polling<T>(db: Db, fn: () => T): T {
  db.pragma(`busy_timeout = ${POLL_BUSY_MS}`);
  try {
    return fn();
  } finally {
    db.pragma(`busy_timeout = ${BUSY_MS}`);
  }
}

/**
 * Makes `db.transaction(fn)` take the write lock first (BEGIN IMMEDIATE; nested calls are still
 * savepoints). A deferred transaction that reads before it writes fails at once with
 * SQLITE_BUSY_SNAPSHOT when another connection (the background writer of lookup counts) commits
 * between its first read and its first write: no busy timeout applies to that upgrade. It was a
 * rare `500` on a note write under load; immediate, such a transaction waits its busy timeout.
 */
function immediateTransactions(db: Db): void {
  const plain = db.transaction.bind(db);
  db.transaction = ((fn: (...a: unknown[]) => unknown) => {
    const t = plain(fn);
    return Object.assign((...a: unknown[]) => t.immediate(...a), { default: t.default, deferred: t.deferred, immediate: t.immediate, exclusive: t.exclusive });
  }) as Db['transaction'];
}

export function migrate(db: Db, dir = migrationsDir): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (n INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)');
  const done = new Set((db.prepare('SELECT n FROM schema_migrations').all() as { n: number }[]).map((r) => r.n));
  const files = readdirSync(dir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();
  let applied = 0;
  for (const f of files) {
    const n = Number(f.slice(0, 3));
    if (done.has(n)) continue;
    const sql = readFileSync(join(dir, f), 'utf8');
    // Checked again under the write lock: another process opening the same empty directory (two
    // `npm run key:rotate` at once) may have applied it since the read above.
    const ran = db.transaction(() => {
      if (db.prepare('SELECT 1 FROM schema_migrations WHERE n = ?').get(n)) return false;
      db.exec(sql);
      db.prepare('INSERT INTO schema_migrations (n, name, applied) VALUES (?, ?, ?)').run(n, f, Date.now());
      return true;
    })();
    if (ran) applied++;
  }
  return applied;
}

/**
 * Counts the wall time this thread spends inside statement calls (`run`, `get`, `all`) and `exec`,
 * for the shed level's database-busy share. Statements prepared after the call are timed (the
 * adapters prepare theirs after openDb); iterators are not (none is on a hot path). Two clock
 * reads per call: ~0.1 us beside a ~7 us point lookup.
 */
export function timeStatements(db: Db): { ms: number } {
  const busy = { ms: 0 };
  const prepare = db.prepare.bind(db);
  const timed = <F extends (...a: never[]) => unknown>(f: F): F =>
    ((...a: Parameters<F>) => {
      const t = performance.now();
      try {
        return f(...a);
      } finally {
        busy.ms += performance.now() - t;
      }
    }) as F;
  db.prepare = ((sql: string) => {
    const s = prepare(sql);
    s.run = timed(s.run.bind(s));
    s.get = timed(s.get.bind(s));
    s.all = timed(s.all.bind(s));
    return s;
  }) as Db['prepare'];
  db.exec = timed(db.exec.bind(db)) as Db['exec'];
  return busy;
}

/**
 * Attaches the KB lookup counts' own file (kb-hits.db) to the serving connection, as schema
 * `hits`, and moves the counts there from the main file the first time. The background worker
 * writes counts every second; while they were in the main file, each of its commits made this
 * connection drop its whole page cache (WAL mode: another connection changed the file), which
 * doubled the page reads of a KB lookup at 1M entries (2.1 against 4.3 preads per GET /h/{hex},
 * strace). Queries keep naming `kb_sig_hits` unqualified: once the main file has no such table,
 * SQLite finds the attached one.
 */
export function attachHits(db: Db, file: string): void {
  db.prepare('ATTACH DATABASE ? AS hits').run(file);
  db.pragma('hits.journal_mode = WAL');
  // Statistics: a power loss may lose the last counts, as in the worker that writes them.
  db.pragma('hits.synchronous = NORMAL');
  db.exec('CREATE TABLE IF NOT EXISTS hits.kb_sig_hits (h TEXT PRIMARY KEY, hits INTEGER NOT NULL DEFAULT 0) STRICT, WITHOUT ROWID');
  const inMain = () => db.prepare("SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = 'kb_sig_hits'").get();
  if (!inMain()) return;
  // Copied, not added: the two files commit apart, and a crash between them only repeats the copy.
  db.transaction(() => {
    // Asked again under the write lock: another process opening the same directory (two
    // `npm run key:rotate` at once) may have moved them since ("no such table: main.kb_sig_hits").
    if (!inMain()) return;
    db.exec('INSERT OR REPLACE INTO hits.kb_sig_hits (h, hits) SELECT h, hits FROM main.kb_sig_hits');
    db.exec('DROP TABLE main.kb_sig_hits');
  })();
}
