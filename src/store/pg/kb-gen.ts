// The KB's write generation on PostgreSQL: what the read memo (src/store/memo.ts) checks before it
// serves a kept answer. SQLite has one process per database and moves its counter on each write; here
// every replica keeps its own counter, moved by its own KB writes once they commit and by the other
// replicas' writes, which each replica announces after its commit with a NOTIFY on `cx_kb`
// (notifier.ts: the writer's tag only, sent outside the write's transaction, heard on the store's
// one session connection). Why not a bus event: a row per KB
// write in `events`, its topic head locked by every replica's writes, for a signal that needs no
// history. Why not a generation row read per request: a statement per read is what the memo saves.
//
// Staleness: another replica's write is seen as soon as its notification arrives (the commit, one
// NOTIFY round trip, delivery: milliseconds). A notification can be lost: the writer died between
// its commit and the NOTIFY, the NOTIFY failed, or this replica's session connection was down
// (when it is back the counter moves, since whatever was sent meanwhile is gone). Then kept
// answers still end after kb.memo_ttl, the memo's TTL here: the bound in the worst case.
//
// Reads from a streaming standby (standby.ts) have a counter of their own: moved with the
// primary's, and again once the standby has had time to replay the write (db.standby_lag plus three
// probe periods, past which the standby serves no reads), so an answer read from a standby that had
// not yet replayed a write is not kept as current.
import { limit } from '../../core/kernel/limits.js';
import { notifier } from './notifier.js';
import type { Sql } from './sql.js';

const CHANNEL = 'cx_kb';

export interface KbGen {
  /** The generation of reads on the primary. */
  primary(): number;
  /** The generation of reads on a standby. */
  standby(): number;
  /** A KB write committed here: the generation moves, and the other replicas are told. */
  changed(): void;
  /** LISTENs for the other replicas' writes (store open). */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function kbGen(sql: Sql): KbGen {
  let gen = 0;
  let standbyGen = 0;
  // The standby's second move: due `replay` ms after the latest change, one timer at a time.
  const replay = limit('db.standby_lag') + 3 * limit('db.standby_probe');
  let dueAt = 0;
  let timer: NodeJS.Timeout | null = null;
  const later = () => {
    const wait = dueAt - Date.now();
    if (wait > 0) {
      timer = setTimeout(later, wait);
      timer.unref();
      return;
    }
    timer = null;
    standbyGen++;
  };
  const move = () => {
    gen++;
    standbyGen++;
    dueAt = Date.now() + replay;
    if (!timer) {
      timer = setTimeout(later, replay);
      timer.unref();
    }
  };

  // One NOTIFY in flight at a time (notifier.ts): a burst of writes costs two.
  const note = notifier(sql, CHANNEL);

  return {
    primary: () => gen,
    standby: () => standbyGen,
    changed() {
      move();
      note.send(['kb']);
    },
    // Another replica's write, or notifications maybe lost (the connection came back): both move it.
    start: () => note.start(move),
    async close() {
      if (timer) clearTimeout(timer);
      timer = null;
      await note.close();
    },
  };
}
