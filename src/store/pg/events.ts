// The event bus on PostgreSQL: the outbox of migration 010, written in the transaction of the
// change that caused it, fanned out in this process after commit (the SQLite adapter's design,
// src/store/sqlite/events.ts, made asynchronous).
//
// How a write publishes: a repository calls `append(q, drafts)` inside its own `sql.tx` (the
// topic's head row hands out the ids there and stays locked until commit, so ids are gapless and
// commit in id order per topic, across replicas too; a head and its row are one statement, and a
// lone publish runs it without a transaction around it, so the lock lasts one statement and its
// commit) and `flush()` once the transaction has ended (`events.after(() => sql.tx(...))`).
// `flush` reads the committed rows of the touched topics after the last id it delivered, so a
// rolled-back event is never seen and the live feed is in commit order per topic; subscribers (src/core/platform/events/subscription.ts) read anything they missed
// back by id.
//
// Across replicas: after a write commits, `pg_notify('cx_events', '<topic> <id>')` in a statement of
// its own (ids only, never the payload: NOTIFY takes a global lock at commit, so it is kept short
// and outside the write's transaction); while one is in flight, those of later commits wait and go
// as one per topic with its newest id. Each store LISTENs on one connection of its own; a
// notification of a topic someone here listens to marks it touched and runs `flush`, which reads
// the rows by id as for a local write. A lost listening connection is re-made and every followed
// topic read again (notifications sent meanwhile are gone). A notification that fails to send
// delays other replicas' live delivery until the topic's next event (subscribers fill gaps by id).
import type { BusEvent, EventBus, EventDraft, TopicSelector } from '../../core/platform/events/ports.js';
import { Subscription } from '../../core/platform/events/subscription.js';
import { Listeners } from '../listeners.js';
import { limit } from '../../core/kernel/limits.js';
import type { Q, Sql } from './sql.js';

export interface PgEvents extends EventBus {
  /** Inside a write's transaction: stores the drafts (ids allocated now); `flush` delivers them after commit. `mark`: the write's own set from `after`. */
  append(q: Q, drafts: readonly EventDraft[], mark?: WriteMark): Promise<BusEvent[]>;
  /** After a write's transaction ended, committed or not: delivers what committed. */
  flush(): Promise<void>;
  /** Runs a write (a `sql.tx` call whose appends get `mark`) and flushes after it, also when it throws. */
  after<T>(write: (mark: WriteMark) => Promise<T>): Promise<T>;
  /** LISTENs for other replicas' events (store open). */
  start(): Promise<void>;
  /** Ends every subscription and listener (store close). */
  close(): Promise<void>;
  /** The largest commit → live fan-out delay since the last call, ms (metrics). */
  takeLag(): number;
}

/** The topics (and last ids) one write appended to: handed over when the write has ended. */
export type WriteMark = Map<string, number>;

type Row = { topic: string; id: number; time: number; payload: unknown };
const toEvent = (r: Row): BusEvent => ({ topic: r.topic, id: r.id, time: r.time, payload: r.payload });

/** The notification channel of committed events ('<topic> <id>'). */
const CHANNEL = 'cx_events';

/** Rows deleted per retention statement: locks are let go between batches. */
const PRUNE_BATCH = 1000;
/** Rows read per round trip of a flush. */
const PAGE = 256;

export function pgEvents(sql: Sql, now: () => number, bufferCap = limit('events.buffer')): PgEvents {
  const headOf = async (q: Q, topic: string): Promise<number> =>
    (await q.query<{ head: number }>('SELECT head FROM event_heads WHERE topic = $1', [topic])).rows[0]?.head ?? 0;
  const readAfter = async (topic: string, after: number, n: number): Promise<BusEvent[]> =>
    (await sql.query<Row>('SELECT topic, id, time, payload FROM events WHERE topic = $1 AND id > $2 ORDER BY id LIMIT $3', [topic, after, n])).rows.map(
      toEvent,
    );

  // Live fan-out state: per topic the last id handed to listeners, and the topics written since.
  // A topic counts as written once its write has ENDED: with a pool, writes run concurrently, and a
  // flush that ran while another write was still open would mark that write's topic done before
  // its event committed, losing it for live listeners. So each `after` gives its write a set of its
  // own (the `mark` its appends fill) and hands it over when the write ends. Passed by hand rather
  // than through AsyncLocalStorage: on Node 20 that turns on promise hooks for the whole process.
  const delivered = new Map<string, number>();
  const touched = new Set<string>();
  const listeners = new Listeners(now);
  const subs = new Set<Subscription>();
  let flushing: Promise<void> | null = null;

  const listened = (topic: string): boolean => listeners.listened(topic);
  const dispatch = (e: BusEvent): void => listeners.dispatch(e);

  async function append(q: Q, drafts: readonly EventDraft[], mine?: WriteMark): Promise<BusEvent[]> {
    const out: BusEvent[] = [];
    const time = now();
    for (const d of drafts) {
      if (typeof d.topic !== 'string' || !d.topic) throw new Error('event topic must be a non-empty string');
      const payload = JSON.stringify(d.payload ?? null);
      // The head and the row in one statement: no round trip to the client while the head row
      // is locked (issue 38: it was two, and 50 publishers of one topic queued on the lock held
      // across them). Alone (publish) it commits itself, so the lock lasts the statement and its commit.
      const id = (
        await q.query<{ id: number }>(
          `WITH h AS (INSERT INTO event_heads AS h (topic, head) VALUES ($1, 1) ON CONFLICT (topic) DO UPDATE SET head = h.head + 1 RETURNING head)
           INSERT INTO events (topic, id, time, payload) SELECT $1, head, $2, $3::jsonb FROM h RETURNING id`,
          [d.topic, time, payload],
        )
      ).rows[0]!.id;
      // The first write of a topic in this process: what was there before is history, not live.
      if (!delivered.has(d.topic)) delivered.set(d.topic, id - 1);
      if (mine) mine.set(d.topic, id);
      else touched.add(d.topic);
      out.push({ topic: d.topic, id, time, payload: JSON.parse(payload) as unknown });
    }
    return out;
  }

  async function drain(): Promise<void> {
    while (touched.size) {
      const topics = [...touched];
      touched.clear();
      for (const topic of topics) {
        let last = delivered.get(topic) ?? (firstNews.delete(topic) ? await liveBaseline(topic) : await headOf(sql, topic));
        if (!listened(topic)) {
          delivered.set(topic, Math.max(last, await headOf(sql, topic)));
          continue;
        }
        for (;;) {
          const rows = await readAfter(topic, last, PAGE);
          for (const e of rows) {
            // Only forward: a concurrent drain never happens (one at a time), but stay monotonic.
            if (e.id <= (delivered.get(topic) ?? 0)) continue;
            last = e.id;
            delivered.set(topic, last);
            dispatch(e);
          }
          if (rows.length < PAGE) break;
        }
      }
    }
  }

  // One drain at a time; a flush while one runs joins it (the loop picks up the new topics).
  function flush(): Promise<void> {
    if (flushing) return flushing;
    flushing = drain().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  // Notifications of committed events, one in flight per store: those of events committed meanwhile
  // wait and go as one per topic, its newest id (a replica that hears it reads every row after the
  // last it delivered, so the newest id says all). One topic under 50 publishers: a NOTIFY per
  // round trip instead of one per line (bench:scale 2026-11-28: 1.02 per publish).
  const toTell = new Map<string, number>();
  let telling = false;
  const tellAll = () => {
    if (telling || !toTell.size) return;
    telling = true;
    const batch = [...toTell];
    toTell.clear();
    void Promise.all(batch.map(([topic, id]) => sql.notify(CHANNEL, `${topic} ${id}`).catch(() => undefined))).finally(() => {
      telling = false;
      tellAll();
    });
  };
  const tell = (topic: string, id: number) => {
    if ((toTell.get(topic) ?? 0) < id) toTell.set(topic, id);
    tellAll();
  };

  async function after<T>(write: (mark: WriteMark) => Promise<T>): Promise<T> {
    const mine: WriteMark = new Map();
    let ok = false;
    try {
      const out = await write(mine);
      ok = true;
      return out;
    } finally {
      for (const t of mine.keys()) touched.add(t);
      await flush().catch(() => undefined);
      // Committed: other replicas hear of it (the ids of a rolled-back write were never used).
      if (ok) for (const [topic, id] of mine) tell(topic, id);
    }
  }

  // Since when this process has had live listeners: another replica's events of a topic first heard
  // of are live from then. Not from the first notification heard: notifications of concurrent
  // commits arrive in any order, so the first one heard may not be the first event committed since.
  let live = 0;
  let liveSince = 0;
  const on = (sel: TopicSelector, fn: (e: BusEvent) => void): (() => void) => {
    if (live++ === 0) liveSince = now();
    const off = listeners.on(sel, fn);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      off();
      live--;
    };
  };
  /** The last event of `topic` written before this process's listeners began. */
  const liveBaseline = async (topic: string): Promise<number> =>
    (await sql.query<{ id: number }>('SELECT id FROM events WHERE topic = $1 AND time < $2 ORDER BY id DESC LIMIT 1', [topic, liveSince])).rows[0]?.id ?? 0;
  /** Topics another replica wrote that this process heard of before it had delivered any. */
  const firstNews = new Set<string>();

  // Another store's committed event (or our own, echoed: already delivered, skipped).
  const heard = (payload: string) => {
    const sp = payload.lastIndexOf(' ');
    const topic = payload.slice(0, sp);
    const id = Number(payload.slice(sp + 1));
    if (sp < 1 || !Number.isSafeInteger(id) || !listened(topic)) return;
    const was = delivered.get(topic);
    if (was !== undefined && id <= was) return;
    // First news of a topic this process never wrote: the drain starts it at liveBaseline.
    if (was === undefined) firstNews.add(topic);
    touched.add(topic);
    void flush().catch(() => undefined);
  };
  // The listening connection came back: whatever was sent meanwhile is read again by id.
  const lost = () => {
    for (const t of delivered.keys()) if (listened(t)) touched.add(t);
    void flush().catch(() => undefined);
  };
  let unlisten: (() => Promise<void>) | null = null;

  const bus: PgEvents = {
    takeLag: () => listeners.takeLag(),
    async start() {
      unlisten = await sql.listen(CHANNEL, heard, lost);
    },
    append,
    flush,
    after,
    async publish(topic, payload) {
      // One statement, no BEGIN/COMMIT around it: the topic's head row is locked only while the
      // server runs and commits it (ids stay gapless: the statement commits whole or not at all).
      return after(async (mark) => (await append(sql, [{ topic, payload }], mark))[0]!);
    },
    read: readAfter,
    head: (topic) => headOf(sql, topic),
    subscribe(sel, opts = {}) {
      const s = new Subscription(bus, sel, opts, bufferCap, (x) => subs.delete(x));
      subs.add(s);
      return s;
    },
    on,
    prune: (before, keep, stopped) => pruneEvents(sql, null, before, keep, stopped),
    async close() {
      for (const s of [...subs]) s.end();
      listeners.clear();
      await unlisten?.();
      await flushing?.catch(() => undefined);
    },
  };
  return bus;
}

/**
 * Deletes the events of each topic (of those starting with `prefix`, or all) older than `before`
 * beyond the newest `keep`, in batches of PRUNE_BATCH rows so locks are let go between them; the
 * bus's retention and the swarm's line retention.
 */
export async function pruneEvents(sql: Sql, prefix: string | null, before: number, keep: number, stopped: () => boolean = () => false): Promise<number> {
  let n = 0;
  const heads = (
    await sql.query<{ topic: string; head: number }>('SELECT topic, head FROM event_heads WHERE $1::text IS NULL OR starts_with(topic, $1)', [prefix])
  ).rows;
  for (const { topic, head } of heads) {
    if (stopped()) break;
    let lo = (await sql.query<{ lo: number | null }>('SELECT min(id) AS lo FROM events WHERE topic = $1', [topic])).rows[0]!.lo;
    if (lo === null) continue;
    const young = (await sql.query<{ id: number }>('SELECT id FROM events WHERE topic = $1 AND time >= $2 ORDER BY id LIMIT 1', [topic, before])).rows[0];
    // Everything up to `bound` goes: what is over the count, and what is older than `before`.
    const bound = Math.max(head - keep, young ? young.id - 1 : head);
    lo -= 1;
    while (lo < bound && !stopped()) {
      const hi = Math.min(bound, lo + PRUNE_BATCH);
      n += (await sql.query('DELETE FROM events WHERE topic = $1 AND id > $2 AND id <= $3', [topic, lo, hi])).count;
      lo = hi;
    }
  }
  return n;
}
