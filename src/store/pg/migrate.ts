// Numbered migrations for PostgreSQL: src/store/pg/migrations/NNN_name.sql, the same numbers and
// names as the SQLite list (src/store/sqlite/migrations; test/store/pg-migrations.test.ts keeps the
// two lists in step). Pending files are applied in one transaction under an advisory lock, so
// replicas starting at once migrate once: the second waits for the lock, then finds them applied.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './sql.js';

export const pgMigrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

/** The migration files of `dir` in order: `NNN_name.sql`. */
export function migrateFiles(dir: string): { n: number; name: string }[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort()
    .map((name) => ({ n: Number(name.slice(0, 3)), name }));
}

/** Applies the pending migrations of `dir`; returns how many. */
export async function migratePg(sql: Sql, dir = pgMigrationsDir): Promise<number> {
  const files = migrateFiles(dir);
  return sql.tx(async (q) => {
    // One lock per schema: two stores on different schemas of one database do not wait for each other.
    await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.migrate.' || current_schema()))");
    await q.exec('CREATE TABLE IF NOT EXISTS schema_migrations (n INTEGER PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)');
    const done = new Set((await q.query<{ n: number }>('SELECT n FROM schema_migrations')).rows.map((r) => r.n));
    let applied = 0;
    for (const f of files) {
      if (done.has(f.n)) continue;
      await q.exec(readFileSync(join(dir, f.name), 'utf8'));
      await q.query('INSERT INTO schema_migrations (n, name, applied) VALUES ($1, $2, $3)', [f.n, f.name, Date.now()]);
      applied++;
    }
    return applied;
  });
}
