// Anchors on PostgreSQL (port: src/core/anchors/ports.ts), table of migration 006. A claim counts
// the key's and the owner's live claims under advisory locks of the key, then of the owner (always
// in that order, so two claims never wait on each other in a cycle): the caps hold across replicas.
import type { AnchorClaim, AnchorRepo } from '../../core/anchors/ports.js';
import type { Identity } from '../../core/platform/identity/ports.js';
import type { Q, Sql } from './sql.js';

const COLS = 'key, owner, note, cp, created, updated, exp';

export function pgAnchors(sql: Sql): AnchorRepo {
  const n = async (q: Q, text: string, params: unknown[]) => (await q.query<{ n: number }>(text, params)).rows[0]!.n;
  return {
    async claim(c, now, perKey, perOwner) {
      return sql.tx(async (q) => {
        await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.anchor.key.' || $1))", [c.key]);
        await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.anchor.owner.' || $1))", [c.owner]);
        const renewed = (await q.query('SELECT 1 FROM anchors WHERE key = $1 AND owner = $2 AND exp > $3', [c.key, c.owner, now])).rows.length > 0;
        if (!renewed) {
          if ((await n(q, 'SELECT count(*) AS n FROM anchors WHERE key = $1 AND exp > $2', [c.key, now])) >= perKey) return 'full' as const;
          if ((await n(q, 'SELECT count(*) AS n FROM anchors WHERE owner = $1 AND exp > $2', [c.owner, now])) >= perOwner) return 'mine_full' as const;
        }
        // An expired claim of the same (key, owner) is simply replaced.
        await q.query(
          `INSERT INTO anchors AS a (key, owner, note, cp, created, updated, exp) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (key, owner) DO UPDATE SET note = excluded.note, cp = excluded.cp, updated = excluded.updated, exp = excluded.exp,
             created = CASE WHEN a.exp > $8 THEN a.created ELSE excluded.created END`,
          [c.key, c.owner, c.note, c.cp, c.created, c.updated, c.exp, now],
        );
        return { claimants: await n(q, 'SELECT count(*) AS n FROM anchors WHERE key = $1 AND exp > $2', [c.key, now]), renewed };
      });
    },
    async claimants(key, now) {
      const rows = (
        await sql.query<AnchorClaim & { i_name: string | null; i_created: number; i_rep: number; i_confirmed: number }>(
          `SELECT a.key, a.owner, a.note, a.cp, a.created, a.updated, a.exp, i.name AS i_name, i.created AS i_created, i.rep AS i_rep, i.confirmed AS i_confirmed
           FROM anchors a JOIN identities i ON i.id = a.owner
           WHERE a.key = $1 AND a.exp > $2 AND NOT i.frozen ORDER BY a.created, a.owner`,
          [key, now],
        )
      ).rows;
      return rows.map((r) => {
        const who: Identity = { id: r.owner, name: r.i_name, created: r.i_created, rep: r.i_rep, confirmed: r.i_confirmed, frozen: false };
        return { claim: { key: r.key, owner: r.owner, note: r.note, cp: r.cp, created: r.created, updated: r.updated, exp: r.exp }, who };
      });
    },
    async unclaim(key, owner, now) {
      return (await sql.query('DELETE FROM anchors WHERE key = $1 AND owner = $2 AND exp > $3', [key, owner, now])).count === 1;
    },
    async mine(owner, now, limit) {
      return (await sql.query<AnchorClaim>(`SELECT ${COLS} FROM anchors WHERE owner = $1 AND exp > $2 ORDER BY updated DESC LIMIT $3`, [owner, now, limit]))
        .rows;
    },
    async purgeExpired(now) {
      return (await sql.query('DELETE FROM anchors WHERE exp <= $1', [now])).count;
    },
  };
}
