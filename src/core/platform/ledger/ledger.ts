// Accounts and the shapes of every credit movement. Credits only ever move between accounts;
// the mint is the one source, so the sum over all accounts is always zero.
import { CxError } from '../../kernel/errors.js';
import { limit } from '../../kernel/limits.js';
import type { Ctx, Core } from '../../kernel/types.js';
import type { Posting, TxDraft, TxKind } from './ports.js';

/** The system account every credit comes from; its balance is minus the credits ever minted. */
export const MINT = 'sys:mint';
/** The escrow account holding a bounty's credits until it is paid or refunded. */
export const escrowOf = (bounty: string) => `e:${bounty}`;
/** Where purged credits go (POST /admin/purge): out of circulation, still in the audit's sums. */
export const BURN = 'sys:burn';

export type AccountKind = 'id' | 'escrow' | 'sys';
export const accountKind = (account: string): AccountKind => (account.startsWith('sys:') ? 'sys' : account.startsWith('e:') ? 'escrow' : 'id');

/** A transfer of `n` credits from one account to another. */
function transfer(kind: TxKind, ref: string | null, from: string, to: string, n: number): TxDraft {
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`ledger: bad amount ${n}`);
  if (from === to) throw new Error('ledger: transfer to the same account');
  return {
    kind,
    ref,
    postings: [
      { account: from, amount: -n },
      { account: to, amount: n },
    ],
  };
}

export const grantTx = (to: string, n: number) => transfer('grant', to, MINT, to, n);
export const mintTx = (to: string, n: number) => transfer('mint', to, MINT, to, n);
export const escrowTx = (bounty: string, from: string, n: number) => transfer('escrow', bounty, from, escrowOf(bounty), n);
export const payoutTx = (bounty: string, to: string, n: number) => transfer('payout', bounty, escrowOf(bounty), to, n);
export const refundTx = (bounty: string, to: string, n: number) => transfer('refund', bounty, escrowOf(bounty), to, n);
export const burnTx = (from: string, ref: string, n: number) => transfer('burn', ref, from, BURN, n);

/** Double-entry invariant, checked before anything is written (the store checks again). */
export function assertBalanced(postings: Posting[]): void {
  if (postings.length < 2) throw new Error('ledger: a transaction needs at least two postings');
  if (new Set(postings.map((p) => p.account)).size !== postings.length) throw new Error('ledger: an account posted twice');
  let sum = 0;
  for (const p of postings) {
    if (!Number.isSafeInteger(p.amount) || p.amount === 0) throw new Error(`ledger: bad amount ${p.amount}`);
    sum += p.amount;
  }
  if (sum !== 0) throw new Error(`ledger: postings sum to ${sum}`);
}

/** Starting credits of a new identity, from the mint (registration calls this). */
export async function grantStart(core: Core, id: string): Promise<void> {
  const n = limit('credits.start');
  if (n <= 0) return;
  const r = await core.store.ledger.post(grantTx(id, n), core.now());
  if ('short' in r) throw new Error('ledger: the mint cannot be short');
}

/** The 409 for a movement an account cannot cover. */
export async function shortError(ctx: Ctx, account: string, want: number): Promise<CxError> {
  const have = await ctx.core.store.ledger.balance(account);
  return new CxError('dup', `balance ${have}: ${want} credits not possible`);
}
