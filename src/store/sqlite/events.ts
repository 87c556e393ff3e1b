// SQLite implementation of the event bus: an outbox table written in the same transaction as the
// change that caused it, fanned out in process after the commit.
//
// How a write publishes: a repository calls `append(drafts)` inside its own `db.transaction` (the
// per-topic head row hands out the ids there, so a rollback leaves no event and no gap) and
// `flush()` once the transaction has ended (`events.after(() => tx(...))`). `flush` does not
// deliver what the write appended: it reads the committed rows of the touched topics after the last
// id it delivered, so an event whose transaction rolled back is never seen, and the live feed is in
// commit order per topic. Subscribers (src/core/platform/events/subscription.ts) treat that feed as a
// shortcut and read anything they missed back from the table by id. Events another process writes
// to the same file (a tool) are readable at once and reach this process's live subscribers with
// its next write of that topic (a subscriber fills the gap by id); today one process serves a file.
//
// PostgreSQL later, with no change to domain code: the same outbox (heads bumped with
// `UPDATE ... RETURNING` in the write's transaction), and after commit `NOTIFY events, '<topic> <id>'`
// (ids only: NOTIFY payloads are small and sent only on commit). Each replica LISTENs and runs
// the same `flush` step on a notification: read the topic's rows after the last id it delivered
// and hand them to its in-process `on` listeners; `read`, `subscribe` and resume stay as here.
import type { BusEvent, EventBus, EventDraft, TopicSelector } from '../../core/platform/events/ports.js';
import { Subscription } from '../../core/platform/events/subscription.js';
import { Listeners } from '../listeners.js';
import { limit } from '../../core/kernel/limits.js';
import { type Db, LIMIT } from './db.js';

export interface SqliteEvents extends EventBus {
  /** Inside a write's transaction: stores the drafts (ids allocated now); `flush` delivers them after commit. */
  append(drafts: readonly EventDraft[]): BusEvent[];
  /** After a write's transaction ended, committed or not: delivers what committed. */
  flush(): void;
  /** Runs a write (a transaction function call) and flushes after it, also when it throws. */
  after<T>(write: () => T): T;
  /** Ends every subscription and listener (store close). */
  close(): void;
  /** The largest commit → live fan-out delay since the last call, ms (metrics). */
  takeLag(): number;
}

type Row = { topic: string; id: number; time: number; payload: string };
const toEvent = (r: Row): BusEvent => ({ topic: r.topic, id: r.id, time: r.time, payload: JSON.parse(r.payload) as unknown });

/** Rows deleted per retention statement: the write lock is let go between batches. */
const PRUNE_BATCH = 1000;

export function sqliteEvents(db: Db, now: () => number, bufferCap = limit('events.buffer')): SqliteEvents {
  const bump = db.prepare('INSERT INTO event_heads (topic, head) VALUES (?, 1) ON CONFLICT(topic) DO UPDATE SET head = head + 1 RETURNING head');
  const ins = db.prepare('INSERT INTO events (topic, id, time, payload) VALUES (?, ?, ?, ?)');
  const selAfter = db.prepare(`SELECT topic, id, time, payload FROM events WHERE topic = ? AND id > ? ORDER BY id ${LIMIT}`);
  const selHead = db.prepare('SELECT head FROM event_heads WHERE topic = ?');
  const selHeads = db.prepare('SELECT topic, head FROM event_heads');
  const selMin = db.prepare('SELECT min(id) AS lo FROM events WHERE topic = ?');
  const selFirstYoung = db.prepare('SELECT id FROM events WHERE topic = ? AND time >= ? ORDER BY id LIMIT 1');
  const del = db.prepare('DELETE FROM events WHERE topic = ? AND id > ? AND id <= ?');
  const headOf = (topic: string) => (selHead.get(topic) as { head: number } | undefined)?.head ?? 0;

  // Live fan-out state: per topic the last id handed to listeners, and the topics written since.
  const delivered = new Map<string, number>();
  const touched = new Set<string>();
  const listeners = new Listeners(now);
  const subs = new Set<Subscription>();
  let flushing = false;

  const listened = (topic: string): boolean => listeners.listened(topic);
  const dispatch = (e: BusEvent): void => listeners.dispatch(e);

  function append(drafts: readonly EventDraft[]): BusEvent[] {
    if (!db.inTransaction) throw new Error('events.append outside a transaction');
    const out: BusEvent[] = [];
    const time = now();
    for (const d of drafts) {
      if (typeof d.topic !== 'string' || !d.topic) throw new Error('event topic must be a non-empty string');
      // The first write of a topic in this process: what was there before is history, not live.
      if (!delivered.has(d.topic)) delivered.set(d.topic, headOf(d.topic));
      const id = (bump.get(d.topic) as { head: number }).head;
      const payload = JSON.stringify(d.payload ?? null);
      ins.run(d.topic, id, time, payload);
      touched.add(d.topic);
      out.push({ topic: d.topic, id, time, payload: JSON.parse(payload) as unknown });
    }
    return out;
  }

  function flush(): void {
    // Inside an outer transaction (a nested write) nothing is committed yet: the outer one flushes.
    // A flush already running (a listener that publishes) picks the new topics up in its loop.
    if (flushing || db.inTransaction) return;
    flushing = true;
    try {
      while (touched.size) {
        const topics = [...touched];
        touched.clear();
        for (const topic of topics) {
          let after = delivered.get(topic) ?? headOf(topic);
          if (!listened(topic)) {
            delivered.set(topic, Math.max(after, headOf(topic)));
            continue;
          }
          for (;;) {
            const rows = selAfter.all(topic, after, 256) as Row[];
            for (const r of rows) {
              const e = toEvent(r);
              after = e.id;
              delivered.set(topic, after);
              dispatch(e);
            }
            if (rows.length < 256) break;
          }
        }
      }
    } finally {
      flushing = false;
    }
  }

  function after<T>(write: () => T): T {
    try {
      return write();
    } finally {
      flush();
    }
  }

  const publishTx = db.transaction((topic: string, payload: unknown) => append([{ topic, payload }])[0]!);

  const on = (sel: TopicSelector, fn: (e: BusEvent) => void): (() => void) => listeners.on(sel, fn);

  const bus: SqliteEvents = {
    takeLag: () => listeners.takeLag(),
    append,
    flush,
    after,
    async publish(topic, payload) {
      return after(() => publishTx(topic, payload));
    },
    async read(topic, afterId, n) {
      return (selAfter.all(topic, afterId, n) as Row[]).map(toEvent);
    },
    async head(topic) {
      return headOf(topic);
    },
    subscribe(sel, opts = {}) {
      const s = new Subscription(bus, sel, opts, bufferCap, (x) => subs.delete(x));
      subs.add(s);
      return s;
    },
    on,
    async prune(before, keep, stopped = () => false) {
      let n = 0;
      for (const { topic, head } of selHeads.all() as { topic: string; head: number }[]) {
        if (stopped()) break;
        let lo = (selMin.get(topic) as { lo: number | null }).lo;
        if (lo === null) continue;
        const young = selFirstYoung.get(topic, before) as { id: number } | undefined;
        // Everything up to `bound` goes: what is over the count, and what is older than `before`.
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
    close() {
      for (const s of [...subs]) s.end();
      listeners.clear();
    },
  };
  return bus;
}
