// Async ports of the credit ledger; src/store/sqlite/ledger.ts implements them.

export type TxKind = 'grant' | 'mint' | 'escrow' | 'payout' | 'refund' | 'fn' | 'burn' | 'compute' | 'filter';

export interface Posting {
  account: string;
  /** Signed: positive credits the account, negative debits it. */
  amount: number;
}

/** A movement before it is written: at least two postings summing to zero (see ledger.ts). */
export interface TxDraft {
  kind: TxKind;
  ref: string | null;
  postings: Posting[];
}

export interface PostingRow {
  tx: number;
  kind: TxKind;
  ref: string | null;
  amount: number;
  created: number;
}

export interface AuditReport {
  accounts: number;
  txs: number;
  /** Credits ever minted: minus the mint account's balance. */
  minted: number;
  /** Sum over identity accounts. */
  held: number;
  /** Sum over bounty escrows. */
  escrow: number;
  /** One line per discrepancy; empty when the ledger balances. */
  problems: string[];
}

/** Posting would take an account below zero. */
export type Short = { short: string };

export interface LedgerRepo {
  /** Writes one balanced transaction atomically; `short` names the account that would go negative. */
  post(tx: TxDraft, now: number): Promise<{ tx: number } | Short>;
  balance(account: string): Promise<number>;
  /** Latest postings of an account, newest first. */
  recent(account: string, limit: number): Promise<PostingRow[]>;
  /** Recomputes every balance from the postings and checks conservation. */
  audit(): Promise<AuditReport>;
}
