// SQLite implementation of the CacheRepo port.
import type { CacheRepo, CacheRow, NewCacheRow } from '../../core/cache/ports.js';
import type { Identity } from '../../core/platform/identity/ports.js';
import type { Db } from './db.js';

interface Row extends Omit<CacheRow, 'to' | 'hidden'> {
  to_id: string | null;
  hidden: number;
}
const toRow = (r: Row): CacheRow => {
  const { to_id, hidden, ...rest } = r;
  return { ...rest, to: to_id, hidden: hidden === 1 };
};

/** `nsMax`: how many namespaces the set of those with rows may hold (tests make it small). */
export function sqliteCache(db: Db, nsMax = 50_000): CacheRepo {
  const cur = db.prepare('SELECT rid, producer, exp FROM cache WHERE ns = ? AND key = ?');
  const live = db.prepare('SELECT count(*) AS n FROM cache WHERE producer = ? AND exp > ?');
  const del = db.prepare('DELETE FROM cache WHERE rid = ?');
  const ins = db.prepare(
    `INSERT INTO cache (ns, key, producer, kind, text, blob, size, to_id, created, exp)
     VALUES (@ns, @key, @producer, @kind, @text, @blob, @size, @to, @created, @exp) RETURNING *`,
  );
  // The producer's own row is replaced in place: its hit count and reader networks stay.
  const upd = db.prepare(
    `UPDATE cache SET kind = @kind, text = @text, blob = @blob, size = @size, to_id = @to, created = @created, exp = @exp
     WHERE rid = @rid RETURNING *`,
  );
  const sel = db.prepare(
    `SELECT c.*, i.name AS i_name, i.created AS i_created, i.rep AS i_rep, i.confirmed AS i_confirmed, i.frozen AS i_frozen
     FROM cache c JOIN identities i ON i.id = c.producer
     WHERE c.ns = ? AND c.key = ? AND c.exp > ? AND c.hidden = 0`,
  );
  const hasNet = db.prepare('SELECT 1 FROM cache_nets WHERE rid = ? AND net = ?');
  const nNets = db.prepare('SELECT count(*) AS n FROM cache_nets WHERE rid = ?');
  const addNet = db.prepare('INSERT OR IGNORE INTO cache_nets (rid, net) VALUES (?, ?)');
  const hit = db.prepare('UPDATE cache SET hits = hits + 1 WHERE rid = ? RETURNING hits');
  const hits = db.prepare('SELECT hits FROM cache WHERE rid = ?');
  const rm = db.prepare('DELETE FROM cache WHERE ns = ? AND key = ? AND producer = ? AND exp > ?');
  const purge = db.prepare('DELETE FROM cache WHERE exp <= ?');
  const namespaces = db.prepare('SELECT DISTINCT ns FROM cache').pluck();

  // The namespaces that have rows, or had them since they were last read (rows that expire or go
  // leave theirs here: a lookup then reads, as before). Every brief asks for its question in its
  // namespace, nearly always one without a row: answered without a read (a statement costs ~5-10
  // us at 1M KB entries). This process is the database's only writer, and put() is its only
  // insert. At nsMax names the set is read again from the table (names of rows gone drop out);
  // still at it, the set is not used.
  let withRows: Set<string> | null = null;
  const readNamespaces = () => {
    const all = namespaces.all() as string[];
    withRows = all.length < nsMax ? new Set(all) : null;
  };
  readNamespaces();
  const noted = (ns: string) => {
    if (withRows === null || withRows.has(ns)) return;
    if (withRows.size >= nsMax) readNamespaces();
    // Added after any re-read: the row is not in the table yet, and the set must hold its name.
    const set = withRows as Set<string> | null;
    if (set !== null && set.size < nsMax) set.add(ns);
    else withRows = null;
  };

  const put = db.transaction((row: NewCacheRow, now: number, max: number) => {
    const c = cur.get(row.ns, row.key) as { rid: number; producer: string; exp: number } | undefined;
    if (c && c.exp > now && c.producer !== row.producer) return 'held' as const;
    if (c && c.exp > now) return { row: toRow(upd.get({ ...row, rid: c.rid }) as Row), created: false };
    if ((live.get(row.producer, now) as { n: number }).n >= max) return 'full' as const;
    if (c) del.run(c.rid); // expired: anyone may take the key over, with fresh counters
    return { row: toRow(ins.get(row) as Row), created: true };
  });

  // Reader networks: only the first `cap` distinct ones are kept (that is all the rule needs).
  const read = db.transaction((rid: number, net: Buffer | null, cap: number, enforce: boolean) => {
    if (!hits.get(rid)) return { gate: 'gone' as const, hits: 0 };
    if (net !== null && !hasNet.get(rid, net)) {
      if ((nNets.get(rid) as { n: number }).n < cap) addNet.run(rid, net);
      else if (enforce) return { gate: 'token' as const, hits: (hits.get(rid) as { hits: number }).hits };
    }
    return { gate: 'ok' as const, hits: (hit.get(rid) as { hits: number }).hits };
  });

  return {
    async put(row, now, max) {
      // Noted before the insert: a lookup never misses a row for want of its namespace.
      noted(row.ns);
      return put(row, now, max);
    },
    async get(ns, key, now) {
      if (withRows && !withRows.has(ns)) return null;
      const r = sel.get(ns, key, now) as (Row & { i_name: string | null; i_created: number; i_rep: number; i_confirmed: number; i_frozen: number }) | undefined;
      if (!r) return null;
      const { i_name, i_created, i_rep, i_confirmed, i_frozen, ...row } = r;
      const producer: Identity = { id: r.producer, name: i_name, created: i_created, rep: i_rep, confirmed: i_confirmed, frozen: i_frozen === 1 };
      return { row: toRow(row), producer };
    },
    async read(rid, net, cap, enforce) {
      return read(rid, net, cap, enforce);
    },
    async remove(ns, key, producer, now) {
      return rm.run(ns, key, producer, now).changes === 1;
    },
    async purgeExpired(now) {
      return purge.run(now).changes;
    },
  };
}
