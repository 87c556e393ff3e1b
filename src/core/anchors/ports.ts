// Async port of anchors (rendezvous keys); src/store/sqlite/anchors.ts implements it.
import type { Identity } from '../platform/identity/ports.js';

export interface AnchorClaim {
  key: string;
  owner: string;
  note: string;
  cp: string | null;
  created: number;
  updated: number;
  exp: number;
}

export interface AnchorRepo {
  /**
   * Claims or renews (key, owner) in one transaction. 'full' when the key already has `perKey`
   * other claimants; 'mine_full' when the owner already holds `perOwner` other claims.
   */
  claim(c: AnchorClaim, now: number, perKey: number, perOwner: number): Promise<{ claimants: number; renewed: boolean } | 'full' | 'mine_full'>;
  /** Live claims of a key with their claimants, oldest claim first. Frozen claimants are left out. */
  claimants(key: string, now: number): Promise<Array<{ claim: AnchorClaim; who: Identity }>>;
  unclaim(key: string, owner: string, now: number): Promise<boolean>;
  mine(owner: string, now: number, n: number): Promise<AnchorClaim[]>;
  purgeExpired(now: number): Promise<number>;
}
