// Generated secrets behind a port: the operator tokens, the PoW seal key, the dead-drop and the
// workspace master keys, the statement signing key ring (src/core/platform/trust/keys.ts). Made once on first start and kept; every process serving the same data
// must read the same values (a proof sealed by one replica is checked by another, a drop sealed by
// one is opened by another).
//
// Synchronous on purpose: the configuration is built synchronously at start-up (src/config.ts).
// A shared implementation (a PostgreSQL table, a secret manager) loads the names below before the
// configuration is built, creating the missing ones with "first writer wins", and answers from
// that snapshot; the file implementation is src/store/files/keys.ts.

// `signing` is made by the core at start (buildCore), not by the config.
export const SECRET_NAMES = ['operator-tokens', 'seal', 'drops', 'workspace', 'signing'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

export interface KeptSecret {
  value: string;
  /** True when this call made it (the operator is told where the generated tokens are). */
  created: boolean;
  /** Where it is kept, for that message (a path, a table name). */
  where: string;
}

export interface KeyStore {
  /**
   * The secret `name`, or `make()` kept as it when there is none. Concurrent first uses agree on one
   * value: the first one kept wins and the others read it.
   */
  keep(name: SecretName, make: () => string): KeptSecret;
  /**
   * Replaces the value of `name` at once (readers see the old or the new value, never a mix). Only
   * secrets that change on purpose use it (the signing key ring on rotation or a new certificate).
   */
  replace(name: SecretName, value: string): void;
  /** The current value of `name` (no creation): for holders that re-read a secret another process may replace. */
  read(name: SecretName): string | null;
  /**
   * Read-modify-write of `name` as one step across every process on the store: `change` gets the value
   * kept now (null when none) and returns the value to keep, or throws to keep it unchanged. Two
   * concurrent updates never both start from the same value (the signing ring's rotations and
   * certificates: a lost update would drop a `prev` key). Returns what was kept.
   */
  update(name: SecretName, change: (current: string | null) => string): string;
}

/**
 * Fingerprints of the secrets (src/core/platform/secrets/prints.ts), kept in the store every replica shares:
 * recorded at first start, compared at every start, so a replica given other keys refuses to start
 * instead of silently disagreeing (a drop sealed by one unreadable on another).
 */
export interface KeyPrintRepo {
  /** Records each print whose name has none yet (the first writer wins); returns every recorded print. */
  keep(prints: Record<string, string>, now: number): Promise<Record<string, string>>;
  /** Replaces the recorded print of `name` (a rotation, or the operator accepting new keys). */
  set(name: string, print: string, now: number): Promise<void>;
}
