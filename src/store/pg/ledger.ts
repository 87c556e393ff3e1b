// The credit ledger on PostgreSQL (port: src/core/platform/ledger/ports.ts): accounts with materialized
// balances, transactions, postings. `applyTx` is shared with the task store so a bounty's state
// change and its credit movement commit in one transaction.
import { accountKind, assertBalanced } from '../../core/platform/ledger/ledger.js';
import type { AuditReport, LedgerRepo, PostingRow, Short, TxDraft } from '../../core/platform/ledger/ports.js';
import type { Q, Sql } from './sql.js';

/** Thrown inside a transaction to roll it back when an account would go negative. */
export class ShortFunds extends Error {
  constructor(readonly account: string) {
    super(`short ${account}`);
  }
}

/**
 * Applies a draft inside `q`'s transaction; throws ShortFunds (rolling it back) on a short account.
 * Accounts are updated in id order, so concurrent movements over the same accounts (a ring of
 * transfers) lock them in one order and never deadlock.
 */
export async function applyTx(q: Q, tx: TxDraft, now: number): Promise<number> {
  assertBalanced(tx.postings);
  const n = (await q.query<{ n: number }>('INSERT INTO ledger_tx (kind, ref, created) VALUES ($1, $2, $3) RETURNING n', [tx.kind, tx.ref, now])).rows[0]!.n;
  const first = tx.postings.map((p, i) => ({ p, i }));
  for (const { p } of [...first].sort((a, b) => (a.p.account < b.p.account ? -1 : a.p.account > b.p.account ? 1 : a.i - b.i))) {
    await q.query('INSERT INTO ledger_accounts (id, kind) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [p.account, accountKind(p.account)]);
    // The guard keeps every account but the mint at or above zero; the CHECK constraint is the backstop.
    const moved = await q.query("UPDATE ledger_accounts SET balance = balance + $2 WHERE id = $1 AND (kind = 'sys' OR balance + $2 >= 0)", [
      p.account,
      p.amount,
    ]);
    if (moved.count !== 1) throw new ShortFunds(p.account);
    await q.query('INSERT INTO ledger_postings (tx, account, amount) VALUES ($1, $2, $3)', [n, p.account, p.amount]);
  }
  return n;
}

/** Runs `fn` in a transaction; a short account rolls it back and comes out as `{short}`. */
export async function withFunds<R>(sql: Sql, fn: (q: Q) => Promise<R>): Promise<R | Short> {
  try {
    return await sql.tx(fn);
  } catch (e) {
    if (e instanceof ShortFunds) return { short: e.account };
    throw e;
  }
}

export function pgLedger(sql: Sql): LedgerRepo {
  return {
    async post(tx, now) {
      assertBalanced(tx.postings);
      return withFunds(sql, async (q) => ({ tx: await applyTx(q, tx, now) }));
    },
    async balance(account) {
      return (await sql.query<{ balance: number }>('SELECT balance FROM ledger_accounts WHERE id = $1', [account])).rows[0]?.balance ?? 0;
    },
    async recent(account, limit) {
      return (
        await sql.query<PostingRow>(
          `SELECT p.tx, t.kind, t.ref, p.amount, t.created FROM ledger_postings p JOIN ledger_tx t ON t.n = p.tx
           WHERE p.account = $1 ORDER BY p.tx DESC LIMIT $2`,
          [account, limit],
        )
      ).rows;
    },
    async audit() {
      return sql.tx(async (q): Promise<AuditReport> => {
        await q.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        const c = (
          await q.query<{ accounts: number; txs: number }>('SELECT (SELECT count(*) FROM ledger_accounts) AS accounts, (SELECT count(*) FROM ledger_tx) AS txs')
        ).rows[0]!;
        const by = new Map(
          (await q.query<{ kind: string; s: number }>('SELECT kind, coalesce(sum(balance), 0)::int8 AS s FROM ledger_accounts GROUP BY kind')).rows.map((r) => [
            r.kind,
            r.s,
          ]),
        );
        const minted = 0 - (by.get('sys') ?? 0); // not -0 on an empty ledger
        const held = by.get('id') ?? 0;
        const escrow = by.get('escrow') ?? 0;
        const problems: string[] = [];
        const unbalanced = await q.query<{ n: number; s: number; k: number }>(
          `SELECT t.n, coalesce(sum(p.amount), 0)::int8 AS s, count(p.account) AS k FROM ledger_tx t LEFT JOIN ledger_postings p ON p.tx = t.n
           GROUP BY t.n HAVING coalesce(sum(p.amount), 0) <> 0 OR count(p.account) < 2 LIMIT 20`,
        );
        for (const r of unbalanced.rows) problems.push(r.k < 2 ? `tx ${r.n} has ${r.k} postings` : `tx ${r.n} sums to ${r.s}`);
        const drift = await q.query<{ id: string; balance: number; p: number }>(
          `SELECT id, balance, p FROM (SELECT a.id, a.balance, coalesce((SELECT sum(amount) FROM ledger_postings WHERE account = a.id), 0)::int8 AS p FROM ledger_accounts a) x
           WHERE balance <> p LIMIT 20`,
        );
        for (const r of drift.rows) problems.push(`account ${r.id} balance ${r.balance} but postings sum to ${r.p}`);
        for (const r of (await q.query<{ id: string; balance: number }>("SELECT id, balance FROM ledger_accounts WHERE kind <> 'sys' AND balance < 0 LIMIT 20"))
          .rows)
          problems.push(`account ${r.id} negative ${r.balance}`);
        // A held bounty's escrow holds exactly its credits; a paid or refunded one holds nothing.
        const escrows = await q.query<{ bounty: string; state: string; credits: number; balance: number }>(
          `SELECT t.bounty, t.state, t.credits, coalesce(a.balance, 0) AS balance FROM tasks t LEFT JOIN ledger_accounts a ON a.id = 'e:' || t.bounty
           WHERE t.bounty IS NOT NULL AND coalesce(a.balance, 0) <> CASE WHEN t.state IN ('open', 'claimed', 'done') THEN t.credits ELSE 0 END LIMIT 20`,
        );
        for (const r of escrows.rows)
          problems.push(`bounty ${r.bounty} ${r.state} escrow ${r.balance} expected ${['open', 'claimed', 'done'].includes(r.state) ? r.credits : 0}`);
        const orphans = await q.query<{ id: string; balance: number }>(
          `SELECT a.id, a.balance FROM ledger_accounts a WHERE a.kind = 'escrow' AND a.balance <> 0
           AND NOT EXISTS (SELECT 1 FROM tasks t WHERE 'e:' || t.bounty = a.id) LIMIT 20`,
        );
        for (const r of orphans.rows) problems.push(`escrow ${r.id} holds ${r.balance} without a bounty`);
        if (held + escrow !== minted) problems.push(`held ${held} + escrow ${escrow} = ${held + escrow} but minted ${minted}`);
        return { accounts: c.accounts, txs: c.txs, minted, held, escrow, problems };
      });
    },
  };
}
