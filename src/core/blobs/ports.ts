// Async port of the blob store (content-addressed by sha256); src/store/sqlite/blobs.ts implements it.

export interface BlobMeta {
  hash: string;
  size: number;
  kind: string;
  owner: string;
  created: number;
  /** Operator blobs only (PUT /admin/blob): who pinned it, and the optional `<name>@<ver>` pin and note. */
  pinned_by?: string;
  pin?: string | null;
  note?: string | null;
}

/** The pin of an operator blob. */
export interface BlobPin {
  by: string;
  /** `<name>@<ver>` or null. */
  pin: string | null;
  note: string | null;
}

export interface BlobRepo {
  /** Stores the bytes unless the hash exists (then the existing row is returned, `created` false).
   *  'full' when the owner's stored bytes would pass `maxBytes`. */
  put(meta: BlobMeta, bytes: Buffer, maxBytes: number): Promise<{ meta: BlobMeta; created: boolean } | 'full'>;
  /**
   * An operator blob (PUT /admin/blob): no per-owner budget (the caller checks the operator cap); the
   * same bytes again keep their row and take the new pin. Owner is the system (`asystem`).
   */
  putPinned(meta: BlobMeta, bytes: Buffer, pin: BlobPin): Promise<{ meta: BlobMeta; created: boolean }>;
  /** Public blobs first, then operator blobs (those carry pinned_by, pin, note). */
  meta(hash: string): Promise<BlobMeta | null>;
  bytes(hash: string): Promise<Buffer | null>;
}
