// SQLite implementation of the DropRepo port. Each method is one statement or one transaction;
// better-sqlite3 runs them synchronously, so a read's decrement and burn cannot interleave.
import type { ClaimedDrop, DropRepo, DropRow } from '../../core/drops/ports.js';
import type { Db } from './db.js';

interface Row {
  key: Buffer;
  owner: string | null;
  wkey: Buffer | null;
  nonce: Buffer;
  ct: Buffer;
  size: number;
  exp: number;
  reads: number;
  once: number;
  masked: number;
  ver: number;
  created: number;
}

const toDrop = (r: Row): DropRow => ({ ...r, once: r.once === 1 });

export function sqliteDrops(db: Db): DropRepo {
  const sel = db.prepare('SELECT * FROM drops WHERE key = ? AND exp > ?');
  const peek = db.prepare('SELECT exp, reads, once, size FROM drops WHERE key = ? AND exp > ?');
  // Insert, or take over the key of an expired row the sweep has not reached yet.
  const ins = db.prepare(
    `INSERT INTO drops (key, owner, wkey, nonce, ct, size, exp, reads, once, masked, ver, created)
     VALUES (@key, @owner, @wkey, @nonce, @ct, @size, @exp, @reads, @once, @masked, 1, @created)
     ON CONFLICT(key) DO UPDATE SET owner = excluded.owner, wkey = excluded.wkey, nonce = excluded.nonce, ct = excluded.ct,
       size = excluded.size, exp = excluded.exp, reads = excluded.reads, once = excluded.once, masked = excluded.masked,
       ver = drops.ver + 1, created = excluded.created
     WHERE drops.exp <= @now`,
  );
  const upd = db.prepare(
    `UPDATE drops SET nonce = @nonce, ct = @ct, size = @size, exp = @exp, reads = @reads, once = @once, masked = @masked, ver = ver + 1
     WHERE key = @key AND ver = @ver AND exp > @now`,
  );
  // The decrement is the claim: only a read that moves reads_left from n > 0 to n - 1 gets the body.
  // It bumps ver too, so an edit prepared before the read cannot write the old count back.
  const dec = db.prepare(
    'UPDATE drops SET reads = reads - 1, ver = ver + 1 WHERE key = ? AND reads > 0 AND exp > ? RETURNING nonce, ct, size, exp, reads, once',
  );
  const del = db.prepare('DELETE FROM drops WHERE key = ?');
  const rm = db.prepare(
    'DELETE FROM drops WHERE key = @key AND exp > @now AND ((owner IS NOT NULL AND owner = @owner) OR (wkey IS NOT NULL AND wkey = @wkey))',
  );
  const purge = db.prepare('DELETE FROM drops WHERE exp <= ?');

  const claim = db.transaction((key: Buffer, now: number): ClaimedDrop | null => {
    const r = dec.get(key, now) as Omit<Row, 'key' | 'owner' | 'wkey' | 'masked' | 'ver' | 'created'> | undefined;
    if (!r) return null;
    // Burn: the row and its ciphertext go, not a flag.
    if (r.reads === 0 || r.once === 1) del.run(key);
    return { ...r, once: r.once === 1 };
  });

  return {
    async get(key, now) {
      const r = sel.get(key, now) as Row | undefined;
      return r ? toDrop(r) : null;
    },
    async peek(key, now) {
      const r = peek.get(key, now) as { exp: number; reads: number; once: number; size: number } | undefined;
      return r ? { ...r, once: r.once === 1 } : null;
    },
    async create(row, now) {
      const { key, owner, wkey, nonce, ct, size, exp, reads, masked, created } = row;
      return ins.run({ key, owner, wkey, nonce, ct, size, exp, reads, once: row.once ? 1 : 0, masked, created, now }).changes === 1;
    },
    async update(key, ver, p, now) {
      const { nonce, ct, size, exp, reads, masked } = p;
      return upd.run({ nonce, ct, size, exp, reads, once: p.once ? 1 : 0, masked, key, ver, now }).changes === 1;
    },
    async claim(key, now) {
      return claim(key, now);
    },
    async remove(key, owner, wkey, now) {
      return rm.run({ key, owner, wkey, now }).changes === 1;
    },
    async purgeExpired(now) {
      return purge.run(now).changes;
    },
  };
}
