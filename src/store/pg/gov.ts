// Governance on PostgreSQL (port: src/core/gov/ports.ts; migration 021), as the SQLite adapter
// (src/store/sqlite/gov.ts) keeps it. Every state change is one conditional statement (UPDATE ...
// WHERE state = from) or a transaction that starts with one, so two operators deciding at once on
// any replicas cannot both win; support is one row per (proposal, root) (ON CONFLICT DO NOTHING).
// What SQLite's single writer gives for free is taken with advisory locks here: a notice's caps are
// counted under the locks of its network and super-group, the next /llms.txt revision number under one lock.
import type { GovRepo, LlmsRev, NetSupport, Notice, Proposal, ProposalState, RoadmapTask, SupportRow } from '../../core/gov/ports.js';
import type { Q, Sql } from './sql.js';

interface PRow {
  id: string;
  kind: string;
  title: string;
  body: string;
  section: string | null;
  author: string;
  net: string;
  state: ProposalState;
  has_patch: boolean;
  check_state: Proposal['check'];
  check_log: string | null;
  check_at: number | null;
  note: string;
  decided_by: string | null;
  decided_at: number | null;
  revisit_at: number | null;
  bounty: number;
  created: number;
  updated: number;
}

const P_COLS = `id, kind, title, body, section, author, net, state, patch IS NOT NULL AS has_patch, check_state, check_log, check_at, note,
  decided_by, decided_at, revisit_at, bounty, created, updated`;
const N_COLS = 'id, url, ref, category, reason, email, good_faith, net, sgroup, state, note, decided_by, decided_at, created';

export function pgGov(sql: Sql): GovRepo {
  /** Proposals with their support per network (one query for all of them), in the order given. */
  const withNets = async (q: Pick<Q, 'query'>, rows: PRow[]): Promise<Proposal[]> => {
    if (!rows.length) return [];
    const nets = (
      await q.query<NetSupport & { proposal: string }>(
        'SELECT proposal, net, sum(weight) AS w, count(*) AS n FROM gov_support WHERE proposal = ANY($1::text[]) GROUP BY proposal, net ORDER BY proposal, w DESC, net',
        [rows.map((r) => r.id)],
      )
    ).rows;
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      title: r.title,
      body: r.body,
      section: r.section,
      author: r.author,
      net: r.net,
      state: r.state,
      hasPatch: r.has_patch,
      check: r.check_state,
      checkLog: r.check_log,
      checkAt: r.check_at,
      note: r.note,
      decidedBy: r.decided_by,
      decidedAt: r.decided_at,
      revisitAt: r.revisit_at,
      bounty: r.bounty,
      created: r.created,
      updated: r.updated,
      nets: nets.filter((x) => x.proposal === r.id).map(({ net, w, n }) => ({ net, w, n })),
    }));
  };
  const byId = async (q: Pick<Q, 'query'>, id: string) =>
    (await withNets(q, (await q.query<PRow>(`SELECT ${P_COLS} FROM gov_proposals WHERE id = $1`, [id])).rows))[0] ?? null;
  const notice = async (q: Pick<Q, 'query'>, id: string) => (await q.query<Notice>(`SELECT ${N_COLS} FROM gov_notices WHERE id = $1`, [id])).rows[0] ?? null;
  const reportSum = async (ref: string) =>
    (await sql.query<{ w: number }>('SELECT coalesce(sum(weight), 0)::float8 AS w FROM gov_reports WHERE ref = $1', [ref])).rows[0]!.w;

  return {
    async createProposal(p) {
      const check = p.patch === null ? null : 'requested';
      const r = await sql.query<PRow>(
        `INSERT INTO gov_proposals (id, kind, title, body, section, author, net, state, patch, check_state, check_at, created, updated)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $9, $10, $11, $11) ON CONFLICT (id) DO NOTHING RETURNING ${P_COLS}`,
        [p.id, p.kind, p.title, p.body, p.section, p.author, p.net, p.patch, check, check ? p.created : null, p.created],
      );
      return r.rows.length ? (await withNets(sql, r.rows))[0]! : null;
    },
    proposal: (id) => byId(sql, id),
    async patch(id) {
      return (await sql.query<{ patch: string | null }>('SELECT patch FROM gov_proposals WHERE id = $1', [id])).rows[0]?.patch ?? null;
    },
    async proposals(q) {
      const rows = await sql.query<PRow>(
        `SELECT ${P_COLS} FROM gov_proposals WHERE ($1::text IS NULL OR state = $1) AND ($2::text IS NULL OR kind = $2) ORDER BY created DESC, id LIMIT $3`,
        [q.state ?? null, q.kind ?? null, q.limit],
      );
      return withNets(sql, rows.rows);
    },
    async support(s) {
      const r = await sql.query('INSERT INTO gov_support (proposal, root, net, lvl, weight, created) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING', [
        s.proposal,
        s.root,
        s.net,
        s.lvl,
        s.weight,
        s.created,
      ]);
      return r.count === 1 ? 'new' : 'dup';
    },
    async supports(limit) {
      return (
        await sql.query<SupportRow>('SELECT proposal, root, net, lvl, weight, created FROM gov_support ORDER BY created DESC, proposal, root LIMIT $1', [limit])
      ).rows;
    },
    async decide(id, from, d, task) {
      return sql.tx(async (q): Promise<{ task: number | null } | 'stale'> => {
        const r = await q.query(
          `UPDATE gov_proposals SET state = $3, note = $4, decided_by = $5, decided_at = $6, revisit_at = $7, bounty = $8, updated = $6 WHERE id = $1 AND state = $2`,
          [id, from, d.state, d.note, d.by, d.at, d.revisitAt, d.bounty],
        );
        if (r.count !== 1) return 'stale';
        if (!task) return { task: null };
        const n = (
          await q.query<{ n: number }>("INSERT INTO gov_tasks (proposal, title, state, bounty, created) VALUES ($1, $2, 'open', $3, $4) RETURNING n", [
            id,
            task.title,
            task.bounty,
            d.at,
          ])
        ).rows[0]!.n;
        return { task: n };
      });
    },
    async reopenDue(now) {
      const rows = (
        await sql.query<{ id: string; r: number }>(
          `UPDATE gov_proposals p SET state = 'open', revisit_at = NULL, updated = $1
           FROM (SELECT id, revisit_at AS r FROM gov_proposals WHERE state = 'later' AND revisit_at <= $1 FOR UPDATE) d
           WHERE p.id = d.id AND p.state = 'later' RETURNING p.id, d.r`,
          [now],
        )
      ).rows;
      return rows.sort((a, b) => a.r - b.r || (a.id < b.id ? -1 : 1)).map((x) => x.id);
    },
    async taskDone(n, text, now) {
      return sql.tx(async (q): Promise<{ proposal: string } | 'missing' | 'done'> => {
        const t = (
          await q.query<{ proposal: string }>(
            "UPDATE gov_tasks SET state = 'done', text = $2, done_at = $3 WHERE n = $1 AND state = 'open' RETURNING proposal",
            [n, text, now],
          )
        ).rows[0];
        if (!t) return (await q.query('SELECT 1 FROM gov_tasks WHERE n = $1', [n])).rows.length ? 'done' : 'missing';
        await q.query("UPDATE gov_proposals SET state = 'shipped', updated = $1 WHERE id = $2", [now, t.proposal]);
        return { proposal: t.proposal };
      });
    },
    async tasks(limit) {
      return (
        await sql.query<RoadmapTask>(
          `SELECT n, proposal, title, state, bounty, text, created, done_at AS "doneAt" FROM gov_tasks ORDER BY state = 'done', coalesce(done_at, created) DESC, n DESC LIMIT $1`,
          [limit],
        )
      ).rows;
    },
    async checkQueue(limit) {
      return withNets(
        sql,
        (await sql.query<PRow>(`SELECT ${P_COLS} FROM gov_proposals WHERE check_state = 'requested' ORDER BY check_at, id LIMIT $1`, [limit])).rows,
      );
    },
    async recordCheck(id, status, log, now) {
      return (
        (
          await sql.query(
            "UPDATE gov_proposals SET check_state = $2, check_log = $3, check_at = $4, updated = $4 WHERE id = $1 AND check_state = 'requested'",
            [id, status, log, now],
          )
        ).count === 1
      );
    },
    async fileNotice(n, caps) {
      return sql.tx(async (q) => {
        // The caps hold across replicas: filings of one network or super-group count one at a time
        // (both locks, in one order, so two filings never wait on each other in a circle).
        const keys = [`cx.gov.net.${n.net}`, `cx.gov.sgroup.${n.sgroup}`].sort();
        for (const k of keys) await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [k]);
        const c = (
          await q.query<{ net: number; grp: number }>(
            'SELECT (SELECT count(*) FROM gov_notices WHERE net = $1 AND created >= $3) AS net, (SELECT count(*) FROM gov_notices WHERE sgroup = $2 AND created >= $3) AS grp',
            [n.net, n.sgroup, caps.since],
          )
        ).rows[0]!;
        const state = c.net >= caps.net || c.grp >= caps.group ? 'queued' : n.state;
        return (
          await q.query<Notice>(
            `INSERT INTO gov_notices (id, url, ref, category, reason, email, good_faith, net, sgroup, state, created)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${N_COLS}`,
            [n.id, n.url, n.ref, n.category, n.reason, n.email, n.good_faith, n.net, n.sgroup, state, n.created],
          )
        ).rows[0]!;
      });
    },
    notice: (id) => notice(sql, id),
    async notices(q) {
      return (
        await sql.query<Notice>(`SELECT ${N_COLS} FROM gov_notices WHERE (NOT $1::bool OR decided_at IS NULL) ORDER BY created DESC, id LIMIT $2`, [
          q.open,
          q.limit,
        ])
      ).rows;
    },
    async decideNotice(id, state, note, by, now) {
      const r = (
        await sql.query<Notice>(
          `UPDATE gov_notices SET state = $2, note = $3, decided_by = $4, decided_at = $5 WHERE id = $1 AND decided_at IS NULL RETURNING ${N_COLS}`,
          [id, state, note, by, now],
        )
      ).rows[0];
      if (r) return r;
      return (await notice(sql, id)) ? 'decided' : 'missing';
    },
    async addReport(ref, source, weight, now) {
      await sql.query('INSERT INTO gov_reports (ref, source, weight, created) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [ref, source, weight, now]);
      return reportSum(ref);
    },
    async dropReport(ref, source) {
      await sql.query('DELETE FROM gov_reports WHERE ref = $1 AND source = $2', [ref, source]);
      return reportSum(ref);
    },
    async llmsRevs() {
      return (await sql.query<LlmsRev>('SELECT rev, section, text, proposal, why, created FROM gov_llms_revs ORDER BY rev')).rows;
    },
    async addLlmsRev(r) {
      return sql.tx(async (q) => {
        // Revision numbers only grow: the next one is taken under a lock (replicas adding at once).
        await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.gov.llms_rev'))");
        return (
          await q.query<LlmsRev>(
            `INSERT INTO gov_llms_revs (rev, section, text, proposal, why, created) SELECT coalesce(max(rev), 1) + 1, $1, $2, $3, $4, $5 FROM gov_llms_revs
             RETURNING rev, section, text, proposal, why, created`,
            [r.section, r.text, r.proposal, r.why, r.created],
          )
        ).rows[0]!;
      });
    },
  };
}
