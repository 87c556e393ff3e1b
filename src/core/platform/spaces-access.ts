// What a domain may know of spaces without importing them (issue 36): whether a space exists and
// is closed, and an identity's membership and role in it. The private KB of closed spaces
// (src/core/kb/space) asks this; the spaces domain's store implements it (SpaceRepo extends it),
// and the composition root hands it to the core as `core.spaceAccess`.

export type SpaceRole = 'owner' | 'member';

export interface SpaceAccess {
  /** The space; null when it does not exist. `closed`: joined only with an owner's invite, the only kind that holds private KB entries. */
  bySlug(slug: string): Promise<{ closed?: boolean } | null>;
  isMember(slug: string, member: string): Promise<boolean>;
  /** The member's role, null when not a member. */
  role(slug: string, member: string): Promise<SpaceRole | null>;
  /** Slugs of the closed spaces an identity is a member of; read on every call, never memoized (leaving ends access at once). */
  closedSpacesOf(member: string): Promise<string[]>;
}
