// Async ports of spaces; src/store/sqlite/spaces.ts and src/store/pg/spaces.ts implement them.

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

export type SpaceRole = 'owner' | 'member';

export interface SpaceInvite {
  /** sha256 hex of the one-time token (the token itself is never stored). */
  h: string;
  space: string;
  role: SpaceRole;
  by: string;
  created: number;
  expires: number;
}

/** A private KB entry of a space: never in kb_entries, never on a public surface. */
export interface SpaceEntry {
  id: string;
  space: string;
  sig: string;
  h: string;
  ch: string;
  title: string;
  error: string;
  fix: string;
  eco: string;
  cls: string;
  tags: string[];
  /** name@ver strings. */
  libs: string[];
  author: string;
  created: number;
}

export interface SpaceRepo {
  /** False when the slug is taken. The creator joins (as owner) in the same transaction. */
  create(s: Space): Promise<boolean>;
  bySlug(slug: string): Promise<Space | null>;
  /** 'new' or 'member' (already one); null for an unknown space. Joins as a member. */
  join(slug: string, member: string, now: number): Promise<'new' | 'member' | null>;
  /** 'left' or 'not' (was not a member); null for an unknown space. Also what an owner's removal does. */
  leave(slug: string, member: string): Promise<'left' | 'not' | null>;
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

  // ---- private KB entries ----
  /** False when the id is taken. */
  kbInsert(e: SpaceEntry): Promise<boolean>;
  /** The entry when it belongs to one of `spaces`; else null (as for an unknown id). */
  kbById(id: string, spaces: string[]): Promise<SpaceEntry | null>;
  /** Entries of these spaces with this signature hash, newest first. */
  kbByHash(h: string, spaces: string[], limit: number): Promise<SpaceEntry[]>;
  kbByCoarse(ch: string, spaces: string[], limit: number): Promise<SpaceEntry[]>;
  /** Entries of these spaces whose text holds ANY of the words (lower case), most words first. */
  kbRetrieve(words: string[], spaces: string[], limit: number): Promise<SpaceEntry[]>;
  /** Entries of these spaces whose text holds ALL of the words, newest first. */
  kbSearch(words: string[], spaces: string[], limit: number): Promise<SpaceEntry[]>;
  /** A space's entries, oldest first (export), at most `limit`. */
  kbList(slug: string, limit: number): Promise<SpaceEntry[]>;
  kbCount(slug: string): Promise<number>;
  /** Deletes every KB entry and open invite of a space; returns the entries deleted. */
  kbPurge(slug: string): Promise<number>;
}
