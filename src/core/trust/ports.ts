// Identity signing keys (PUT /v1/key, /a/{id}/did.json): one published Ed25519 key per identity.

export interface IdentityKey {
  id: string;
  /** Raw Ed25519 public key, 64 hex characters. */
  pub: string;
  /** When it was published (ms). */
  at: number;
}

export interface IdentityKeyRepo {
  /** Publishes (or replaces) the identity's key. */
  put(key: IdentityKey): Promise<void>;
  get(id: string): Promise<IdentityKey | null>;
}
