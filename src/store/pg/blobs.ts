// Blobs on PostgreSQL (port: src/core/blobs/ports.ts): metadata and bytes in two tables of
// migration 006, written in one transaction; operator blobs in those of migration 016. An upload
// holds an advisory lock of its owner (the byte budget is read and spent by one upload at a time
// on any replica); the same bytes raced by two owners meet on the hash's primary key (INSERT ...
// ON CONFLICT DO NOTHING waits for the first and inserts nothing), so exactly one creates it.
import type { BlobMeta, BlobRepo } from '../../core/blobs/ports.js';
import type { Q, Sql } from './sql.js';

const META = 'hash, size, kind, owner, created';
const OP_META = "hash, size, kind, 'asystem' AS owner, created, pinned_by, pin, note";

export function pgBlobs(sql: Sql): BlobRepo {
  const meta = async (q: Q, hash: string) => (await q.query<BlobMeta>(`SELECT ${META} FROM blobs WHERE hash = $1`, [hash])).rows[0];
  const opMeta = async (q: Q, hash: string) => (await q.query<BlobMeta>(`SELECT ${OP_META} FROM op_blobs WHERE hash = $1`, [hash])).rows[0];
  return {
    async put(m, bytes, maxBytes) {
      return sql.tx(async (q) => {
        await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.blobs.' || $1))", [m.owner]);
        // Content-addressed: the same bytes uploaded again are the same blob, charged to the first owner.
        const have = await meta(q, m.hash);
        if (have) return { meta: have, created: false };
        const used = (await q.query<{ n: number }>('SELECT coalesce(sum(size), 0) AS n FROM blobs WHERE owner = $1', [m.owner])).rows[0]!.n;
        if (used + m.size > maxBytes) return 'full' as const;
        const made = await q.query('INSERT INTO blobs (hash, size, kind, owner, created) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (hash) DO NOTHING', [
          m.hash,
          m.size,
          m.kind,
          m.owner,
          m.created,
        ]);
        // Another owner's upload of the same bytes committed first: theirs is the blob.
        if (made.count === 0) return { meta: (await meta(q, m.hash))!, created: false };
        await q.query('INSERT INTO blob_data (hash, bytes) VALUES ($1, $2)', [m.hash, bytes]);
        return { meta: { hash: m.hash, size: m.size, kind: m.kind, owner: m.owner, created: m.created }, created: true };
      });
    },
    async putPinned(m, bytes, p) {
      return sql.tx(async (q) => {
        // The same bytes again keep their row and take the new pin (ON CONFLICT waits for a racing first upload).
        const made = await q.query(
          `INSERT INTO op_blobs (hash, size, kind, created, pinned_by, pin, note) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (hash) DO NOTHING`,
          [m.hash, m.size, m.kind, m.created, p.by, p.pin, p.note],
        );
        if (made.count === 1) await q.query('INSERT INTO op_blob_data (hash, bytes) VALUES ($1, $2)', [m.hash, bytes]);
        else await q.query('UPDATE op_blobs SET pinned_by = $2, pin = $3, note = $4 WHERE hash = $1', [m.hash, p.by, p.pin, p.note]);
        return { meta: (await opMeta(q, m.hash))!, created: made.count === 1 };
      });
    },
    async meta(hash) {
      return (await meta(sql, hash)) ?? (await opMeta(sql, hash)) ?? null;
    },
    async bytes(hash) {
      const r = (
        await sql.query<{ bytes: Buffer }>('SELECT bytes FROM blob_data WHERE hash = $1 UNION ALL SELECT bytes FROM op_blob_data WHERE hash = $1 LIMIT 1', [
          hash,
        ])
      ).rows[0];
      return r?.bytes ?? null;
    },
  };
}
