// Async ports of spaces; src/store/sqlite/spaces.ts and src/store/pg/spaces.ts implement them. The
// private KB entries of closed spaces are the KB's (src/core/kb/space/ports.ts), in the same adapters.
import type { SpaceAccess, SpaceRole } from '../platform/spaces-access.js';

export type { SpaceRole };

export interface Space {
  slug: string;
  title: string;
  creator: string;
  created: number;
  /** Joined only with an invite from an owner; only closed spaces hold private KB entries. */
  closed?: boolean;
}

export interface SpaceCounts {
  members: number;
  /** KB entries authored by the current members. */
  fixes: number;
}

export interface SpaceInvite {
  /** sha256 hex of the one-time token (the token itself is never stored). */
  h: string;
  space: string;
  role: SpaceRole;
  by: string;
  created: number;
  expires: number;
}

/** What leaving (or an owner's removal) did: 'last-owner' refuses it (the space holds private entries). */
export type LeaveResult = 'left' | 'not' | 'last-owner';

/** The spaces' store; its membership reads are what other domains see of spaces (SpaceAccess). */
export interface SpaceRepo extends SpaceAccess {
  /** False when the slug is taken. The creator joins (as owner) in the same transaction. */
  create(s: Space): Promise<boolean>;
  bySlug(slug: string): Promise<Space | null>;
  /** 'new' or 'member' (already one); null for an unknown space. Joins as a member. */
  join(slug: string, member: string, now: number): Promise<'new' | 'member' | null>;
  /**
   * 'left', 'not' (was not a member), or 'last-owner': the member is the space's only owner and it
   * holds private entries, so nothing changed (its entries would have nobody to export, promote or
   * purge them); null for an unknown space. Also what an owner's removal does. Serialized per space,
   * so two owners leaving at once cannot both go.
   */
  leave(slug: string, member: string): Promise<LeaveResult | null>;
  isMember(slug: string, member: string): Promise<boolean>;
  /** The member's role, null when not a member. */
  role(slug: string, member: string): Promise<SpaceRole | null>;
  /**
   * Slugs of the closed spaces (the ones that may hold private KB entries) an identity is a member
   * of. Read on every lookup, never memoized: leaving or removal ends access at once.
   */
  closedSpacesOf(member: string): Promise<string[]>;
  counts(slug: string): Promise<SpaceCounts>;
  /** Newest members first. */
  members(slug: string, limit: number): Promise<Array<{ member: string; joined: number }>>;
  createdBy(id: string): Promise<number>;
  joinedBy(id: string): Promise<number>;

  // ---- invites ----
  addInvite(i: SpaceInvite): Promise<void>;
  /** Invites of a space not yet expired at `now`. */
  openInvites(slug: string, now: number): Promise<number>;
  /**
   * Spends an invite of this space (unexpired at `now`) and makes `member` a member with its role,
   * in one transaction: 'joined', 'member' (already one: the invite is still spent), or null (no
   * such invite for this space, expired, or already used: all the same).
   */
  redeemInvite(h: string, slug: string, member: string, now: number): Promise<'joined' | 'member' | null>;
}
