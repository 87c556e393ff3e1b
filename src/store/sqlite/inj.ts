// SQLite implementation of the InjRepo port (injection-report map, migration 022).
import type { InjCounts, InjDay, InjHostRow, InjPayload, InjRepo, InjTopRow } from '../../core/inj/ports.js';
import type { Db } from './db.js';

const DAY = 86_400_000;

type PayloadRow = Omit<InjPayload, 'flags'> & { flags: string };
const payloadOf = (r: PayloadRow): InjPayload => ({ ...r, flags: [...new Set(r.flags.split(','))].filter(Boolean).sort() });

// Counts of one window: reports, distinct roots and networks; the weight caps each network first.
const countsSql = (where: string) => `
  WITH w AS (SELECT root, net, weight FROM inj_reports WHERE ${where}),
  pn AS (SELECT min(sum(weight), @cap) AS w FROM w GROUP BY net)
  SELECT (SELECT count(*) FROM w) AS reports, (SELECT count(DISTINCT root) FROM w) AS roots,
         (SELECT count(DISTINCT net) FROM w) AS nets, coalesce((SELECT sum(w) FROM pn), 0) AS weight`;

export function sqliteInj(db: Db): InjRepo {
  const ins = db.prepare(
    `INSERT OR IGNORE INTO inj_reports (host, domain, ph, root, day, net, flags, lvl, weight, created)
     VALUES (@host, @domain, @ph, @root, @day, @net, @flags, @lvl, @weight, @created)`,
  );
  const top = db.prepare(`
    WITH recent AS (SELECT host, net, root, weight FROM inj_reports WHERE created >= @since),
    pn AS (SELECT host, min(sum(weight), @cap) AS w FROM recent GROUP BY host, net),
    hw AS (SELECT host, sum(w) AS weight FROM pn GROUP BY host),
    agg AS (SELECT host, count(*) AS reports, count(DISTINCT root) AS roots, count(DISTINCT net) AS nets
            FROM recent GROUP BY host HAVING count(DISTINCT root) >= @minRoots AND count(DISTINCT net) >= @minNets)
    SELECT agg.host, agg.reports, agg.roots, agg.nets, hw.weight,
      (SELECT count(*) FROM inj_reports b WHERE b.host = agg.host AND b.created >= @baseSince AND b.created < @since) AS base
    FROM agg JOIN hw ON hw.host = agg.host WHERE hw.weight >= @minWeight
    ORDER BY agg.nets DESC, hw.weight DESC, agg.reports DESC, agg.host LIMIT CAST(@n AS INTEGER)`);
  const byPh = 'ph >= @lo AND ph < @hi AND created >= @since';
  const phPayloads = db.prepare(`
    SELECT ph, count(*) AS reports, count(DISTINCT root) AS roots, count(DISTINCT net) AS nets, group_concat(flags, ',') AS flags,
      min(created) AS first, max(created) AS last
    FROM inj_reports WHERE ${byPh} GROUP BY ph ORDER BY reports DESC, ph LIMIT 50`);
  const phHosts = db.prepare(`
    SELECT host, count(*) AS reports, count(DISTINCT root) AS roots, count(DISTINCT net) AS nets, min(created) AS first, max(created) AS last
    FROM inj_reports WHERE ${byPh} GROUP BY host ORDER BY nets DESC, reports DESC, host LIMIT CAST(@n AS INTEGER)`);
  const match = '(host = @name OR domain = @name)';
  const any = db.prepare(`SELECT 1 FROM inj_reports WHERE ${match} AND created >= @month LIMIT 1`);
  const counts = db.prepare(countsSql(`${match} AND created >= @from`));
  const hosts = db.prepare(`SELECT DISTINCT host FROM inj_reports WHERE ${match} AND created >= @month ORDER BY host LIMIT 50`);
  const payloads = db.prepare(`
    SELECT ph, count(*) AS reports, count(DISTINCT root) AS roots, count(DISTINCT net) AS nets, group_concat(flags, ',') AS flags,
      min(created) AS first, max(created) AS last
    FROM inj_reports WHERE ${match} AND created >= @month GROUP BY ph ORDER BY reports DESC, last DESC, ph LIMIT CAST(@n AS INTEGER)`);
  const days = db.prepare(`
    SELECT day, count(*) AS reports, count(DISTINCT root) AS roots, count(DISTINCT net) AS nets
    FROM inj_reports WHERE ${match} AND created >= @daysSince GROUP BY day ORDER BY day DESC`);
  const disputes = db.prepare(`SELECT count(*) AS n FROM inj_disputes WHERE (host = @name OR domain = @name) AND created >= @month`);
  const addDispute = db.prepare('INSERT INTO inj_disputes (host, domain, root, note, created) VALUES (@host, @domain, @root, @note, @created)');
  const purgeReports = db.prepare('DELETE FROM inj_reports WHERE created < ?');
  const purgeDisputes = db.prepare('DELETE FROM inj_disputes WHERE created < ?');

  const purge = db.transaction((before: number) => purgeReports.run(before).changes + purgeDisputes.run(before).changes);
  const hostView = db.transaction((name: string, q: { month: number; since: number; daysSince: number; n: number; netCap: number }) => {
    if (!any.get({ name, month: q.month })) return null;
    const c = (from: number) => counts.get({ name, from, cap: q.netCap }) as InjCounts;
    return {
      hosts: (hosts.all({ name, month: q.month }) as { host: string }[]).map((r) => r.host),
      recent: c(q.since),
      month: c(q.month),
      payloads: (payloads.all({ name, month: q.month, n: q.n }) as PayloadRow[]).map(payloadOf),
      days: (days.all({ name, daysSince: q.daysSince }) as InjDay[]).map((d) => ({ ...d, day: d.day * DAY })),
      disputes: (disputes.get({ name, month: q.month }) as { n: number }).n,
    };
  });

  return {
    async report(r) {
      return ins.run({ ...r, day: Math.floor(r.created / DAY), flags: r.flags.join(',') }).changes === 1;
    },
    async top(q) {
      return top.all({
        since: q.since,
        baseSince: q.baseSince,
        minRoots: q.minRoots,
        minNets: q.minNets,
        minWeight: q.minWeight,
        cap: q.netCap,
        n: q.n,
      }) as InjTopRow[];
    },
    async payload(ph, since, n) {
      const args = { lo: ph, hi: ph + 'g', since, n };
      const ps = (phPayloads.all(args) as PayloadRow[]).map(payloadOf);
      if (!ps.length) return null;
      return { payloads: ps, hosts: phHosts.all(args) as InjHostRow[] };
    },
    async host(name, q) {
      return hostView(name, q);
    },
    async dispute(d) {
      return Number(addDispute.run(d).lastInsertRowid);
    },
    async purge(before) {
      return purge(before);
    },
  };
}
