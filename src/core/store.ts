// The ports the core needs from storage, gathered; no domain module imports better-sqlite3.
import type { DropRepo } from './drops/ports.js';
import type { IdentityRepo, SpentProofRepo } from './identity/ports.js';
import type { KbRepo } from './kb/ports.js';
import type { A2aStore } from './a2a/ports.js';
import type { AgentRepo } from './agents/ports.js';

export interface Store {
  identities: IdentityRepo;
  proofs: SpentProofRepo;
  drops: DropRepo;
  kb: KbRepo;
  a2a: A2aStore;
  agents: AgentRepo;
  /** Liveness of the backing store (healthz). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
