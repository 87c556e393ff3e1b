// The profile's `saved` aggregate on PostgreSQL (port: src/core/profiles/ports.ts) over the
// workspace tables of migration 006: live, visible checkpoints the identity owns plus live,
// visible cached results it produced.
import type { SavedCounter } from '../../core/profiles/ports.js';
import type { Sql } from './sql.js';

export function pgSaved(sql: Sql): SavedCounter {
  return {
    async savedBy(id, now) {
      return (
        await sql.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM checkpoints WHERE owner = $1 AND exp > $2 AND hidden = 0)
                + (SELECT count(*) FROM cache WHERE producer = $1 AND exp > $2 AND hidden = 0) AS n`,
          [id, now],
        )
      ).rows[0]!.n;
    },
  };
}
