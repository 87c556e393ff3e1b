// The last owner of a closed space that still has members or private entries stays (issue 39): an
// ownerless space could never invite, promote or purge again, and its entries would be nobody's.
import { CxError } from '../kernel/errors.js';

/** The one line refusing it, for leaving and for an owner's removal alike. */
export const lastOwner = (slug: string) =>
  new CxError(
    'dup',
    `last owner of s:${slug}: promote another owner first (POST /v1/spaces/${slug}/invite role=owner, joined by a member), or purge the space and remove its members`,
  );
