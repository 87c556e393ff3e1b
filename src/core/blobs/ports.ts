// Async port of the blob store (content-addressed by sha256); src/store/sqlite/blobs.ts implements it.

export interface BlobMeta {
  hash: string;
  size: number;
  kind: string;
  owner: string;
  created: number;
}

export interface BlobRepo {
  /** Stores the bytes unless the hash exists (then the existing row is returned, `created` false).
   *  'full' when the owner's stored bytes would pass `maxBytes`. */
  put(meta: BlobMeta, bytes: Buffer, maxBytes: number): Promise<{ meta: BlobMeta; created: boolean } | 'full'>;
  meta(hash: string): Promise<BlobMeta | null>;
  bytes(hash: string): Promise<Buffer | null>;
}
