// Per-replica memo of token → identity on PostgreSQL: every write with a token (a drop, a publish, a
// tool call) looked its token up first, one statement of two or three per write (bench:scale
// 2026-11-28). Tokens are created and deleted with their identity, never changed; what changes is
// the identity behind them: frozen or thawed, purged, its reputation and confirmed count (its
// level) moved by an outcome. Each such write drops the identity's tokens here once it commits and
// tells the other replicas (notifier.ts, channel `cx_ident`), which drop theirs when they hear it
// (milliseconds). A notification lost bounds the staleness at `db.token_memo_ttl`; an identity
// frozen is refused everywhere within that bound in the worst case. Unknown tokens are not kept
// (random tokens would push the known ones out; each is looked up).
import type { Identity, TokenClass } from '../../core/platform/identity/ports.js';
import { limit } from '../../core/kernel/limits.js';
import { notifier } from './notifier.js';
import type { Sql } from './sql.js';

const MAX = 20_000;

export interface TokenMemo {
  /** The identity of a token, kept or read (`read`) and kept when nothing changed meanwhile. */
  get(hash: string, cls: TokenClass, read: () => Promise<Identity | null>): Promise<Identity | null>;
  /** Identities changed by a write that has committed here: dropped here, the other replicas told. */
  changed(ids: readonly string[]): void;
  start(): Promise<void>;
  close(): Promise<void>;
}

export function tokenMemo(sql: Sql, now: () => number = Date.now): TokenMemo {
  const ttl = limit('db.token_memo_ttl');
  const kept = new Map<string, { at: number; v: Readonly<Identity> }>();
  const keysOf = new Map<string, Set<string>>();
  // Moves at every drop: a read that ran across one is not kept (it may predate the write).
  let epoch = 0;
  const forget = (key: string) => {
    const hit = kept.get(key);
    if (!hit) return;
    kept.delete(key);
    const ks = keysOf.get(hit.v.id);
    ks?.delete(key);
    if (ks && !ks.size) keysOf.delete(hit.v.id);
  };
  const drop = (ids: readonly string[] | null) => {
    epoch++;
    if (ids === null) {
      kept.clear();
      keysOf.clear();
      return;
    }
    for (const id of ids) for (const k of [...(keysOf.get(id) ?? [])]) forget(k);
  };
  const note = notifier(sql, 'cx_ident');
  return {
    async get(hash, cls, read) {
      const key = `${cls}:${hash}`;
      const t = now();
      const hit = kept.get(key);
      if (hit && t - hit.at < ttl) return hit.v;
      if (hit) forget(key);
      const at = epoch;
      const v = await read();
      if (!v || at !== epoch) return v;
      forget(key);
      kept.set(key, { at: t, v: Object.freeze(v) });
      let ks = keysOf.get(v.id);
      if (!ks) keysOf.set(v.id, (ks = new Set()));
      ks.add(key);
      if (kept.size > MAX) forget(kept.keys().next().value as string);
      return v;
    },
    changed(ids) {
      if (!ids.length) return;
      drop(ids);
      note.send(ids);
    },
    start: () => note.start(drop),
    close: () => note.close(),
  };
}
