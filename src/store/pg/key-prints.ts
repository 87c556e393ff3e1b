// Secret fingerprints on PostgreSQL (port: KeyPrintRepo in src/core/platform/secrets/ports.ts; table
// key_prints, migration 028). Replicas starting at once on an empty database: ON CONFLICT DO NOTHING
// lets the first insert win, and each then reads what was recorded.
import type { KeyPrintRepo } from '../../core/platform/secrets/ports.js';
import type { Sql } from './sql.js';

export function pgKeyPrints(sql: Sql): KeyPrintRepo {
  return {
    async keep(prints, now) {
      return sql.tx(async (q) => {
        for (const [name, print] of Object.entries(prints))
          await q.query('INSERT INTO key_prints (name, print, at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [name, print, now]);
        const rows = (await q.query<{ name: string; print: string }>('SELECT name, print FROM key_prints')).rows;
        return Object.fromEntries(rows.map((r) => [r.name, r.print]));
      });
    },
    async set(name, print, now) {
      await sql.query(
        'INSERT INTO key_prints (name, print, at) VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET print = excluded.print, at = excluded.at',
        [name, print, now],
      );
    },
  };
}
