// SQLite implementation of the BlobRepo port: metadata and bytes in two tables, one transaction.
import type { BlobMeta, BlobRepo } from '../../core/blobs/ports.js';
import type { Db } from './db.js';

export function sqliteBlobs(db: Db): BlobRepo {
  const meta = db.prepare('SELECT hash, size, kind, owner, created FROM blobs WHERE hash = ?');
  const used = db.prepare('SELECT coalesce(sum(size), 0) AS n FROM blobs WHERE owner = ?');
  const insMeta = db.prepare('INSERT INTO blobs (hash, size, kind, owner, created) VALUES (@hash, @size, @kind, @owner, @created)');
  const insData = db.prepare('INSERT INTO blob_data (hash, bytes) VALUES (?, ?)');
  const data = db.prepare('SELECT bytes FROM blob_data WHERE hash = ?');

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
    async meta(hash) {
      return (meta.get(hash) as BlobMeta | undefined) ?? null;
    },
    async bytes(hash) {
      return ((data.get(hash) as { bytes: Buffer } | undefined)?.bytes) ?? null;
    },
  };
}
