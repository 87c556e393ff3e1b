// Operator control state on PostgreSQL (port: src/core/platform/control/ports.ts), shared by the replicas.
// Each write is one statement or one transaction; a freeze's `was it frozen` is decided under the
// row's lock (the upsert's), so concurrent writers never lose each other's freezes.
import type { ControlRepo, FreezeRow, MaintenanceRow, ShedRow } from '../../core/platform/control/ports.js';
import type { Sql } from './sql.js';

export function pgControl(sql: Sql): ControlRepo {
  return {
    async read(now) {
      // REPEATABLE READ: the three reads see one snapshot.
      return sql.tx(async (q) => {
        await q.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        const freezes = (await q.query<FreezeRow>('SELECT kind, actor AS "by", note, since FROM control_freezes ORDER BY kind')).rows;
        const shed = (await q.query<ShedRow>('SELECT level, reason, actor AS "by", since FROM control_shed WHERE one = 1')).rows[0] ?? null;
        const maintenance = (
          await q.query<MaintenanceRow>('SELECT id, starts, ends, text, actor AS "by" FROM control_maintenance WHERE ends > $1 ORDER BY starts, id', [now])
        ).rows;
        return { freezes, shed, maintenance };
      });
    },
    async setFreeze(kind, on, by, note, now) {
      if (!on) return (await sql.query('DELETE FROM control_freezes WHERE kind = $1', [kind])).count === 1;
      // xmax = 0 only on a row this statement inserted: the frozen set changed.
      const r = await sql.query<{ fresh: boolean }>(
        `INSERT INTO control_freezes (kind, actor, note, since) VALUES ($1, $2, $3, $4)
         ON CONFLICT (kind) DO UPDATE SET actor = excluded.actor, note = excluded.note
         RETURNING (xmax = 0) AS fresh`,
        [kind, by, note, now],
      );
      return r.rows[0]!.fresh;
    },
    async setShed(level, reason, by, now) {
      if (level === 0) await sql.query('DELETE FROM control_shed');
      else
        await sql.query(
          `INSERT INTO control_shed (one, level, reason, actor, since) VALUES (1, $1, $2, $3, $4)
           ON CONFLICT (one) DO UPDATE SET level = excluded.level, reason = excluded.reason, actor = excluded.actor, since = excluded.since`,
          [level, reason, by, now],
        );
    },
    async addMaintenance(w, now) {
      return sql.tx(async (q) => {
        await q.query('DELETE FROM control_maintenance WHERE ends <= $1', [now]);
        const id = (
          await q.query<{ id: number }>('INSERT INTO control_maintenance (starts, ends, text, actor) VALUES ($1, $2, $3, $4) RETURNING id', [
            w.starts,
            w.ends,
            w.text,
            w.by,
          ])
        ).rows[0]!.id;
        return { id, ...w };
      });
    },
    async clearMaintenance(id) {
      return (id === undefined ? await sql.query('DELETE FROM control_maintenance') : await sql.query('DELETE FROM control_maintenance WHERE id = $1', [id]))
        .count;
    },
  };
}
