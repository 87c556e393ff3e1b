// Tells the other replicas which keys of a per-replica memo a committed write made stale: a NOTIFY
// on one channel carrying this store's tag and the keys, heard on the store's one session
// connection (sql.listen). Sent after the write's commit and outside its transaction. Keys
// announced while one NOTIFY is in flight go together in the next one, so a burst of writes costs
// two statements, not one each. Our own notifications come back too: told apart by the tag.
//
// A notification can be lost (the writer died between its commit and the NOTIFY, the NOTIFY
// failed, this replica's session connection was down): `heard(null)` when the connection comes
// back says "anything may have changed"; the rest is bounded by the memo's TTL.
import { randomBytes } from 'node:crypto';
import type { Sql } from './sql.js';

/** PostgreSQL refuses NOTIFY payloads from 8000 bytes: keys go in chunks well below it. */
const CHUNK_BYTES = 4000;

export interface Notifier {
  /** Keys changed by a write that has committed here (keys hold no spaces). */
  send(keys: readonly string[]): void;
  /** LISTENs; `heard` gets the other replicas' keys, or null when notifications may have been lost. */
  start(heard: (keys: readonly string[] | null) => void): Promise<void>;
  close(): Promise<void>;
}

export function notifier(sql: Sql, channel: string): Notifier {
  const self = randomBytes(6).toString('base64url');
  let sending = false;
  const waiting = new Set<string>();
  const flush = () => {
    if (sending || !waiting.size) return;
    sending = true;
    const chunks: string[] = [];
    let cur = self;
    for (const k of waiting) {
      if (cur.length + k.length + 1 > CHUNK_BYTES) {
        chunks.push(cur);
        cur = self;
      }
      cur += ` ${k}`;
    }
    chunks.push(cur);
    waiting.clear();
    void Promise.all(chunks.map((c) => sql.notify(channel, c).catch(() => undefined))) // lost: the TTL bounds it
      .finally(() => {
        sending = false;
        flush();
      });
  };
  let unlisten: (() => Promise<void>) | null = null;
  return {
    send(keys) {
      for (const k of keys) waiting.add(k);
      flush();
    },
    async start(heard) {
      unlisten = await sql.listen(
        channel,
        (payload) => {
          const parts = payload.split(' ');
          if (parts[0] !== self) heard(parts.slice(1));
        },
        () => heard(null),
      );
    },
    async close() {
      await unlisten?.();
      unlisten = null;
    },
  };
}
