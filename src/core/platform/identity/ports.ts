// Async ports of the identity domain; src/store implements them.

// The kernel defines them (operation types name them); re-exported for the platform and domains.
export type { Identity, TokenClass } from '../../kernel/caller.js';
import type { Identity, TokenClass } from '../../kernel/caller.js';
import type { Ctx } from '../../kernel/types.js';

/**
 * The operator's registration policy for the caller's network (refuses, or charges a shared
 * bucket), run before the proof is spent. The admin domain's ASN policy implements it
 * (src/core/admin/asn.ts); the composition root hands it to the core as `core.registrationPolicy`.
 */
export type RegistrationPolicy = (ctx: Ctx) => Promise<void>;

export interface IdentityRepo {
  /** Creates the identity and its first user token (hash only) in one transaction. */
  create(rec: Identity, tokenHash: string): Promise<void>;
  byId(id: string): Promise<Identity | null>;
  /** Resolves a token hash of the given class to its (unfrozen or frozen) identity. */
  byToken(tokenHash: string, cls: TokenClass): Promise<Identity | null>;
  addToken(id: string, tokenHash: string, cls: TokenClass, created: number): Promise<void>;
  count(): Promise<number>;
}

export interface SpentProofRepo {
  /** Records a spent proof; false when it was already spent (replay). */
  spend(challenge: string, exp: number): Promise<boolean>;
  purgeExpired(now: number): Promise<number>;
}

/**
 * Registration counts behind the adaptive PoW difficulty (pow-rate.ts), in buckets (`bucket`: its
 * start, epoch ms). In the store so that every process on it counts every registration.
 */
export interface PowRateRepo {
  /** One registration from `net` (never ''), in the bucket starting at `bucket`. */
  note(net: string, bucket: number): Promise<void>;
  /** Registrations in the buckets starting after `since`: in all, and from `net` (0 for null). */
  counts(net: string | null, since: number): Promise<{ global: number; net: number }>;
  /** The highest count of one network in the buckets starting after `since` (0 when none). */
  busiest(since: number): Promise<number>;
  /** Forgets the buckets starting at or before `before`; returns how many rows went. */
  purge(before: number): Promise<number>;
}
