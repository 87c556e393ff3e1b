// Async port of the dead-drop domain; src/store/sqlite/drops.ts implements it.
// Rows never hold a secret or a body in clear: `key` is an HMAC of the secret, `ct` the
// AES-256-GCM ciphertext, `wkey` an HMAC of the write key (see crypto.ts).

export interface DropRow {
  /** HMAC-SHA256(server key, secret): the row key. */
  key: Buffer;
  /** Creator identity (token writes), else null. */
  owner: string | null;
  /** HMAC of the `X-Drop-Write` key bound at creation, else null. */
  wkey: Buffer | null;
  nonce: Buffer;
  /** Ciphertext followed by the 16-byte GCM tag. */
  ct: Buffer;
  /** Body length in characters (Unicode code points). */
  size: number;
  /** Expiry, ms since epoch. */
  exp: number;
  /** Reads left. */
  reads: number;
  once: boolean;
  masked: number;
  /** Optimistic-concurrency version, bumped by every write. */
  ver: number;
  created: number;
}

export type DropPatch = Pick<DropRow, 'nonce' | 'ct' | 'size' | 'exp' | 'reads' | 'once' | 'masked'>;

/** What a read hands back: the ciphertext and the state after the read. */
export type ClaimedDrop = Pick<DropRow, 'nonce' | 'ct' | 'size' | 'exp' | 'reads' | 'once'>;

export interface DropRepo {
  /** The live (unexpired) row, or null. */
  get(key: Buffer, now: number): Promise<DropRow | null>;
  /** Metadata of a live row, consuming nothing. */
  peek(key: Buffer, now: number): Promise<Pick<DropRow, 'exp' | 'reads' | 'once' | 'size'> | null>;
  /** Inserts, replacing an expired row; false when a live row holds the key (lost a race). */
  create(row: DropRow, now: number): Promise<boolean>;
  /** Compare-and-set on `ver`; false when the row changed, burnt or expired meanwhile. */
  update(key: Buffer, ver: number, patch: DropPatch, now: number): Promise<boolean>;
  /**
   * One read, as one transaction: decrements reads left only while it is above 0 and the drop
   * is live, and deletes the row when that was the last read. Null when nothing was claimed.
   */
  claim(key: Buffer, now: number): Promise<ClaimedDrop | null>;
  /** Deletes a live row whose owner or write-key tag matches; false otherwise. */
  remove(key: Buffer, owner: string | null, wkey: Buffer | null, now: number): Promise<boolean>;
  /** Deletes expired rows; returns how many. */
  purgeExpired(now: number): Promise<number>;
}
