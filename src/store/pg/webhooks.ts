// Inbound webhook endpoints on PostgreSQL (port: src/core/webhooks/ports.ts, migration 015): the
// endpoints (secrets sealed by the core) and the delivery keys that serve both replay detection and
// the per-endpoint rate counts. A claim locks the endpoint's row (FOR UPDATE) and decides under it,
// so of concurrent deliveries on any replica one at a time is counted: a key is claimed once and
// the minute and day counts hold.
import type { Claim, NewWebhook, WebhookRepo, WebhookRow } from '../../core/webhooks/ports.js';
import type { Sql } from './sql.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const COLS = 'id, owner, provider, topic, events, nonce, ct, created, last, ok, dropped';

export function pgWebhooks(sql: Sql): WebhookRepo {
  const count = async (q: Pick<Sql, 'query'>, owner: string) =>
    (await q.query<{ n: number }>('SELECT count(*) AS n FROM webhooks WHERE owner = $1', [owner])).rows[0]!.n;
  const drop = (q: Pick<Sql, 'query'>, id: string, now: number) => q.query('UPDATE webhooks SET dropped = dropped + 1, last = $2 WHERE id = $1', [id, now]);
  return {
    async insert(row: NewWebhook, max) {
      return sql.tx(async (q): Promise<WebhookRow | 'full' | 'taken'> => {
        await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.webhooks.' || $1))", [row.owner]);
        if ((await count(q, row.owner)) >= max) return 'full';
        const r = (
          await q.query<WebhookRow>(
            `INSERT INTO webhooks (id, owner, provider, topic, events, nonce, ct, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING RETURNING ${COLS}`,
            [row.id, row.owner, row.provider, row.topic, row.events, row.nonce, row.ct, row.created],
          )
        ).rows[0];
        return r ?? 'taken';
      });
    },
    async get(id) {
      return (await sql.query<WebhookRow>(`SELECT ${COLS} FROM webhooks WHERE id = $1`, [id])).rows[0] ?? null;
    },
    async list(owner) {
      return (await sql.query<WebhookRow>(`SELECT ${COLS} FROM webhooks WHERE owner = $1 ORDER BY created, id`, [owner])).rows;
    },
    count: (owner) => count(sql, owner),
    async remove(id, owner) {
      // Its delivery keys go with it (ON DELETE CASCADE).
      return (await sql.query('DELETE FROM webhooks WHERE id = $1 AND owner = $2', [id, owner])).count === 1;
    },
    async claim(id, key, now, rule) {
      return sql.tx(async (q): Promise<Claim> => {
        if (!(await q.query('SELECT 1 FROM webhooks WHERE id = $1 FOR UPDATE', [id])).rows.length) return 'gone';
        const keepMs = Math.max(rule.keepMs, DAY);
        // Keys past their keeping time are forgotten here too, so the counts below see only the window.
        await q.query('DELETE FROM webhook_deliveries WHERE hook = $1 AND at <= $2', [id, now - keepMs]);
        const at = (await q.query<{ at: number }>('SELECT at FROM webhook_deliveries WHERE hook = $1 AND key = $2', [id, key])).rows[0];
        if (at && at.at > now - rule.keepMs) {
          await drop(q, id, now);
          return 'replay';
        }
        const c = (
          await q.query<{ m: number; d: number }>(
            'SELECT count(*) FILTER (WHERE at > $2) AS m, count(*) FILTER (WHERE at > $3) AS d FROM webhook_deliveries WHERE hook = $1',
            [id, now - MINUTE, now - DAY],
          )
        ).rows[0]!;
        if (c.m >= rule.perMin || c.d >= rule.perDay) {
          await drop(q, id, now);
          return 'rate';
        }
        await q.query('INSERT INTO webhook_deliveries (hook, key, at) VALUES ($1, $2, $3) ON CONFLICT (hook, key) DO UPDATE SET at = excluded.at', [
          id,
          key,
          now,
        ]);
        return 'ok';
      });
    },
    async release(id, key) {
      await sql.query('DELETE FROM webhook_deliveries WHERE hook = $1 AND key = $2', [id, key]);
    },
    async tally(id, outcome, now) {
      if (outcome === 'ok') await sql.query('UPDATE webhooks SET ok = ok + 1, last = $2 WHERE id = $1', [id, now]);
      else await drop(sql, id, now);
    },
    async purge(before) {
      return (await sql.query('DELETE FROM webhook_deliveries WHERE at < $1', [before])).count;
    },
  };
}
