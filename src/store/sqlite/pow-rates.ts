// Registration counts of the adaptive PoW difficulty on SQLite (port: PowRateRepo in
// src/core/platform/identity/ports.ts; table pow_regs, migration 026). One upsert per registration (its
// network's bucket and the all-networks row ''), one indexed SUM per read.
import type { PowRateRepo } from '../../core/platform/identity/ports.js';
import type { Db } from './db.js';

export function sqlitePowRates(db: Db): PowRateRepo {
  const bump = db.prepare('INSERT INTO pow_regs (net, bucket, n) VALUES (?, ?, 1) ON CONFLICT (net, bucket) DO UPDATE SET n = n + 1');
  const note = db.transaction((net: string, bucket: number) => {
    bump.run(net, bucket);
    bump.run('', bucket);
  });
  const counts = db.prepare(
    "SELECT COALESCE(SUM(CASE WHEN net = '' THEN n END), 0) AS g, COALESCE(SUM(CASE WHEN net = ? THEN n END), 0) AS m FROM pow_regs WHERE net IN ('', ?) AND bucket > ?",
  );
  const busiest = db.prepare("SELECT COALESCE(MAX(s), 0) AS m FROM (SELECT SUM(n) AS s FROM pow_regs WHERE net <> '' AND bucket > ? GROUP BY net)");
  const purge = db.prepare('DELETE FROM pow_regs WHERE bucket <= ?');
  return {
    async note(net, bucket) {
      note(net, bucket);
    },
    async counts(net, since) {
      const r = counts.get(net ?? '', net ?? '', since) as { g: number; m: number };
      return { global: r.g, net: net === null ? 0 : r.m };
    },
    async busiest(since) {
      return (busiest.get(since) as { m: number }).m;
    },
    async purge(before) {
      return purge.run(before).changes;
    },
  };
}
