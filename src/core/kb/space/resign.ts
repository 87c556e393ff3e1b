// A space's private entries re-signed after an ErrSig version change, as the KB's own (their old
// hashes answer the space's members only), so members' lookups keep matching them.
import { resignAll } from '../resign.js';
import type { SpaceKbRepo } from './ports.js';

/** Re-signs every stale private entry of every space; returns how many were re-signed. */
export const resignSpaceKb = (sp: SpaceKbRepo): Promise<number> =>
  resignAll({ staleSigs: (v, n) => sp.kbStaleSigs(v, n), resign: (rows, v) => sp.kbResign(rows, v) });
