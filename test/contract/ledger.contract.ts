// Credit ledger: balanced transactions written atomically, no account but the mint below zero
// (also under concurrent spending), newest-first postings, conservation checked by the audit.
import { expect, it } from 'vitest';
import { MINT, mintTx } from '../../src/core/platform/ledger/ledger.js';
import type { TxDraft } from '../../src/core/platform/ledger/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { together } from './fixtures.js';

const pay = (from: string, to: string, n: number, ref: string | null = null): TxDraft => ({
  kind: 'payout',
  ref,
  postings: [
    { account: from, amount: -n },
    { account: to, amount: n },
  ],
});

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('posts balanced movements; balances follow and the mint goes negative by what it minted', async () => {
    const s = await open();
    const now = s.clock.now();
    expect(await s.store.ledger.balance('a000001')).toBe(0);
    const r = await s.store.ledger.post(mintTx('a000001', 100), now);
    expect(r).toMatchObject({ tx: expect.any(Number) });
    await s.store.ledger.post(pay('a000001', 'a000002', 30), now + 1);
    expect(await s.store.ledger.balance('a000001')).toBe(70);
    expect(await s.store.ledger.balance('a000002')).toBe(30);
    expect(await s.store.ledger.balance(MINT)).toBe(-100);
    const a = await s.store.ledger.audit();
    expect(a).toMatchObject({ minted: 100, held: 100, escrow: 0, txs: 2, problems: [] });
  });

  it('refuses an overdraft as short, naming the account, and writes none of the transaction', async () => {
    const s = await open();
    const now = s.clock.now();
    await s.store.ledger.post(mintTx('a000001', 10), now);
    expect(await s.store.ledger.post(pay('a000001', 'a000002', 11), now)).toEqual({ short: 'a000001' });
    // The credit is posted before the short debit: it must not stay written.
    const three: TxDraft = {
      kind: 'payout',
      ref: null,
      postings: [
        { account: 'a000003', amount: 5 },
        { account: 'a000002', amount: -5 },
      ],
    };
    expect(await s.store.ledger.post(three, now)).toEqual({ short: 'a000002' });
    expect(await s.store.ledger.balance('a000001')).toBe(10);
    expect(await s.store.ledger.balance('a000002')).toBe(0);
    expect(await s.store.ledger.balance('a000003')).toBe(0);
    expect(await s.store.ledger.recent('a000003', 10)).toEqual([]);
    expect(await s.store.ledger.audit()).toMatchObject({ txs: 1, minted: 10, held: 10, problems: [] });
  });

  it('rejects an unbalanced or one-sided draft and writes nothing', async () => {
    const s = await open();
    const now = s.clock.now();
    await expect(
      s.store.ledger.post(
        {
          kind: 'mint',
          ref: null,
          postings: [
            { account: MINT, amount: -5 },
            { account: 'a000001', amount: 4 },
          ],
        },
        now,
      ),
    ).rejects.toThrow();
    await expect(s.store.ledger.post({ kind: 'mint', ref: null, postings: [{ account: 'a000001', amount: 4 }] }, now)).rejects.toThrow();
    expect(await s.store.ledger.balance('a000001')).toBe(0);
    expect(await s.store.ledger.audit()).toMatchObject({ txs: 0, minted: 0, problems: [] });
  });

  it('concurrent spending never overdraws: 40 payments of 1 from a balance of 25, exactly 25 go through', async () => {
    const s = await open();
    const now = s.clock.now();
    await s.store.ledger.post(mintTx('a000001', 25), now);
    const res = await together(40, (i) => s.store.ledger.post(pay('a000001', `a1${String(i).padStart(5, '0')}`, 1), now));
    expect(res.filter((r) => 'tx' in r)).toHaveLength(25);
    expect(res.filter((r) => 'short' in r).every((r) => (r as { short: string }).short === 'a000001')).toBe(true);
    expect(await s.store.ledger.balance('a000001')).toBe(0);
    expect(await s.store.ledger.audit()).toMatchObject({ minted: 25, held: 25, txs: 26, problems: [] });
  });

  it('concurrent transfers in a ring conserve every credit', async () => {
    const s = await open();
    const now = s.clock.now();
    const ids = ['a000001', 'a000002', 'a000003', 'a000004'];
    for (const id of ids) await s.store.ledger.post(mintTx(id, 5), now);
    await together(60, (i) => s.store.ledger.post(pay(ids[i % 4]!, ids[(i + 1) % 4]!, 1 + (i % 3)), now));
    const total = (await Promise.all(ids.map((id) => s.store.ledger.balance(id)))).reduce((a, b) => a + b, 0);
    expect(total).toBe(20);
    for (const id of ids) expect(await s.store.ledger.balance(id)).toBeGreaterThanOrEqual(0);
    expect(await s.store.ledger.audit()).toMatchObject({ minted: 20, held: 20, problems: [] });
  });

  it("recent: an account's postings newest first, signed, with kind, ref and time, limited", async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.ledger.post(mintTx('a000001', 50), t);
    await s.store.ledger.post(pay('a000001', 'a000002', 7, 'b00000001'), t + 1);
    await s.store.ledger.post(pay('a000002', 'a000001', 2, 'b00000002'), t + 2);
    const rows = await s.store.ledger.recent('a000001', 10);
    expect(rows.map((r) => [r.kind, r.ref, r.amount, r.created])).toEqual([
      ['payout', 'b00000002', 2, t + 2],
      ['payout', 'b00000001', -7, t + 1],
      ['mint', 'a000001', 50, t],
    ]);
    expect(rows[0]!.tx).toBeGreaterThan(rows[1]!.tx);
    expect(await s.store.ledger.recent('a000001', 2)).toEqual(rows.slice(0, 2));
  });

  it('balances and postings survive a restart', async () => {
    const s = await open();
    const now = s.clock.now();
    await s.store.ledger.post(mintTx('a000001', 9), now);
    await s.store.ledger.post(pay('a000001', 'a000002', 4), now);
    const again = await s.reopen();
    expect(await again.ledger.balance('a000001')).toBe(5);
    expect(await again.ledger.balance('a000002')).toBe(4);
    expect(await again.ledger.recent('a000002', 5)).toHaveLength(1);
    expect(await again.ledger.audit()).toMatchObject({ minted: 9, held: 9, txs: 2, problems: [] });
    expect(await again.ledger.post(pay('a000002', 'a000001', 5), now)).toEqual({ short: 'a000002' });
  });
}
