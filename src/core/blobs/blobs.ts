// The minimal blob store: content-addressed bytes (sha256 hex) up to the public cap, uploaded with a
// token, read with a token by whoever knows the hash. Cached results point at blobs for results too
// large to keep inline (GET /c/{key} answers 303 to /v1/b/<hash>).
import { createHash } from 'node:crypto';
import { CxError, notFound } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import type { Ctx } from '../kernel/types.js';
import type { BlobMeta } from './ports.js';
import { BLOB_HASH as HASH } from '../platform/ids.js';
import { kindOf, wasmCaps } from '../platform/blob-bytes.js';

export interface BlobPut extends Omit<BlobMeta, 'created'> {
  created: boolean;
  url: string;
}

export async function putBlob(ctx: Ctx, bytes: Buffer): Promise<BlobPut> {
  const max = limit('blob.public');
  if (bytes.length > max) throw new CxError('size', `blob over ${max} bytes`, 413);
  if (!bytes.length) throw new CxError('bad', 'body: empty blob');
  wasmCaps(ctx.core, bytes);
  const hash = createHash('sha256').update(bytes).digest('hex');
  const owner = ctx.caller.identity!.id;
  const r = await ctx.core.store.blobs.put({ hash, size: bytes.length, kind: kindOf(bytes), owner, created: ctx.core.now() }, bytes, limit('blob.per_id'));
  if (r === 'full') throw new CxError('size', `blob storage of ${owner} would pass ${limit('blob.per_id')} bytes`, 413);
  const { meta } = r;
  return { hash, size: meta.size, kind: meta.kind, owner: meta.owner, created: r.created, url: `${ctx.core.config.baseUrl}/v1/b/${hash}` };
}

export async function getBlob(ctx: Ctx, hash: string): Promise<{ meta: BlobMeta; bytes: Buffer }> {
  if (!HASH.test(hash)) throw new CxError('bad', 'hash: want 64 lowercase hex (sha256 of the bytes)');
  const meta = await ctx.core.store.blobs.meta(hash);
  const bytes = meta ? await ctx.core.store.blobs.bytes(hash) : null;
  if (!meta || !bytes) throw notFound();
  return { meta, bytes };
}
