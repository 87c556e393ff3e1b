// SQLite implementation of the BlobRepo port: metadata and bytes in two tables, one transaction.
import type { BlobMeta, BlobPin, BlobRepo } from '../../core/blobs/ports.js';
import type { Db } from './db.js';

export function sqliteBlobs(db: Db): BlobRepo {
  const meta = db.prepare('SELECT hash, size, kind, owner, created FROM blobs WHERE hash = ?');
  const used = db.prepare('SELECT coalesce(sum(size), 0) AS n FROM blobs WHERE owner = ?');
  const insMeta = db.prepare('INSERT INTO blobs (hash, size, kind, owner, created) VALUES (@hash, @size, @kind, @owner, @created)');
  const insData = db.prepare('INSERT INTO blob_data (hash, bytes) VALUES (?, ?)');
  const data = db.prepare('SELECT bytes FROM blob_data WHERE hash = ?');
  // Operator blobs (migration 016): owned by the system, pinned, apart from the identities' blobs.
  const opMeta = db.prepare("SELECT hash, size, kind, 'asystem' AS owner, created, pinned_by, pin, note FROM op_blobs WHERE hash = ?");
  const opData = db.prepare('SELECT bytes FROM op_blob_data WHERE hash = ?');
  const opIns = db.prepare('INSERT INTO op_blobs (hash, size, kind, created, pinned_by, pin, note) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const opInsData = db.prepare('INSERT INTO op_blob_data (hash, bytes) VALUES (?, ?)');
  const opPin = db.prepare('UPDATE op_blobs SET pinned_by = ?, pin = ?, note = ? WHERE hash = ?');
  const putPinned = db.transaction((m: BlobMeta, bytes: Buffer, p: BlobPin) => {
    const have = opMeta.get(m.hash) as BlobMeta | undefined;
    if (have) opPin.run(p.by, p.pin, p.note, m.hash);
    else {
      opIns.run(m.hash, m.size, m.kind, m.created, p.by, p.pin, p.note);
      opInsData.run(m.hash, bytes);
    }
    return { meta: opMeta.get(m.hash) as BlobMeta, created: !have };
  });

  const put = db.transaction((m: BlobMeta, bytes: Buffer, maxBytes: number) => {
    const have = meta.get(m.hash) as BlobMeta | undefined;
    // Content-addressed: the same bytes uploaded again are the same blob, charged to the first owner.
    if (have) return { meta: have, created: false };
    if ((used.get(m.owner) as { n: number }).n + m.size > maxBytes) return 'full' as const;
    insMeta.run(m);
    insData.run(m.hash, bytes);
    return { meta: m, created: true };
  });

  return {
    async put(m, bytes, maxBytes) {
      return put(m, bytes, maxBytes);
    },
    async putPinned(m, bytes, pin) {
      return putPinned(m, bytes, pin);
    },
    async meta(hash) {
      return (meta.get(hash) as BlobMeta | undefined) ?? (opMeta.get(hash) as BlobMeta | undefined) ?? null;
    },
    async bytes(hash) {
      return (data.get(hash) as { bytes: Buffer } | undefined)?.bytes ?? (opData.get(hash) as { bytes: Buffer } | undefined)?.bytes ?? null;
    },
  };
}
