// Quota buckets shared by the replicas (port: src/core/quota/ports.ts), in the UNLOGGED table
// quota_buckets (migration 011). One statement per take: the upsert refills and takes under the
// row's lock, so concurrent takes on any replica never grant more than the bucket holds. The
// arithmetic is the in-memory repository's (src/core/quota/memory.ts), in double precision.
import type { QuotaRepo } from '../../core/quota/ports.js';
import type { Sql } from './sql.js';

// $1 id, $2 cost, $3 cap, $4 rate per ms, $5 now. REFILL: the bucket refilled to now, up to the cap.
const REFILL = 'least($3::float8, b.tokens + greatest(0, $5::int8 - b.t) * $4::float8)';
const TAKE = `
  INSERT INTO quota_buckets AS b (id, tokens, t, cap, rate, took)
  VALUES ($1, CASE WHEN $3::float8 >= $2::float8 THEN $3::float8 - $2::float8 ELSE $3::float8 END, $5::int8, $3::float8, $4::float8, $3::float8 >= $2::float8)
  ON CONFLICT (id) DO UPDATE SET
    tokens = CASE WHEN ${REFILL} >= $2::float8 THEN ${REFILL} - $2::float8 ELSE ${REFILL} END,
    took = ${REFILL} >= $2::float8,
    t = greatest(b.t, $5::int8), cap = $3::float8, rate = $4::float8
  RETURNING tokens, took`;

/** Full buckets are dropped at most this often per process (rows of networks no longer active). */
const PRUNE_EVERY_MS = 60_000;

export function pgQuotas(sql: Sql): QuotaRepo {
  let pruned = -Infinity;
  return {
    async take(id, cost, cap, rate, now) {
      if (now - pruned >= PRUNE_EVERY_MS) {
        pruned = now;
        await sql.query('DELETE FROM quota_buckets WHERE tokens + greatest(0, $1::int8 - t) * rate >= cap', [now]);
      }
      const r = (await sql.query<{ tokens: number; took: boolean }>(TAKE, [id, cost, cap, rate, now])).rows[0]!;
      // Refused: `tokens` is what the bucket holds now; the wait is until it holds `cost`.
      return r.took ? 0 : Math.max(1, Math.ceil((cost - r.tokens) / rate));
    },
  };
}
