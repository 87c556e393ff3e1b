// Checkpoints on PostgreSQL (port: src/core/checkpoints/ports.ts), tables of migration 006 (its
// 0/1 flags are INTEGER, read here as booleans). A save runs under an advisory lock of the owner:
// the live cap and the next seq of a name are read and written by one save at a time on any
// replica, so concurrent saves get consecutive seqs and never pass the cap. A read of a published
// checkpoint locks its row (FOR UPDATE): the reader-network cap counts one reader at a time.
import type { CheckpointMeta, CheckpointRepo, CheckpointRow, ReadVerdict } from '../../core/checkpoints/ports.js';
import type { Identity } from '../../core/platform/identity/ports.js';
import type { Sql } from './sql.js';

interface Row extends Omit<CheckpointRow, 'published' | 'lost' | 'hidden'> {
  published: number;
  lost: number;
  hidden: number;
}
const toCp = (r: Row): CheckpointRow => ({
  rid: r.rid,
  id: r.id,
  owner: r.owner,
  name: r.name,
  seq: r.seq,
  body: r.body,
  size: r.size,
  created: r.created,
  exp: r.exp,
  published: r.published === 1,
  lost: r.lost === 1,
  hidden: r.hidden === 1,
});
const META = 'rid, id, owner, name, seq, size, created, exp, published, lost, hidden';
const COLS = `${META}, body`;
const toMeta = (r: Omit<Row, 'body'>): CheckpointMeta => ({
  rid: r.rid,
  id: r.id,
  owner: r.owner,
  name: r.name,
  seq: r.seq,
  size: r.size,
  created: r.created,
  exp: r.exp,
  published: r.published === 1,
  lost: r.lost === 1,
  hidden: r.hidden === 1,
});

export function pgCheckpoints(sql: Sql): CheckpointRepo {
  return {
    async save(row, now, max, keep) {
      return sql.tx(async (q): Promise<CheckpointRow | 'full' | 'taken'> => {
        await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.cp.' || $1))", [row.owner]);
        const live = (await q.query<{ n: number }>('SELECT count(*) AS n FROM checkpoints WHERE owner = $1 AND exp > $2', [row.owner, now])).rows[0]!.n;
        if (live >= max) return 'full';
        const r = (
          await q.query<Row>(
            `INSERT INTO checkpoints (id, owner, name, seq, body, size, created, exp)
             SELECT $1, $2, $3, coalesce(max(seq), 0) + 1, $4, $5, $6, $7 FROM checkpoints WHERE owner = $2 AND name = $3
             ON CONFLICT (id) DO NOTHING RETURNING ${COLS}`,
            [row.id, row.owner, row.name, row.body, row.size, row.created, row.exp],
          )
        ).rows[0];
        if (!r) return 'taken';
        // Keep the newest `keep` saves of a name; older ones (and their reader records) go.
        await q.query('DELETE FROM checkpoints WHERE owner = $1 AND name = $2 AND seq <= $3', [row.owner, row.name, r.seq - keep]);
        return toCp(r);
      });
    },
    async own(id, owner, now) {
      const r = (await sql.query<Row>(`SELECT ${COLS} FROM checkpoints WHERE id = $1 AND owner = $2 AND exp > $3`, [id, owner, now])).rows[0];
      return r ? toCp(r) : null;
    },
    async published(id, now) {
      const r = (
        await sql.query<Row & { i_name: string | null; i_created: number; i_rep: number; i_confirmed: number; i_frozen: boolean }>(
          `SELECT c.rid, c.id, c.owner, c.name, c.seq, c.size, c.created, c.exp, c.published, c.lost, c.hidden, c.body,
             i.name AS i_name, i.created AS i_created, i.rep AS i_rep, i.confirmed AS i_confirmed, i.frozen AS i_frozen
           FROM checkpoints c JOIN identities i ON i.id = c.owner
           WHERE c.id = $1 AND c.published = 1 AND c.hidden = 0 AND c.exp > $2`,
          [id, now],
        )
      ).rows[0];
      if (!r) return null;
      const owner: Identity = { id: r.owner, name: r.i_name, created: r.i_created, rep: r.i_rep, confirmed: r.i_confirmed, frozen: r.i_frozen };
      return { cp: toCp(r), owner };
    },
    async read(rid, net, cap) {
      return sql.tx(async (q): Promise<ReadVerdict> => {
        const p = (await q.query<{ published: number }>('SELECT published FROM checkpoints WHERE rid = $1 FOR UPDATE', [rid])).rows[0];
        if (!p || p.published !== 1) return 'gone';
        // L2+ owners keep publication whoever reads: nothing to count.
        if (cap === null) return 'ok';
        if ((await q.query('SELECT 1 FROM cp_readers WHERE cp = $1 AND net = $2', [rid, net])).rows.length) return 'ok';
        // Below L2: the first `cap` distinct networks read; the next one ends the publication.
        const n = (await q.query<{ n: number }>('SELECT count(*) AS n FROM cp_readers WHERE cp = $1', [rid])).rows[0]!.n;
        if (n >= cap) {
          await q.query('UPDATE checkpoints SET published = 0, lost = 1 WHERE rid = $1', [rid]);
          return 'over';
        }
        await q.query('INSERT INTO cp_readers (cp, net) VALUES ($1, $2) ON CONFLICT DO NOTHING', [rid, net]);
        return 'ok';
      });
    },
    async readers(rid) {
      return (await sql.query<{ n: number }>('SELECT count(*) AS n FROM cp_readers WHERE cp = $1', [rid])).rows[0]!.n;
    },
    async setPublished(id, owner, on, now) {
      const r = (
        await sql.query<Omit<Row, 'body'>>(
          `UPDATE checkpoints SET published = $3 WHERE id = $1 AND owner = $2 AND exp > $4 AND ($3 = 0 OR lost = 0) RETURNING ${META}`,
          [id, owner, on ? 1 : 0, now],
        )
      ).rows[0];
      return r ? toMeta(r) : null;
    },
    async list(owner, name, before, n, now) {
      const rows = (
        await sql.query<Omit<Row, 'body'>>(
          `SELECT ${META} FROM checkpoints WHERE owner = $1 AND exp > $2 AND rid < $3 AND ($4::text IS NULL OR name = $4) ORDER BY rid DESC LIMIT $5`,
          [owner, now, before ?? Number.MAX_SAFE_INTEGER, name, n],
        )
      ).rows;
      return rows.map(toMeta);
    },
    async remove(id, owner) {
      return (await sql.query('DELETE FROM checkpoints WHERE id = $1 AND owner = $2', [id, owner])).count === 1;
    },
    async purgeExpired(now) {
      return (await sql.query('DELETE FROM checkpoints WHERE exp <= $1', [now])).count;
    },
  };
}
