// The adapters every port contract runs against: SQLite, PGlite (in-process PostgreSQL) and, with
// CX_PG_REAL=<url> (scripts/pg-test.sh), a real PostgreSQL server.
import { PGlite } from '@electric-sql/pglite';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    const db = await shared;
    const { rows } = await db.query<{ t: string }>(
      "SELECT quote_ident(tablename) AS t FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_migrations'",
      [schema],
    );
    if (rows.length) await db.exec(`TRUNCATE ${rows.map((r) => `${schema}.${r.t}`).join(', ')} RESTART IDENTITY CASCADE`);
    freeSchemas.push(schema);
  },
};

// A real server (scripts/pg-test.sh sets CX_PG_REAL to its URL): a schema per test dir.
let schemas = 0;
const realSchemas = new Map<string, string>();
const realAdapter = (url: string): Adapter => ({
  name: 'postgres',
  ports: PG_PORTS,
  async open(dir, clock) {
    let schema = realSchemas.get(dir);
    if (!schema) realSchemas.set(dir, (schema = `t${process.pid}_${schemas++}`));
    return openPgStore(url, { now: clock.now, schema, allowPartial: true, max: 20, workspaceKey: workspaceKeyOf(dir), dataDir: dir });
  },
  async dispose(dir) {
    realSchemas.delete(dir);
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
