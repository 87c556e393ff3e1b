// The injection-report map on PostgreSQL (port InjRepo, src/core/inj/ports.ts; migration 022), the
// SQLite adapter's queries (src/store/sqlite/inj.ts) in PostgreSQL's words: least() for SQLite's
// two-argument min(), string_agg for group_concat. One report per (host, payload, root, UTC day) is
// the primary key (ON CONFLICT DO NOTHING). A host view reads one snapshot (REPEATABLE READ), so its
// windows agree with each other while reports keep arriving on other replicas.
import type { InjCounts, InjDay, InjHostRow, InjPayload, InjRepo, InjTopRow } from '../../core/inj/ports.js';
import type { Q, Sql } from './sql.js';

const DAY = 86_400_000;

type PayloadRow = Omit<InjPayload, 'flags'> & { flags: string };
const payloadOf = (r: PayloadRow): InjPayload => ({ ...r, flags: [...new Set(r.flags.split(','))].filter(Boolean).sort() });

const MATCH = '(host = $1 OR domain = $1)';
const PAYLOAD_COLS = `ph, count(*) AS reports, count(DISTINCT root) AS roots, count(DISTINCT net) AS nets, string_agg(flags, ',') AS flags,
  min(created) AS first, max(created) AS last`;

export function pgInj(sql: Sql): InjRepo {
  // Counts of one window (from $2): reports, distinct roots and networks; each network's weight capped at $3 first.
  const counts = async (q: Q, name: string, from: number, cap: number): Promise<InjCounts> =>
    (
      await q.query<InjCounts>(
        `WITH w AS (SELECT root, net, weight FROM inj_reports WHERE ${MATCH} AND created >= $2),
         pn AS (SELECT least(sum(weight), $3::float8) AS w FROM w GROUP BY net)
         SELECT (SELECT count(*) FROM w) AS reports, (SELECT count(DISTINCT root) FROM w) AS roots,
                (SELECT count(DISTINCT net) FROM w) AS nets, coalesce((SELECT sum(w) FROM pn), 0)::float8 AS weight`,
        [name, from, cap],
      )
    ).rows[0]!;

  return {
    async report(r) {
      return (
        (
          await sql.query(
            `INSERT INTO inj_reports (host, domain, ph, root, day, net, flags, lvl, weight, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
            [r.host, r.domain, r.ph, r.root, Math.floor(r.created / DAY), r.net, r.flags.join(','), r.lvl, r.weight, r.created],
          )
        ).count === 1
      );
    },
    async top(q) {
      return (
        await sql.query<InjTopRow>(
          `WITH recent AS (SELECT host, net, root, weight FROM inj_reports WHERE created >= $1),
           pn AS (SELECT host, least(sum(weight), $6::float8) AS w FROM recent GROUP BY host, net),
           hw AS (SELECT host, sum(w) AS weight FROM pn GROUP BY host),
           agg AS (SELECT host, count(*) AS reports, count(DISTINCT root) AS roots, count(DISTINCT net) AS nets
                   FROM recent GROUP BY host HAVING count(DISTINCT root) >= $3 AND count(DISTINCT net) >= $4)
           SELECT agg.host, agg.reports, agg.roots, agg.nets, hw.weight,
             (SELECT count(*) FROM inj_reports b WHERE b.host = agg.host AND b.created >= $2 AND b.created < $1) AS base
           FROM agg JOIN hw ON hw.host = agg.host WHERE hw.weight >= $5
           ORDER BY agg.nets DESC, hw.weight DESC, agg.reports DESC, agg.host LIMIT $7`,
          [q.since, q.baseSince, q.minRoots, q.minNets, q.minWeight, q.netCap, q.n],
        )
      ).rows;
    },
    async payload(ph, since, n) {
      // A hash prefix is a range of the (COLLATE "C") column: [ph, ph + 'g').
      const args = [ph, ph + 'g', since];
      const by = 'ph >= $1 AND ph < $2 AND created >= $3';
      const ps = (
        await sql.query<PayloadRow>(`SELECT ${PAYLOAD_COLS} FROM inj_reports WHERE ${by} GROUP BY ph ORDER BY reports DESC, ph LIMIT 50`, args)
      ).rows.map(payloadOf);
      if (!ps.length) return null;
      const hosts = await sql.query<InjHostRow>(
        `SELECT host, count(*) AS reports, count(DISTINCT root) AS roots, count(DISTINCT net) AS nets, min(created) AS first, max(created) AS last
         FROM inj_reports WHERE ${by} GROUP BY host ORDER BY nets DESC, reports DESC, host LIMIT $4`,
        [...args, n],
      );
      return { payloads: ps, hosts: hosts.rows };
    },
    async host(name, q) {
      return sql.tx(async (t) => {
        await t.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        if (!(await t.query(`SELECT 1 FROM inj_reports WHERE ${MATCH} AND created >= $2 LIMIT 1`, [name, q.month])).rows.length) return null;
        const hosts = (
          await t.query<{ host: string }>(`SELECT DISTINCT host FROM inj_reports WHERE ${MATCH} AND created >= $2 ORDER BY host LIMIT 50`, [name, q.month])
        ).rows.map((r) => r.host);
        const recent = await counts(t, name, q.since, q.netCap);
        const month = await counts(t, name, q.month, q.netCap);
        const payloads = (
          await t.query<PayloadRow>(
            `SELECT ${PAYLOAD_COLS} FROM inj_reports WHERE ${MATCH} AND created >= $2 GROUP BY ph ORDER BY reports DESC, last DESC, ph LIMIT $3`,
            [name, q.month, q.n],
          )
        ).rows.map(payloadOf);
        const days = (
          await t.query<InjDay>(
            `SELECT day, count(*) AS reports, count(DISTINCT root) AS roots, count(DISTINCT net) AS nets FROM inj_reports WHERE ${MATCH} AND created >= $2 GROUP BY day ORDER BY day DESC`,
            [name, q.daysSince],
          )
        ).rows.map((d) => ({ ...d, day: d.day * DAY }));
        const disputes = (await t.query<{ n: number }>(`SELECT count(*) AS n FROM inj_disputes WHERE ${MATCH} AND created >= $2`, [name, q.month])).rows[0]!.n;
        return { hosts, recent, month, payloads, days, disputes };
      });
    },
    async dispute(d) {
      return (
        await sql.query<{ id: number }>('INSERT INTO inj_disputes (host, domain, root, note, created) VALUES ($1, $2, $3, $4, $5) RETURNING id', [
          d.host,
          d.domain,
          d.root,
          d.note,
          d.created,
        ])
      ).rows[0]!.id;
    },
    async purge(before) {
      return sql.tx(
        async (q) =>
          (await q.query('DELETE FROM inj_reports WHERE created < $1', [before])).count +
          (await q.query('DELETE FROM inj_disputes WHERE created < $1', [before])).count,
      );
    },
  };
}
