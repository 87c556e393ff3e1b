// The swarm port on PostgreSQL (port: src/core/swarm/ports.ts, migration 014): subscriptions with
// their cursors, the kv: sink, retention of topic lines. A cursor move is one conditional UPDATE
// (cursor = from), so of concurrent deliveries of one line on any replica exactly one moves it; a
// kv: write commits with its move or not at all. Due digests are taken with FOR UPDATE SKIP LOCKED,
// so two replicas' tickers never take the same one. Lines are rows of the bus's `events` table
// (topic `ps:<topic>`), pruned per topic with the swarm's own bounds; heads stay, so a seq is never
// reused.
import type { KvEntry, NewSub, SubCounts, SubRow, SwarmRepo } from '../../core/swarm/ports.js';
import { limit } from '../../core/kernel/limits.js';
import { pruneEvents } from './events.js';
import { notifier } from './notifier.js';
import type { Q, Sql } from './sql.js';

const COLS = `id, owner, topic, sink, target, filter, mode, hop_max AS "hopMax", credits_day AS "creditsDay", expires, created, cursor,
  delivered, filtered, missed, dropped, due, spent_on AS "spentOn", spent, filter_us AS "filterUs", paused_until AS "pausedUntil", paused_why AS "pausedWhy"`;
const KV = 'owner, ns, k, value, topic, seq, by, hop, missed, writes, updated';

const zero = (c: SubCounts) => [c.delivered ?? 0, c.filtered ?? 0, c.missed ?? 0, c.dropped ?? 0, Math.round(c.filterUs ?? 0)];

/** Topics known to have no subscription, kept at most this many. */
const NONE_MAX = 10_000;

export type PgSwarm = SwarmRepo & { start(): Promise<void>; close(): Promise<void> };

export function pgSwarm(sql: Sql, now: () => number = Date.now): PgSwarm {
  // Every publish asks for its topic's subscriptions (core/swarm/deliver.ts afterPublish), and most
  // topics have none: that answer is kept per replica (bench:scale 2026-11-28: one statement of a
  // publish's five). Only a new subscription can make it wrong; its topic is dropped here once the
  // insert commits and on the other replicas when they hear it (notifier.ts, `cx_subs`). A lost
  // notification delays the new subscription's first deliveries by at most db.subs_memo_ttl, until
  // the swarm sweep's reconcile queues it anyway; no line is lost (the cursor holds its place).
  const none = new Map<string, number>();
  let epoch = 0;
  const ttl = limit('db.subs_memo_ttl');
  const drop = (topics: readonly string[] | null) => {
    epoch++;
    if (topics === null) none.clear();
    else for (const t of topics) none.delete(decodeURIComponent(t));
  };
  const note = notifier(sql, 'cx_subs');
  const count = async (q: Q, owner: string) => (await q.query<{ n: number }>('SELECT count(*) AS n FROM swarm_subs WHERE owner = $1', [owner])).rows[0]!.n;
  const advance = async (q: Q, id: string, from: number, to: number, c: SubCounts) =>
    (
      await q.query(
        `UPDATE swarm_subs SET cursor = $3, delivered = delivered + $4, filtered = filtered + $5, missed = missed + $6, dropped = dropped + $7,
           filter_us = filter_us + $8
         WHERE id = $1 AND cursor = $2`,
        [id, from, to, ...zero(c)],
      )
    ).count === 1;
  return {
    async create(s: NewSub, cap) {
      return sql
        .tx(async (q): Promise<'ok' | 'full'> => {
          // The cap is counted under a lock of the owner: concurrent creates on any replica cannot pass it.
          await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.swarm.' || $1))", [s.owner]);
          if ((await count(q, s.owner)) >= cap) return 'full';
          await q.query(
            `INSERT INTO swarm_subs (id, owner, topic, sink, target, filter, mode, hop_max, credits_day, expires, created, cursor)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
            [s.id, s.owner, s.topic, s.sink, s.target, s.filter, s.mode, s.hopMax, s.creditsDay, s.expires, s.created, s.cursor],
          );
          return 'ok';
        })
        .finally(() => {
          // Committed or failed, the topic's kept "none" goes (a failed insert costs one read).
          const key = encodeURIComponent(s.topic);
          drop([key]);
          note.send([key]);
        });
    },
    async get(id) {
      return (await sql.query<SubRow>(`SELECT ${COLS} FROM swarm_subs WHERE id = $1`, [id])).rows[0] ?? null;
    },
    async byOwner(owner) {
      return (await sql.query<SubRow>(`SELECT ${COLS} FROM swarm_subs WHERE owner = $1 ORDER BY created, id`, [owner])).rows;
    },
    count: (owner) => count(sql, owner),
    async onTopic(topic) {
      const t = now();
      const at = none.get(topic);
      if (at !== undefined && t - at < ttl) return [];
      const e = epoch;
      const rows = (await sql.query<SubRow>(`SELECT ${COLS} FROM swarm_subs WHERE topic = $1 ORDER BY created, id`, [topic])).rows;
      // Kept only if no subscription was announced while the read ran (it may predate the insert).
      if (!rows.length && e === epoch) {
        none.delete(topic);
        none.set(topic, t);
        if (none.size > NONE_MAX) none.delete(none.keys().next().value as string);
      } else none.delete(topic);
      return rows;
    },
    async page(after, n) {
      // `>` and ORDER BY use the same collation (the primary key's), so the walk sees every id once.
      return (
        await sql.query<Pick<SubRow, 'id' | 'topic' | 'cursor' | 'mode' | 'due'>>(
          'SELECT id, topic, cursor, mode, due FROM swarm_subs WHERE id > $1 ORDER BY id LIMIT $2',
          [after, n],
        )
      ).rows;
    },
    async cancel(id, owner) {
      return (await sql.query('DELETE FROM swarm_subs WHERE id = $1 AND owner = $2', [id, owner])).count === 1;
    },
    advance: (id, from, to, c) => advance(sql, id, from, to, c),
    async kvDeliver(id, from, to, c, e: Omit<KvEntry, 'writes'>) {
      return sql.tx(async (q) => {
        if (!(await advance(q, id, from, to, c))) return false;
        // Never backwards: an older seq of the same topic leaves the entry as it is.
        await q.query(
          `INSERT INTO swarm_kv AS kv (owner, ns, k, value, topic, seq, by, hop, missed, writes, updated)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10)
           ON CONFLICT (owner, ns, k) DO UPDATE SET value = excluded.value, topic = excluded.topic, seq = excluded.seq, by = excluded.by,
             hop = excluded.hop, missed = excluded.missed, writes = kv.writes + 1, updated = excluded.updated
           WHERE excluded.seq > kv.seq OR excluded.topic <> kv.topic`,
          [e.owner, e.ns, e.k, e.value, e.topic, e.seq, e.by, e.hop, e.missed, e.updated],
        );
        return true;
      });
    },
    async kv(owner, ns, k) {
      return (await sql.query<KvEntry>(`SELECT ${KV} FROM swarm_kv WHERE owner = $1 AND ns = $2 AND k = $3`, [owner, ns, k])).rows[0] ?? null;
    },
    async markDue(ids, at) {
      if (ids.length) await sql.query('UPDATE swarm_subs SET due = $1 WHERE id = ANY($2::text[]) AND due IS NULL', [at, ids]);
    },
    async takeDue(now, n) {
      const rows = (
        await sql.query<{ id: string }>(
          `WITH picked AS (SELECT id, due FROM swarm_subs WHERE due IS NOT NULL AND due <= $1 ORDER BY due, id LIMIT $2 FOR UPDATE SKIP LOCKED),
                done AS (UPDATE swarm_subs s SET due = NULL FROM picked WHERE s.id = picked.id RETURNING s.id, picked.due)
           SELECT id FROM done ORDER BY due, id`,
          [now, n],
        )
      ).rows;
      return rows.map((r) => r.id);
    },
    async setDue(id, at) {
      await sql.query('UPDATE swarm_subs SET due = $1 WHERE id = $2', [at, id]);
    },
    async spend(id, day, n, cap) {
      return (
        (
          await sql.query(
            `UPDATE swarm_subs SET spent = CASE WHEN spent_on = $2 THEN spent + $3 ELSE $3 END, spent_on = $2
           WHERE id = $1 AND (CASE WHEN spent_on = $2 THEN spent ELSE 0 END) + $3 <= $4`,
            [id, day, n, cap],
          )
        ).count === 1
      );
    },
    async pause(id, until, why) {
      await sql.query('UPDATE swarm_subs SET paused_until = $1, paused_why = $2 WHERE id = $3', [until, why, id]);
    },
    async expire(now) {
      return (await sql.query('DELETE FROM swarm_subs WHERE expires <= $1', [now])).count;
    },
    // Lines are the bus's events of topics `ps:<topic>` (src/core/swarm/lines.ts).
    pruneLines: (before, keep, stopped) => pruneEvents(sql, 'ps:', before, keep, stopped),
    /** LISTENs for the other replicas' new subscriptions (store open). */
    start: () => note.start(drop),
    close: () => note.close(),
  };
}
