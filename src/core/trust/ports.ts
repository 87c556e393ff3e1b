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

/** A confirmation of a KB entry signed with the confirming identity's published key (conf1). */
export interface SignedConfirm {
  entry: string;
  id: string;
  /** The key that signed it, as published at the time (a later key does not rewrite it). */
  pub: string;
  sig: string;
  /** Network key of the confirming request (never shown; only counted). */
  net: string;
  at: number;
}

export interface SignedConfirmRepo {
  /** Keeps one signed confirmation per (entry, identity); false when that identity already has one. */
  add(c: SignedConfirm): Promise<boolean>;
  /** Distinct signed identities and distinct networks among them. */
  count(entry: string): Promise<{ ids: number; nets: number }>;
  /** Oldest first, at most `n`, for readers who verify the signatures. */
  list(entry: string, n: number): Promise<Array<Omit<SignedConfirm, 'net'>>>;
}
