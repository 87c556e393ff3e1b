// The ports the core needs from storage, gathered; no domain module imports better-sqlite3.
import type { IdentityRepo, SpentProofRepo } from './identity/ports.js';

export interface Store {
  identities: IdentityRepo;
  proofs: SpentProofRepo;
  /** Liveness of the backing store (healthz). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
