// Rows the contracts need as preconditions, written through the ports themselves.
import { randomBytes } from 'node:crypto';
import type { Identity } from '../../src/core/platform/identity/ports.js';
import type { Store } from '../../src/compose/store.js';
import type { VoteResult } from '../../src/core/kb/ports.js';
import { tallyFn } from '../../src/core/kb/outcomes.js';

let n = 0;
/** A fresh identity id (a + 6 chars), unique within the test run. */
export const newId = (prefix = 'a', len = 6): string => `${prefix}${(n++).toString(36).padStart(len, '0')}`.slice(0, len + 1);

/** Creates an identity (with a throwaway token) and returns it. */
export async function identity(store: Store, created: number, o: Partial<Identity> = {}): Promise<Identity> {
  const rec: Identity = { id: newId(), name: null, created, rep: 0, confirmed: 0, frozen: false, ...o };
  await store.identities.create(rec, randomBytes(16).toString('hex'));
  return rec;
}

/** `k` promises started at once (the store sees them concurrently, as a pooled adapter would). */
export const together = <T>(k: number, f: (i: number) => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: k }, (_, i) => f(i)));

/**
 * An outcome worked (ok) or did-not-work through KbRepo.outcome with the service's tally, as POST
 * /k/{id}/ok and /fail record them (from `net`, '' by default: no network shared with anyone).
 */
export async function vote(store: Store, id: string, voter: string, ok: boolean, now: number, net = ''): Promise<VoteResult | null> {
  const r = await store.kb.outcome(
    { entry: id, voter, kind: ok ? 'worked' : 'did-not-work', note: '', evidence: null, net, root: voter, at: now, keep: true },
    tallyFn,
  );
  return r === null ? null : r.result;
}
