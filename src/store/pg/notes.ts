// Private notes on PostgreSQL (port: src/core/notes/ports.ts). Every statement is scoped by owner.
// The per-owner cap is counted under an advisory lock of the owner (taken in the inserting
// transaction), so concurrent inserts on any replica cannot pass it.
import type { NoteRepo, NoteRow } from '../../core/notes/ports.js';
import type { Sql } from './sql.js';

const COLS = 'rid, id, owner, nonce, ct, size, created, updated';

export function pgNotes(sql: Sql): NoteRepo {
  const count = async (q: Pick<Sql, 'query'>, owner: string) =>
    (await q.query<{ n: number }>('SELECT count(*) AS n FROM notes WHERE owner = $1', [owner])).rows[0]!.n;
  return {
    async insert(row, max) {
      return sql.tx(async (q): Promise<NoteRow | 'full' | 'taken'> => {
        await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.notes.' || $1))", [row.owner]);
        if ((await count(q, row.owner)) >= max) return 'full';
        const r = await q.query<NoteRow>(
          `INSERT INTO notes (id, owner, nonce, ct, size, created, updated) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING RETURNING ${COLS}`,
          [row.id, row.owner, row.nonce, row.ct, row.size, row.created, row.updated],
        );
        return r.rows[0] ?? 'taken';
      });
    },
    async get(id, owner) {
      return (await sql.query<NoteRow>(`SELECT ${COLS} FROM notes WHERE id = $1 AND owner = $2`, [id, owner])).rows[0] ?? null;
    },
    async update(id, owner, p) {
      return (
        (
          await sql.query('UPDATE notes SET nonce = $3, ct = $4, size = $5, updated = $6 WHERE id = $1 AND owner = $2', [
            id,
            owner,
            p.nonce,
            p.ct,
            p.size,
            p.updated,
          ])
        ).count === 1
      );
    },
    async list(owner, before, n) {
      return (
        await sql.query<NoteRow>(`SELECT ${COLS} FROM notes WHERE owner = $1 AND rid < $2 ORDER BY rid DESC LIMIT $3`, [
          owner,
          before ?? Number.MAX_SAFE_INTEGER,
          n,
        ])
      ).rows;
    },
    count: (owner) => count(sql, owner),
    async remove(id, owner) {
      return (await sql.query('DELETE FROM notes WHERE id = $1 AND owner = $2', [id, owner])).count === 1;
    },
  };
}
