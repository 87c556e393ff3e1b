// Cached results on PostgreSQL (port: src/core/cache/ports.ts), tables of migration 006. A put
// takes advisory locks of the (ns, key), then of the producer (always in that order, so two puts
// never wait on each other in a cycle): of concurrent puts of one key on any replica exactly one
// creates the row, and the producer's live cap holds. A read locks the row (FOR UPDATE): hits are
// counted one at a time and the first `cap` reader networks are the ones admitted.
import type { CacheRepo, CacheRow, NewCacheRow, ReadGate } from '../../core/cache/ports.js';
import type { Identity } from '../../core/platform/identity/ports.js';
import type { Sql } from './sql.js';

interface Row extends Omit<CacheRow, 'to' | 'hidden'> {
  to_id: string | null;
  hidden: number;
}
const COLS = 'rid, ns, key, producer, kind, text, blob, size, to_id, hits, created, exp, hidden';
const toRow = (r: Row): CacheRow => ({
  rid: r.rid,
  ns: r.ns,
  key: r.key,
  producer: r.producer,
  kind: r.kind,
  text: r.text,
  blob: r.blob,
  size: r.size,
  to: r.to_id,
  hits: r.hits,
  created: r.created,
  exp: r.exp,
  hidden: r.hidden === 1,
});

export function pgCache(sql: Sql): CacheRepo {
  return {
    async put(row: NewCacheRow, now, max) {
      return sql.tx(async (q) => {
        await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.cache.key.' || $1 || '/' || $2))", [row.ns, row.key]);
        await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.cache.producer.' || $1))", [row.producer]);
        const c = (
          await q.query<{ rid: number; producer: string; exp: number }>('SELECT rid, producer, exp FROM cache WHERE ns = $1 AND key = $2', [row.ns, row.key])
        ).rows[0];
        if (c && c.exp > now && c.producer !== row.producer) return 'held' as const;
        const v = [row.kind, row.text, row.blob, row.size, row.to, row.created, row.exp];
        // The producer's own row is replaced in place: its hit count and reader networks stay.
        if (c && c.exp > now) {
          const r = (
            await q.query<Row>(
              `UPDATE cache SET kind = $2, text = $3, blob = $4, size = $5, to_id = $6, created = $7, exp = $8 WHERE rid = $1 RETURNING ${COLS}`,
              [c.rid, ...v],
            )
          ).rows[0]!;
          return { row: toRow(r), created: false };
        }
        if ((await q.query<{ n: number }>('SELECT count(*) AS n FROM cache WHERE producer = $1 AND exp > $2', [row.producer, now])).rows[0]!.n >= max)
          return 'full' as const;
        // Expired: anyone may take the key over, with fresh counters.
        if (c) await q.query('DELETE FROM cache WHERE rid = $1', [c.rid]);
        const r = (
          await q.query<Row>(
            `INSERT INTO cache (ns, key, producer, kind, text, blob, size, to_id, created, exp) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLS}`,
            [row.ns, row.key, row.producer, ...v],
          )
        ).rows[0]!;
        return { row: toRow(r), created: true };
      });
    },
    async get(ns, key, now) {
      const r = (
        await sql.query<Row & { i_name: string | null; i_created: number; i_rep: number; i_confirmed: number; i_frozen: boolean }>(
          `SELECT c.rid, c.ns, c.key, c.producer, c.kind, c.text, c.blob, c.size, c.to_id, c.hits, c.created, c.exp, c.hidden,
             i.name AS i_name, i.created AS i_created, i.rep AS i_rep, i.confirmed AS i_confirmed, i.frozen AS i_frozen
           FROM cache c JOIN identities i ON i.id = c.producer
           WHERE c.ns = $1 AND c.key = $2 AND c.exp > $3 AND c.hidden = 0`,
          [ns, key, now],
        )
      ).rows[0];
      if (!r) return null;
      const producer: Identity = { id: r.producer, name: r.i_name, created: r.i_created, rep: r.i_rep, confirmed: r.i_confirmed, frozen: r.i_frozen };
      return { row: toRow(r), producer };
    },
    async read(rid, net, cap, enforce) {
      return sql.tx(async (q): Promise<{ gate: ReadGate; hits: number }> => {
        const cur = (await q.query<{ hits: number }>('SELECT hits FROM cache WHERE rid = $1 FOR UPDATE', [rid])).rows[0];
        if (!cur) return { gate: 'gone', hits: 0 };
        // Reader networks: only the first `cap` distinct ones are kept (that is all the rule needs).
        if (net !== null && !(await q.query('SELECT 1 FROM cache_nets WHERE rid = $1 AND net = $2', [rid, net])).rows.length) {
          if ((await q.query<{ n: number }>('SELECT count(*) AS n FROM cache_nets WHERE rid = $1', [rid])).rows[0]!.n < cap)
            await q.query('INSERT INTO cache_nets (rid, net) VALUES ($1, $2) ON CONFLICT DO NOTHING', [rid, net]);
          else if (enforce) return { gate: 'token', hits: cur.hits };
        }
        const hits = (await q.query<{ hits: number }>('UPDATE cache SET hits = hits + 1 WHERE rid = $1 RETURNING hits', [rid])).rows[0]!.hits;
        return { gate: 'ok', hits };
      });
    },
    async remove(ns, key, producer, now) {
      return (await sql.query('DELETE FROM cache WHERE ns = $1 AND key = $2 AND producer = $3 AND exp > $4', [ns, key, producer, now])).count === 1;
    },
    async purgeExpired(now) {
      return (await sql.query('DELETE FROM cache WHERE exp <= $1', [now])).count;
    },
  };
}
