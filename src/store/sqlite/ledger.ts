// SQLite implementation of the ledger port: accounts with materialized balances, transactions,
// postings. `ledgerWriter` is shared with the task store so a bounty's state change and its
// credit movement commit in one transaction.
import { accountKind, assertBalanced } from '../../core/platform/ledger/ledger.js';
import type { AuditReport, LedgerRepo, PostingRow, Short, TxDraft } from '../../core/platform/ledger/ports.js';
import { LIMIT, type Db } from './db.js';

/** Thrown inside a transaction to roll it back when an account would go negative. */
export class ShortFunds extends Error {
  constructor(readonly account: string) {
    super(`short ${account}`);
  }
}

export interface LedgerWriter {
  /** Applies a draft; call inside db.transaction. Throws ShortFunds (rolling back) on a short account. */
  apply(tx: TxDraft, now: number): number;
}

export function ledgerWriter(db: Db): LedgerWriter {
  const open = db.prepare('INSERT OR IGNORE INTO ledger_accounts (id, kind) VALUES (?, ?)');
  // The guard keeps every account but the mint at or above zero; the CHECK constraint is the backstop.
  const move = db.prepare("UPDATE ledger_accounts SET balance = balance + @amount WHERE id = @account AND (kind = 'sys' OR balance + @amount >= 0)");
  const insTx = db.prepare('INSERT INTO ledger_tx (kind, ref, created) VALUES (?, ?, ?)');
  const insPosting = db.prepare('INSERT INTO ledger_postings (tx, account, amount) VALUES (?, ?, ?)');
  return {
    apply(tx, now) {
      assertBalanced(tx.postings);
      const n = Number(insTx.run(tx.kind, tx.ref, now).lastInsertRowid);
      for (const p of tx.postings) {
        open.run(p.account, accountKind(p.account));
        if (move.run(p).changes !== 1) throw new ShortFunds(p.account);
        insPosting.run(n, p.account, p.amount);
      }
      return n;
    },
  };
}

/** Runs `fn` in a transaction; a short account rolls it back and comes out as `{short}`. */
export function withFunds<A extends unknown[], R>(db: Db, fn: (...a: A) => R): (...a: A) => R | Short {
  const tx = db.transaction(fn);
  return (...a: A) => {
    try {
      return tx(...a);
    } catch (e) {
      if (e instanceof ShortFunds) return { short: e.account };
      throw e;
    }
  };
}

export function sqliteLedger(db: Db): LedgerRepo {
  const w = ledgerWriter(db);
  const post = withFunds(db, (tx: TxDraft, now: number) => ({ tx: w.apply(tx, now) }));
  const bal = db.prepare('SELECT balance FROM ledger_accounts WHERE id = ?');
  const recent = db.prepare(
    `SELECT p.tx, t.kind, t.ref, p.amount, t.created FROM ledger_postings p JOIN ledger_tx t ON t.n = p.tx
     WHERE p.account = ? ORDER BY p.tx DESC ${LIMIT}`,
  );
  const counts = db.prepare('SELECT (SELECT count(*) FROM ledger_accounts) AS accounts, (SELECT count(*) FROM ledger_tx) AS txs');
  const sums = db.prepare('SELECT kind, coalesce(sum(balance), 0) AS s FROM ledger_accounts GROUP BY kind');
  const unbalanced = db.prepare(
    `SELECT t.n, coalesce(sum(p.amount), 0) AS s, count(p.account) AS k FROM ledger_tx t LEFT JOIN ledger_postings p ON p.tx = t.n
     GROUP BY t.n HAVING s <> 0 OR k < 2 LIMIT 20`,
  );
  const drift = db.prepare(
    `SELECT a.id, a.balance, coalesce((SELECT sum(amount) FROM ledger_postings WHERE account = a.id), 0) AS p
     FROM ledger_accounts a WHERE a.balance <> p LIMIT 20`,
  );
  const negative = db.prepare("SELECT id, balance FROM ledger_accounts WHERE kind <> 'sys' AND balance < 0 LIMIT 20");
  // A held bounty's escrow holds exactly its credits; a paid or refunded one holds nothing.
  const escrows = db.prepare(
    `SELECT t.bounty, t.state, t.credits, coalesce(a.balance, 0) AS balance FROM tasks t LEFT JOIN ledger_accounts a ON a.id = 'e:' || t.bounty
     WHERE t.bounty IS NOT NULL AND coalesce(a.balance, 0) <> CASE WHEN t.state IN ('open', 'claimed', 'done') THEN t.credits ELSE 0 END LIMIT 20`,
  );
  const orphanEscrow = db.prepare(
    `SELECT a.id, a.balance FROM ledger_accounts a WHERE a.kind = 'escrow' AND a.balance <> 0
     AND NOT EXISTS (SELECT 1 FROM tasks t WHERE 'e:' || t.bounty = a.id) LIMIT 20`,
  );

  const audit = db.transaction((): AuditReport => {
    const c = counts.get() as { accounts: number; txs: number };
    const by = new Map((sums.all() as { kind: string; s: number }[]).map((r) => [r.kind, r.s]));
    const minted = 0 - (by.get('sys') ?? 0); // not -0 on an empty ledger
    const held = by.get('id') ?? 0;
    const escrow = by.get('escrow') ?? 0;
    const problems: string[] = [];
    for (const r of unbalanced.all() as { n: number; s: number; k: number }[])
      problems.push(r.k < 2 ? `tx ${r.n} has ${r.k} postings` : `tx ${r.n} sums to ${r.s}`);
    for (const r of drift.all() as { id: string; balance: number; p: number }[])
      problems.push(`account ${r.id} balance ${r.balance} but postings sum to ${r.p}`);
    for (const r of negative.all() as { id: string; balance: number }[]) problems.push(`account ${r.id} negative ${r.balance}`);
    for (const r of escrows.all() as { bounty: string; state: string; credits: number; balance: number }[])
      problems.push(`bounty ${r.bounty} ${r.state} escrow ${r.balance} expected ${['open', 'claimed', 'done'].includes(r.state) ? r.credits : 0}`);
    for (const r of orphanEscrow.all() as { id: string; balance: number }[]) problems.push(`escrow ${r.id} holds ${r.balance} without a bounty`);
    if (held + escrow !== minted) problems.push(`held ${held} + escrow ${escrow} = ${held + escrow} but minted ${minted}`);
    return { accounts: c.accounts, txs: c.txs, minted, held, escrow, problems };
  });

  return {
    async post(tx, now) {
      return post(tx, now);
    },
    async balance(account) {
      return (bal.get(account) as { balance: number } | undefined)?.balance ?? 0;
    },
    async recent(account, limit) {
      return recent.all(account, limit) as PostingRow[];
    },
    async audit() {
      return audit();
    },
  };
}
