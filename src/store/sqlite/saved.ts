// The profile's `saved` aggregate over the workspace tables of migration 006: live, visible
// checkpoints the identity owns plus live, visible cached results it produced.
import type { SavedCounter } from '../../core/profiles/ports.js';
import type { Db } from './db.js';

export function sqliteSaved(db: Db): SavedCounter {
  const q = db.prepare(
    `SELECT (SELECT count(*) FROM checkpoints WHERE owner = @id AND exp > @now AND hidden = 0)
          + (SELECT count(*) FROM cache WHERE producer = @id AND exp > @now AND hidden = 0) AS n`,
  );
  return {
    async savedBy(id, now) {
      return (q.get({ id, now }) as { n: number }).n;
    },
  };
}
