// Registration counts of the adaptive PoW difficulty on PostgreSQL (port: PowRateRepo in
// src/core/platform/identity/ports.ts; table pow_regs, migration 026), shared by the replicas. One upsert of
// two rows per registration (its network's bucket, then the all-networks row '': every writer locks
// them in that order), one indexed SUM per read (the core keeps a memo of about a second).
import type { PowRateRepo } from '../../core/platform/identity/ports.js';
import type { Sql } from './sql.js';

export function pgPowRates(sql: Sql): PowRateRepo {
  return {
    async note(net, bucket) {
      await sql.query("INSERT INTO pow_regs AS r (net, bucket, n) VALUES ($1, $2, 1), ('', $2, 1) ON CONFLICT (net, bucket) DO UPDATE SET n = r.n + 1", [
        net,
        bucket,
      ]);
    },
    async counts(net, since) {
      const r = (
        await sql.query<{ g: number; m: number }>(
          "SELECT COALESCE(SUM(n) FILTER (WHERE net = ''), 0)::int8 AS g, COALESCE(SUM(n) FILTER (WHERE net = $1), 0)::int8 AS m FROM pow_regs WHERE net IN ('', $1) AND bucket > $2",
          [net ?? '', since],
        )
      ).rows[0]!;
      return { global: r.g, net: net === null ? 0 : r.m };
    },
    async busiest(since) {
      return (
        await sql.query<{ m: number }>(
          "SELECT COALESCE(MAX(s), 0)::int8 AS m FROM (SELECT SUM(n) AS s FROM pow_regs WHERE net <> '' AND bucket > $1 GROUP BY net) x",
          [since],
        )
      ).rows[0]!.m;
    },
    async purge(before) {
      return (await sql.query('DELETE FROM pow_regs WHERE bucket <= $1', [before])).count;
    },
  };
}
