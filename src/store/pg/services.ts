// Services on PostgreSQL (port ServiceRepo, src/core/compute/ports.ts; migration 016), as the
// SQLite adapter (src/store/sqlite/services.ts) keeps them. A publication is one transaction that
// locks its name row (created first if absent, ON CONFLICT DO NOTHING), so concurrent first
// publications of a name on any replica give it one owner and one stable version; a settle, an ok
// report and a call record are each one conditional statement.
import type { CallRecord, ServiceRepo, SvcName, SvcOk, SvcVersion } from '../../core/compute/ports.js';
import type { Sql } from './sql.js';

const VER_COLS = 'name, ver, wasm, manifest, publisher, state, kats, log, created, checked';
const NAME_COLS = 'name, owner, stable, created';
const OK_COLS = 'name, ver, "by" AS by, pub, sig, note, at';
const CALL_COLS = 'id, name, ver, caller, in_hash, status, code, detail, output, out_hash, ms, charged, donor, created';

export function pgServices(sql: Sql): ServiceRepo {
  return {
    async publish(v, owner, stable) {
      return sql.tx(async (q): Promise<'ok' | 'dup' | 'taken'> => {
        await q.query('INSERT INTO svc_names (name, owner, stable, created) VALUES ($1, $2, NULL, $3) ON CONFLICT (name) DO NOTHING', [
          v.name,
          owner,
          v.created,
        ]);
        // The row lock orders publishers of one name: the second reads the first's committed row.
        const n = (await q.query<SvcName>(`SELECT ${NAME_COLS} FROM svc_names WHERE name = $1 FOR UPDATE`, [v.name])).rows[0]!;
        if (n.owner !== owner) return 'taken';
        const ins = await q.query(
          `INSERT INTO svc_versions (name, ver, wasm, manifest, publisher, state, kats, log, created, checked)
           VALUES ($1, $2, $3, $4::jsonb, $5, 'pending', $6, NULL, $7, NULL) ON CONFLICT (name, ver) DO NOTHING`,
          [v.name, v.ver, v.wasm, JSON.stringify(v.manifest), v.publisher, v.kats, v.created],
        );
        if (ins.count !== 1) return 'dup';
        if (stable === 'always' || (stable === 'first' && n.stable === null))
          await q.query('UPDATE svc_names SET stable = $2 WHERE name = $1', [v.name, v.ver]);
        return 'ok';
      });
    },
    async name(name) {
      return (await sql.query<SvcName>(`SELECT ${NAME_COLS} FROM svc_names WHERE name = $1`, [name])).rows[0] ?? null;
    },
    async version(name, ver) {
      return (await sql.query<SvcVersion>(`SELECT ${VER_COLS} FROM svc_versions WHERE name = $1 AND ver = $2`, [name, ver])).rows[0] ?? null;
    },
    async versions(name, n) {
      return (await sql.query<SvcVersion>(`SELECT ${VER_COLS} FROM svc_versions WHERE name = $1 ORDER BY ver DESC LIMIT $2`, [name, n])).rows;
    },
    async list(after, n) {
      return (await sql.query<SvcName>(`SELECT ${NAME_COLS} FROM svc_names WHERE name > $1 ORDER BY name LIMIT $2`, [after, n])).rows;
    },
    async settle(name, ver, state, log, at) {
      return (
        (
          await sql.query("UPDATE svc_versions SET state = $3, log = $4, checked = $5 WHERE name = $1 AND ver = $2 AND state = 'pending'", [
            name,
            ver,
            state,
            log,
            at,
          ])
        ).count === 1
      );
    },
    async setStable(name, ver) {
      // One statement: the version must exist when the name takes it.
      return (
        (
          await sql.query('UPDATE svc_names n SET stable = $2 WHERE n.name = $1 AND EXISTS (SELECT 1 FROM svc_versions v WHERE v.name = $1 AND v.ver = $2)', [
            name,
            ver,
          ])
        ).count === 1
      );
    },
    async addOk(ok: SvcOk) {
      return (
        (
          await sql.query('INSERT INTO svc_oks (name, ver, "by", pub, sig, note, at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING', [
            ok.name,
            ok.ver,
            ok.by,
            ok.pub,
            ok.sig,
            ok.note,
            ok.at,
          ])
        ).count === 1
      );
    },
    async oks(name, ver, n) {
      return (await sql.query<SvcOk>(`SELECT ${OK_COLS} FROM svc_oks WHERE name = $1 AND ver = $2 ORDER BY at, "by" LIMIT $3`, [name, ver, n])).rows;
    },
    async okCount(name, ver) {
      return (await sql.query<{ n: number }>('SELECT count(*) AS n FROM svc_oks WHERE name = $1 AND ver = $2', [name, ver])).rows[0]!.n;
    },
    async putCall(c: CallRecord) {
      await sql.query(`INSERT INTO svc_calls (${CALL_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`, [
        c.id,
        c.name,
        c.ver,
        c.caller,
        c.in_hash,
        c.status,
        c.code,
        c.detail,
        c.output,
        c.out_hash,
        c.ms,
        c.charged,
        c.donor,
        c.created,
      ]);
    },
    async call(id) {
      return (await sql.query<CallRecord>(`SELECT ${CALL_COLS} FROM svc_calls WHERE id = $1`, [id])).rows[0] ?? null;
    },
    async purgeCalls(before) {
      return (await sql.query('DELETE FROM svc_calls WHERE created < $1', [before])).count;
    },
  };
}
