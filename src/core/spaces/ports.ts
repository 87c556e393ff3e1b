// Async ports of spaces; src/store/sqlite/spaces.ts implements them.

export interface Space {
  slug: string;
  title: string;
  creator: string;
  created: number;
}

export interface SpaceCounts {
  members: number;
  /** KB entries authored by the current members. */
  fixes: number;
}

export interface SpaceRepo {
  /** False when the slug is taken. The creator joins in the same transaction. */
  create(s: Space): Promise<boolean>;
  bySlug(slug: string): Promise<Space | null>;
  /** 'new' or 'member' (already one); null for an unknown space. */
  join(slug: string, member: string, now: number): Promise<'new' | 'member' | null>;
  /** 'left' or 'not' (was not a member); null for an unknown space. */
  leave(slug: string, member: string): Promise<'left' | 'not' | null>;
  isMember(slug: string, member: string): Promise<boolean>;
  counts(slug: string): Promise<SpaceCounts>;
  /** Newest members first. */
  members(slug: string, limit: number): Promise<Array<{ member: string; joined: number }>>;
  createdBy(id: string): Promise<number>;
  joinedBy(id: string): Promise<number>;
}
