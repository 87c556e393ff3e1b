// What a domain may know of spaces without importing them (issue 36): whether a space exists and
// is closed, and an identity's membership and role in it. The private KB of closed spaces
// (src/core/kb/space) asks this; the spaces domain's store implements it (SpaceRepo extends it),
// and the composition root hands it to the core as `core.spaceAccess`.

import { CxError } from '../kernel/errors.js';

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

/**
 * The space, when the caller holds the role asked in it (an owner is also a member). A non-member
 * learns nothing (the same notfound as an unknown space); a member asking for an owner's act is
 * refused. One rule for every domain that acts on a space (spaces' own acts, the private KB's).
 */
export async function spaceAs<S extends object>(
  spaces: Pick<SpaceAccess, 'role'> & { bySlug(slug: string): Promise<S | null> },
  me: string,
  slug: string,
  need: SpaceRole,
): Promise<S> {
  const sp = await spaces.bySlug(slug);
  const role = sp ? await spaces.role(slug, me) : null;
  if (!sp || !role) throw new CxError('notfound', `no space s:${slug} you are a member of`);
  if (need === 'owner' && role !== 'owner') throw new CxError('auth', `owners of s:${slug} only`, 403);
  return sp;
}
