// Leadership on PostgreSQL (port: src/core/platform/leader/ports.ts): a session-level advisory lock per name,
// held on a connection of its own (Sql.dedicated). The server releases a session's locks when the
// session ends, so a replica that dies (kill -9, lost network) lets go and another's next `hold`
// takes over. Locks are database-wide: the key names the schema, so stores on different schemas
// (the contract tests) do not contend. A held name is re-checked with a round trip on each `hold`
// (callers try every few seconds), so a connection that died unnoticed is not taken for leadership.
// PGlite is one session in one process: its locks are re-entrant, so the held set below is what
// keeps one lock per name (and there, as on SQLite, this process always leads).
import type { LeaderRepo } from '../../core/platform/leader/ports.js';
import type { Dedicated, Sql } from './sql.js';

export interface PgLeader extends LeaderRepo {
  close(): Promise<void>;
}

export function pgLeader(sql: Sql, schema: string): PgLeader {
  let conn: Promise<Dedicated> | null = null;
  const held = new Set<string>();
  let closed = false;
  const key = (name: string) => `cx.leader:${schema}:${name}`;
  const connect = (): Promise<Dedicated> => {
    if (!conn) {
      const c = sql.dedicated(() => {
        // The session is gone, and its locks with it.
        if (conn === c) conn = null;
        held.clear();
      });
      c.catch(() => {
        if (conn === c) conn = null;
      });
      conn = c;
    }
    return conn;
  };
  const drop = async () => {
    const c = conn;
    conn = null;
    held.clear();
    await (await c?.catch(() => null))?.close();
  };
  return {
    async hold(name) {
      if (closed) return false;
      try {
        const c = await connect();
        if (held.has(name)) {
          await c.query('SELECT 1');
          return held.has(name);
        }
        const ok = (await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [key(name)])).rows[0]?.ok === true;
        if (ok) held.add(name);
        return ok;
      } catch {
        // Not reachable now: not the leader; the next try reconnects.
        await drop();
        return false;
      }
    },
    async release(name) {
      if (!held.delete(name) || !conn) return;
      const c = await conn.catch(() => null);
      await c?.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key(name)]).catch(() => undefined);
    },
    async close() {
      closed = true;
      for (const name of [...held]) await this.release(name);
      await drop();
    },
  };
}
