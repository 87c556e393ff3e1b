// Entries whose signature an earlier ErrSig version made get the current one, from their error
// text, when the server starts: lookups compute current signatures only. Their old hashes keep
// resolving (the store's alias), so clients still hashing with an older /errsig.js find them.
// Public entries and the private entries of spaces are re-signed the same way (issue 39).
import { classOf } from './classify.js';
import { ERRSIG_VERSION, errsig } from './errsig/errsig.js';
import type { KbRepo, Resign } from './ports.js';
import { flat } from './render.js';

const BATCH = 500;

/** What re-signing needs of a store of entries (the KB's, or a space's private ones). */
export type Signable = Pick<KbRepo, 'staleSigs' | 'resign'>;

/** Re-signs every stale entry in batches; returns how many were re-signed. */
export async function resignAll(kb: Signable): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await kb.staleSigs(ERRSIG_VERSION, BATCH);
    if (!rows.length) return total;
    const out: Resign[] = rows.map((r) => {
      const s = errsig(r.error);
      // A title that was only the old signature (publish without a title) follows the signature.
      const title = r.title === flat(r.sig, 120) ? flat(s.sig, 120) : r.title;
      return { id: r.id, sig: s.sig, h: s.h, ch: s.ch, cls: classOf(s.sig), title };
    });
    const n = await kb.resign(out, ERRSIG_VERSION);
    total += n;
    if (n === 0) return total; // nothing moved: stop rather than ask again for the same rows
  }
}

/** Re-signs every stale public entry; returns how many were re-signed. */
export const resignKb = (kb: KbRepo): Promise<number> => resignAll(kb);
