// Two connections' worth of one PostgreSQL database, [A, B], each as a replica would have it: on
// PGlite always, and on a real server when CX_PG_REAL is set (scripts/pg-test.sh), in a schema of
// its own dropped at the end. Everything opened is closed after the file's tests.
import { PGlite } from '@electric-sql/pglite';
import { afterAll } from 'vitest';
import { pgliteSql, poolSql, type Sql } from '../../src/store/pg/sql.js';

export interface PgPairEngine {
  name: 'pglite' | 'real server';
  open(): Promise<[Sql, Sql]>;
}

/**
 * The engines to run on; `schema` names the real server's schema (unique per file and process).
 * `onClose`: what a test opened on an engine, closed after the file's tests, before the engine.
 */
export function pgPair(schema: string, max = 4): { engines: PgPairEngine[]; onClose(fn: () => Promise<void>): void } {
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
  });
  const engines: PgPairEngine[] = [
    {
      name: 'pglite',
      async open() {
        const db = new PGlite();
        closers.push(() => db.close());
        return [await pgliteSql(db), await pgliteSql(db)];
      },
    },
  ];
  const url = process.env.CX_PG_REAL;
  if (url)
    engines.push({
      name: 'real server',
      async open() {
        const a = await poolSql(url, { schema, max });
        const b = await poolSql(url, { schema, max });
        closers.push(async () => {
          await a.exec(`DROP SCHEMA ${schema} CASCADE`);
          await a.close();
          await b.close();
        });
        return [a, b];
      },
    });
  return { engines, onClose: (fn) => void closers.push(fn) };
}
