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

/**
 * A confirmation of a KB entry signed with the confirming identity's published key (conf1), or a
 * signed outcome: the same statement with the outcome's kind as a fourth field.
 */
export interface SignedConfirm {
  entry: string;
  id: string;
  /** The kind the statement names; '' (or absent): the three-field form, a confirmation (worked). */
  kind?: '' | 'worked' | 'worked-with-changes' | 'did-not-work';
  /** The key that signed it, as published at the time (a later key does not rewrite it). */
  pub: string;
  sig: string;
  /** Network key of the confirming request (never shown; only counted). */
  net: string;
  at: number;
}

export interface SignedConfirmRepo {
  /**
   * Keeps one signed statement per (entry, identity): a new one, or one of another kind replacing
   * the identity's earlier one (its outcome changed), is kept (true); the same kind again is not (false).
   */
  add(c: SignedConfirm): Promise<boolean>;
  /** Forgets the identity's signed statement on an entry (its outcome changed, unsigned); false when none. */
  drop(entry: string, id: string): Promise<boolean>;
  /** Distinct signed identities and distinct networks among them. */
  count(entry: string): Promise<{ ids: number; nets: number }>;
  /** Oldest first, at most `n`, for readers who verify the signatures. */
  list(entry: string, n: number): Promise<Array<Omit<SignedConfirm, 'net'>>>;
}
