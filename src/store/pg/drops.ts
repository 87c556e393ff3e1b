// Dead drops on PostgreSQL (port: src/core/drops/ports.ts). The decrement is the claim: an UPDATE
// that moves reads from n > 0 to n - 1 under the row's lock, so of concurrent readers on any
// replica exactly `reads` get the body; the last read deletes the row in the same transaction (a
// read that is not the last is one statement on its own).
import type { ClaimedDrop, DropRepo, DropRow } from '../../core/drops/ports.js';
import { groupWriter } from './group.js';
import type { Sql } from './sql.js';

const COLS = 'key, owner, wkey, nonce, ct, size, exp, reads, once, masked, ver, created';

export function pgDrops(sql: Sql): DropRepo {
  // New drops of concurrent writers in one statement (group.ts); a key at most once per statement.
  // Each row inserts, or takes over the key of an expired row the sweep has not reached yet; "now"
  // is the batch's earliest, so a row no writer of the batch has seen expire is never taken over.
  const create = groupWriter<{ r: DropRow; now: number }, boolean>(
    async (rows) => {
      const col = <K extends keyof DropRow>(k: K) => rows.map((x) => x.r[k]);
      const now = Math.min(...rows.map((x) => x.now));
      const written = await sql.query<{ key: Buffer }>(
        `INSERT INTO drops AS d (key, owner, wkey, nonce, ct, size, exp, reads, once, masked, ver, created)
         SELECT key, owner, wkey, nonce, ct, size, exp, reads, once, masked, 1, created
           FROM unnest($1::bytea[], $2::text[], $3::bytea[], $4::bytea[], $5::bytea[], $6::int4[], $7::int8[], $8::int4[], $9::bool[], $10::int4[], $11::int8[])
             AS r(key, owner, wkey, nonce, ct, size, exp, reads, once, masked, created)
         ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, wkey = excluded.wkey, nonce = excluded.nonce, ct = excluded.ct,
           size = excluded.size, exp = excluded.exp, reads = excluded.reads, once = excluded.once, masked = excluded.masked,
           ver = d.ver + 1, created = excluded.created
         WHERE d.exp <= $12
         RETURNING key`,
        [
          col('key'),
          col('owner'),
          col('wkey'),
          col('nonce'),
          col('ct'),
          col('size'),
          col('exp'),
          col('reads'),
          col('once'),
          col('masked'),
          col('created'),
          now,
        ],
      );
      const done = new Set(written.rows.map((w) => Buffer.from(w.key).toString('hex')));
      return rows.map((x) => done.has(x.r.key.toString('hex')));
    },
    { keyOf: (x) => x.r.key.toString('hex') },
  );
  return {
    async get(key, now) {
      return (await sql.query<DropRow>(`SELECT ${COLS} FROM drops WHERE key = $1 AND exp > $2`, [key, now])).rows[0] ?? null;
    },
    async peek(key, now) {
      return (
        (await sql.query<Pick<DropRow, 'exp' | 'reads' | 'once' | 'size'>>('SELECT exp, reads, once, size FROM drops WHERE key = $1 AND exp > $2', [key, now]))
          .rows[0] ?? null
      );
    },
    create: (r, now) => create({ r, now }),
    async update(key, ver, p, now) {
      const res = await sql.query(
        `UPDATE drops SET nonce = $3, ct = $4, size = $5, exp = $6, reads = $7, once = $8, masked = $9, ver = ver + 1
         WHERE key = $1 AND ver = $2 AND exp > $10`,
        [key, ver, p.nonce, p.ct, p.size, p.exp, p.reads, p.once, p.masked, now],
      );
      return res.count === 1;
    },
    async claim(key, now) {
      // A read that is not the last: one statement, no transaction (issue 38). The last read (or a
      // burn-after-reading drop) needs its delete in the same transaction, below; a concurrent read
      // that made this one the last falls through to it (the re-checked row no longer has reads > 1).
      const hot = (
        await sql.query<ClaimedDrop>(
          'UPDATE drops SET reads = reads - 1, ver = ver + 1 WHERE key = $1 AND reads > 1 AND NOT once AND exp > $2 RETURNING nonce, ct, size, exp, reads, once',
          [key, now],
        )
      ).rows[0];
      if (hot) return hot;
      return sql.tx(async (q) => {
        // It bumps ver too, so an edit prepared before the read cannot write the old count back.
        const r = (
          await q.query<ClaimedDrop>(
            'UPDATE drops SET reads = reads - 1, ver = ver + 1 WHERE key = $1 AND reads > 0 AND exp > $2 RETURNING nonce, ct, size, exp, reads, once',
            [key, now],
          )
        ).rows[0];
        if (!r) return null;
        // Burn: the row and its ciphertext go, not a flag.
        if (r.reads === 0 || r.once) await q.query('DELETE FROM drops WHERE key = $1', [key]);
        return r;
      });
    },
    async remove(key, owner, wkey, now) {
      const res = await sql.query(
        'DELETE FROM drops WHERE key = $1 AND exp > $2 AND ((owner IS NOT NULL AND owner = $3) OR (wkey IS NOT NULL AND wkey = $4))',
        [key, now, owner, wkey],
      );
      return res.count === 1;
    },
    async purgeExpired(now) {
      return (await sql.query('DELETE FROM drops WHERE exp <= $1', [now])).count;
    },
  };
}
