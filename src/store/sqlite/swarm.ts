// SQLite implementation of the swarm port: subscriptions with their cursors (compare-and-set
// moves), the kv: sink, and retention of topic lines. Lines are rows of the bus's `events` table
// (topic `ps:<topic>`): their retention is pruned here per topic with the swarm's own bounds, the
// same way the bus prunes (heads stay, so a seq is never reused).
import type { KvEntry, NewSub, SubCounts, SubRow, SwarmRepo } from '../../core/swarm/ports.js';
import { type Db, LIMIT, polling } from './db.js';

type Row = {
  id: string;
  owner: string;
  topic: string;
  sink: string;
  target: string | null;
  filter: string | null;
  mode: 'each' | 'digest';
  hop_max: number;
  credits_day: number;
  expires: number;
  created: number;
  cursor: number;
  delivered: number;
  filtered: number;
  missed: number;
  dropped: number;
  due: number | null;
  spent_on: number;
  spent: number;
  filter_us: number;
  paused_until: number | null;
  paused_why: string | null;
};
const toSub = (r: Row): SubRow => ({
  id: r.id,
  owner: r.owner,
  topic: r.topic,
  sink: r.sink,
  target: r.target,
  filter: r.filter,
  mode: r.mode,
  hopMax: r.hop_max,
  creditsDay: r.credits_day,
  expires: r.expires,
  created: r.created,
  cursor: r.cursor,
  delivered: r.delivered,
  filtered: r.filtered,
  missed: r.missed,
  dropped: r.dropped,
  due: r.due,
  spentOn: r.spent_on,
  spent: r.spent,
  filterUs: r.filter_us,
  pausedUntil: r.paused_until,
  pausedWhy: r.paused_why,
});

/** Rows deleted per retention statement. */
const PRUNE_BATCH = 1000;

export function sqliteSwarm(db: Db): SwarmRepo {
  const ins = db.prepare(
    `INSERT INTO swarm_subs (id, owner, topic, sink, target, filter, mode, hop_max, credits_day, expires, created, cursor)
     VALUES (@id, @owner, @topic, @sink, @target, @filter, @mode, @hopMax, @creditsDay, @expires, @created, @cursor)`,
  );
  const count = db.prepare('SELECT count(*) AS n FROM swarm_subs WHERE owner = ?');
  const sel = db.prepare('SELECT * FROM swarm_subs WHERE id = ?');
  const byOwner = db.prepare('SELECT * FROM swarm_subs WHERE owner = ? ORDER BY created, id');
  const onTopic = db.prepare('SELECT * FROM swarm_subs WHERE topic = ?');
  const page = db.prepare(`SELECT id, topic, cursor, mode, due FROM swarm_subs WHERE id > ? ORDER BY id ${LIMIT}`);
  const cancel = db.prepare('DELETE FROM swarm_subs WHERE id = ? AND owner = ?');
  const advance = db.prepare(
    `UPDATE swarm_subs SET cursor = @to, delivered = delivered + @delivered, filtered = filtered + @filtered,
       missed = missed + @missed, dropped = dropped + @dropped, filter_us = filter_us + @filterUs WHERE id = @id AND cursor = @from`,
  );
  const kvPut = db.prepare(
    `INSERT INTO swarm_kv (owner, ns, k, value, topic, seq, by, hop, missed, writes, updated)
     VALUES (@owner, @ns, @k, @value, @topic, @seq, @by, @hop, @missed, 1, @updated)
     ON CONFLICT (owner, ns, k) DO UPDATE SET value = excluded.value, topic = excluded.topic, seq = excluded.seq, by = excluded.by,
       hop = excluded.hop, missed = excluded.missed, writes = writes + 1, updated = excluded.updated
     WHERE excluded.seq > swarm_kv.seq OR excluded.topic <> swarm_kv.topic`,
  );
  const kvGet = db.prepare('SELECT owner, ns, k, value, topic, seq, by, hop, missed, writes, updated FROM swarm_kv WHERE owner = ? AND ns = ? AND k = ?');
  const markDue = db.prepare('UPDATE swarm_subs SET due = ? WHERE id = ? AND due IS NULL');
  const selDue = db.prepare(`SELECT id FROM swarm_subs WHERE due IS NOT NULL AND due <= ? ORDER BY due ${LIMIT}`);
  const clearDue = db.prepare('UPDATE swarm_subs SET due = NULL WHERE id = ?');
  const setDue = db.prepare('UPDATE swarm_subs SET due = ? WHERE id = ?');
  const spend = db.prepare(
    `UPDATE swarm_subs SET spent = CASE WHEN spent_on = @day THEN spent + @n ELSE @n END, spent_on = @day
     WHERE id = @id AND (CASE WHEN spent_on = @day THEN spent ELSE 0 END) + @n <= @cap`,
  );
  const pause = db.prepare('UPDATE swarm_subs SET paused_until = ?, paused_why = ? WHERE id = ?');
  const expire = db.prepare('DELETE FROM swarm_subs WHERE expires <= ?');
  const heads = db.prepare("SELECT topic, head FROM event_heads WHERE topic >= 'ps:' AND topic < 'ps;'");
  const selMin = db.prepare('SELECT min(id) AS lo FROM events WHERE topic = ?');
  const selFirstYoung = db.prepare('SELECT id FROM events WHERE topic = ? AND time >= ? ORDER BY id LIMIT 1');
  const del = db.prepare('DELETE FROM events WHERE topic = ? AND id > ? AND id <= ?');

  const zero = (c: SubCounts) => ({
    delivered: c.delivered ?? 0,
    filtered: c.filtered ?? 0,
    missed: c.missed ?? 0,
    dropped: c.dropped ?? 0,
    filterUs: Math.round(c.filterUs ?? 0),
  });
  const createTx = db.transaction((s: NewSub, cap: number): 'ok' | 'full' => {
    if ((count.get(s.owner) as { n: number }).n >= cap) return 'full';
    ins.run(s);
    return 'ok';
  });
  const kvTx = db.transaction((id: string, from: number, to: number, c: SubCounts, e: Omit<KvEntry, 'writes'>): boolean => {
    if (advance.run({ id, from, to, ...zero(c) }).changes !== 1) return false;
    kvPut.run(e);
    return true;
  });
  const takeDueTx = db.transaction((now: number, n: number): string[] => {
    const ids = (selDue.all(now, n) as { id: string }[]).map((r) => r.id);
    for (const id of ids) clearDue.run(id);
    return ids;
  });
  const markDueTx = db.transaction((ids: readonly string[], at: number) => {
    for (const id of ids) markDue.run(at, id);
  });

  return {
    async create(s, cap) {
      return createTx.immediate(s, cap);
    },
    async get(id) {
      const r = sel.get(id) as Row | undefined;
      return r ? toSub(r) : null;
    },
    async byOwner(owner) {
      return (byOwner.all(owner) as Row[]).map(toSub);
    },
    async count(owner) {
      return (count.get(owner) as { n: number }).n;
    },
    async onTopic(topic) {
      return (onTopic.all(topic) as Row[]).map(toSub);
    },
    async page(after, n) {
      return (page.all(after, n) as Array<{ id: string; topic: string; cursor: number; mode: 'each' | 'digest'; due: number | null }>).map((r) => r);
    },
    async cancel(id, owner) {
      return cancel.run(id, owner).changes === 1;
    },
    async advance(id, from, to, c) {
      return advance.run({ id, from, to, ...zero(c) }).changes === 1;
    },
    async kvDeliver(id, from, to, c, e) {
      return kvTx.immediate(id, from, to, c, e);
    },
    async kv(owner, ns, k) {
      return (kvGet.get(owner, ns, k) as KvEntry | undefined) ?? null;
    },
    async markDue(ids, at) {
      if (ids.length) markDueTx(ids, at);
    },
    async takeDue(now, n) {
      return polling(db, () => takeDueTx.immediate(now, n));
    },
    async setDue(id, at) {
      setDue.run(at, id);
    },
    async spend(id, day, n, cap) {
      return spend.run({ id, day, n, cap }).changes === 1;
    },
    async pause(id, until, why) {
      pause.run(until, why, id);
    },
    async expire(now) {
      return expire.run(now).changes;
    },
    async pruneLines(before, keep, stopped = () => false) {
      let n = 0;
      for (const { topic, head } of heads.all() as { topic: string; head: number }[]) {
        if (stopped()) break;
        let lo = (selMin.get(topic) as { lo: number | null }).lo;
        if (lo === null) continue;
        const young = selFirstYoung.get(topic, before) as { id: number } | undefined;
        const bound = Math.max(head - keep, young ? young.id - 1 : head);
        lo -= 1;
        while (lo < bound && !stopped()) {
          const hi = Math.min(bound, lo + PRUNE_BATCH);
          n += del.run(topic, lo, hi).changes;
          lo = hi;
          await new Promise((r) => setImmediate(r));
        }
      }
      return n;
    },
  };
}
