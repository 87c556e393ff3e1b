// The adapters every port contract runs against: SQLite, PGlite (in-process PostgreSQL) and, with
// CX_PG_REAL=<url> (scripts/pg-test.sh), a real PostgreSQL server.
import { PGlite } from '@electric-sql/pglite';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach } from 'vitest';
import type { Store } from '../../src/compose/store.js';
import { workspaceKeyOf } from '../../src/config.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { PG_PORTS, openPgStore } from '../../src/store/pg/index.js';

/** A clock the contract moves by hand (lease expiry, retention, backoff). */
export interface TestClock {
  now(): number;
  set(t: number): void;
  advance(ms: number): void;
}

export function testClock(start = Date.parse('2026-11-24T12:00:00Z')): TestClock {
  let t = start;
  return { now: () => t, set: (v) => void (t = v), advance: (ms) => void (t += ms) };
}

export interface Adapter {
  name: string;
  /** Opens a store on `dir` (empty or written before by the same adapter) with `clock` as its time. */
  open(dir: string, clock: TestClock): Promise<Store>;
  /** The ports it implements, when not all (issue 23: the PostgreSQL adapter is built port by port); contracts of the others are not run (coverage.test.ts names them). */
  ports?: readonly string[];
  /** Frees what `open` kept for `dir` beyond the store (a database server's data), after the test. */
  dispose?(dir: string): Promise<void>;
}

// PGlite: the database outlives the store, as a server outlives a replica, so `reopen` (a restart
// of the process) opens a new store on the same schema. One instance per test file; each test dir
// gets a migrated schema of its own in it, as on the real server. After the test its tables are
// emptied and the schema is reused (a fresh migrated schema costs ~0.3 s, a clone of a migrated
// instance ~1.7 s, a new instance ~4 s). Migrations seed no rows, so an emptied schema is a new one.
let shared: Promise<PGlite> | null = null;
let pgliteSchemas = 0;
const freeSchemas: string[] = [];
const pgliteDirs = new Map<string, string>();
const pgliteAdapter: Adapter = {
  name: 'pglite',
  ports: PG_PORTS,
  async open(dir, clock) {
    shared ??= (async () => {
      const t = new PGlite();
      await (await openPgStore({ pglite: t }, { allowPartial: true })).close();
      return t;
    })();
    const db = await shared;
    let schema = pgliteDirs.get(dir);
    if (!schema) pgliteDirs.set(dir, (schema = freeSchemas.pop() ?? `t${pgliteSchemas++}`));
    return openPgStore({ pglite: db }, { now: clock.now, schema, allowPartial: true, workspaceKey: workspaceKeyOf(dir), dataDir: dir });
  },
  async dispose(dir) {
    const schema = pgliteDirs.get(dir);
    pgliteDirs.delete(dir);
    if (!schema || !shared) return;
    await emptySchema(await shared, schema);
    freeSchemas.push(schema);
  },
};

/**
 * Empties every table of `schema` but its migration record and rewinds its sequences: a fresh migrated
 * schema again (migrations seed no rows and create no sequence of their own). DELETE with the foreign
 * keys' triggers off, not TRUNCATE: TRUNCATE gives each of ~100 tables new files (~200 ms a test on
 * PGlite, ~120 ms on a real server; this takes ~20 ms and ~8 ms).
 */
async function emptySchema(db: { query(sql: string): Promise<unknown> }, schema: string): Promise<void> {
  if (!/^t[0-9_]+$/.test(schema)) throw new Error(`not a test schema: ${schema}`);
  await db.query(`DO $$ DECLARE r record; BEGIN
    PERFORM set_config('session_replication_role', 'replica', true);
    FOR r IN SELECT tablename FROM pg_tables WHERE schemaname = '${schema}' AND tablename <> 'schema_migrations' LOOP
      EXECUTE format('DELETE FROM %I.%I', '${schema}', r.tablename);
    END LOOP;
    FOR r IN SELECT sequencename, start_value FROM pg_sequences WHERE schemaname = '${schema}' AND last_value IS NOT NULL LOOP
      PERFORM setval(format('%I.%I', '${schema}', r.sequencename), r.start_value, false);
    END LOOP;
  END $$`);
}

// A real server (scripts/pg-test.sh sets CX_PG_REAL to its URL): a schema per test dir, emptied after
// the test and reused, as on PGlite. A new schema per test ran the 30 migrations ~230 times (about
// half of each test's time there) and left ~220,000 files in the throwaway cluster (37 s to remove).
let schemas = 0;
const realSchemas = new Map<string, string>();
const freeRealSchemas: string[] = [];
let realAdmin: pg.Pool | null = null;
const realAdapter = (url: string): Adapter => ({
  name: 'postgres',
  ports: PG_PORTS,
  async open(dir, clock) {
    let schema = realSchemas.get(dir);
    if (!schema) realSchemas.set(dir, (schema = freeRealSchemas.pop() ?? `t${process.pid}_${schemas++}`));
    return openPgStore(url, { now: clock.now, schema, allowPartial: true, max: 20, workspaceKey: workspaceKeyOf(dir), dataDir: dir });
  },
  async dispose(dir) {
    const schema = realSchemas.get(dir);
    realSchemas.delete(dir);
    if (!schema) return;
    // One connection for the emptying, let go when idle so it holds no worker open.
    realAdmin ??= new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 1000, allowExitOnIdle: true });
    await emptySchema(realAdmin, schema);
    freeRealSchemas.push(schema);
  },
});

// SQLite: a store opened on an empty directory is first a copy of one migrated once per file (a copy
// takes half the time of 33 migrations, for each of ~230 tests). Migrations write no rows, so the
// copy is a fresh store; a directory written before (a `reopen`) is opened as it is.
let migrated: Promise<string> | null = null;
const template = (): Promise<string> =>
  (migrated ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cx-contract-template-'));
    await (await openSqliteStore(dir, 'normal')).close();
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  })());

export const ADAPTERS: Adapter[] = [
  {
    name: 'sqlite',
    async open(dir, clock) {
      if (readdirSync(dir).length === 0) cpSync(await template(), dir, { recursive: true });
      return openSqliteStore(dir, 'normal', undefined, { now: clock.now });
    },
  },
  pgliteAdapter,
  ...(process.env.CX_PG_REAL ? [realAdapter(process.env.CX_PG_REAL)] : []),
];

/** A fresh store per test on a temporary directory, closed and removed after it; `reopen` simulates a restart. */
export function storeFor(adapter: Adapter): () => Promise<{ store: Store; clock: TestClock; dir: string; reopen(): Promise<Store> }> {
  const open: Array<{ store: Store; dir: string }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await o.store.close().catch(() => undefined);
      await adapter.dispose?.(o.dir);
      rmSync(o.dir, { recursive: true, force: true });
    }
  });
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), `cx-contract-${adapter.name}-`));
    const clock = testClock();
    const entry = { store: await adapter.open(dir, clock), dir };
    open.push(entry);
    return {
      get store() {
        return entry.store;
      },
      clock,
      dir,
      async reopen() {
        await entry.store.close();
        entry.store = await adapter.open(dir, clock);
        return entry.store;
      },
    };
  };
}
