// Credit operations: an identity's balance and postings; the operator's mint and audit.
import { iso } from '../../kernel/text.js';
import { z } from 'zod';
import { CxError } from '../../kernel/errors.js';
import { limit } from '../../kernel/limits.js';
import { defineOp } from '../../kernel/types.js';
import type { AnyOperation } from '../../kernel/types.js';
import { mintTx } from './ledger.js';
import { hint, next } from '../../kernel/hints.js';

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

const postingOut = z.object({ tx: z.number().int(), kind: z.string(), ref: z.string().nullable(), amount: z.number().int(), date: z.string() });

export const creditsShowOp = defineOp({
  name: 'credits.show',
  title: 'My credits',
  summary: 'Your credit balance, what you hold in escrow for your open bounties, and your latest postings (signed amounts, newest first).',
  input: z.object({ n: z.number().int().min(1).max(limit('credits.recent')).default(20) }).strict(),
  output: z.object({ id: z.string(), balance: z.number().int(), escrowed: z.number().int(), postings: z.array(postingOut) }),
  auth: 'token',
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/v1/credits', cache: 'no-store' },
  async run(ctx, input) {
    const { store } = ctx.core;
    const id = ctx.caller.identity!.id;
    const [balance, escrowed, rows] = await Promise.all([store.ledger.balance(id), store.tasks.escrowedBy(id), store.ledger.recent(id, input.n)]);
    return { id, balance, escrowed, postings: rows.map((r) => ({ tx: r.tx, kind: r.kind, ref: r.ref, amount: r.amount, date: iso(r.created) })) };
  },
  text: (o, ctx) =>
    [
      `credits ${o.id} balance=${o.balance} escrowed=${o.escrowed}`,
      ...o.postings.map((p) => `${p.date} ${signed(p.amount)} ${p.kind}${p.ref && p.ref !== o.id ? ` ${p.ref}` : ''} tx=${p.tx}`),
      next(ctx, hint('task.create', undefined, 'with bounty=<n> to pay for work;'), ' ', hint('task.list', { state: 'open' }, 'for bounties to earn')),
    ].join('\n'),
});

export const adminCreditsOp = defineOp({
  name: 'admin.credits',
  title: 'Mint grant credits (operator)',
  summary: 'Mint grant credits to an identity from the system mint (admin token).',
  input: z
    .object({
      id: z
        .string()
        .max(7)
        .regex(/^a[0-9a-z]{1,6}$/, 'want an identity id'),
      n: z.number().int().min(1).max(limit('credits.n')),
    })
    .strict(),
  output: z.object({ id: z.string(), n: z.number().int(), balance: z.number().int(), tx: z.number().int() }),
  auth: 'admin',
  readOnly: false,
  rest: { method: 'POST', path: '/admin/credits', cache: 'no-store' },
  async run(ctx, input) {
    const { store } = ctx.core;
    if (!(await store.identities.byId(input.id))) throw new CxError('notfound', `no identity ${input.id}`);
    const r = await store.ledger.post(mintTx(input.id, input.n), ctx.core.now());
    if ('short' in r) throw new Error('ledger: the mint cannot be short');
    return { id: input.id, n: input.n, balance: await store.ledger.balance(input.id), tx: r.tx };
  },
  text: (o, ctx) => `ok minted ${o.n} to ${o.id} balance=${o.balance} tx=${o.tx}\n${next(ctx, hint('admin.audit'))}`,
});

export const adminAuditOp = defineOp({
  name: 'admin.audit',
  title: 'Ledger conservation audit',
  summary:
    'Recompute every balance from the postings: each transaction sums to zero, no account is negative, escrows match their bounties, and identities plus escrows hold exactly what was minted (poll token).',
  input: z.object({}).strict(),
  output: z.object({
    ok: z.boolean(),
    accounts: z.number().int(),
    txs: z.number().int(),
    minted: z.number().int(),
    held: z.number().int(),
    escrow: z.number().int(),
    problems: z.array(z.string()),
  }),
  auth: 'poll',
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/admin/audit', cache: 'no-store' },
  async run(ctx) {
    const a = await ctx.core.store.ledger.audit();
    return { ok: a.problems.length === 0, ...a };
  },
  text: (o, ctx) =>
    [
      `${o.ok ? 'ok' : 'fail'} audit accounts=${o.accounts} txs=${o.txs} minted=${o.minted} held=${o.held} escrow=${o.escrow} problems=${o.problems.length}`,
      ...o.problems,
      next(ctx, hint('admin.stats'), ' for the rest of the service'),
    ].join('\n'),
});

export const ledgerOps: AnyOperation[] = [creditsShowOp, adminCreditsOp, adminAuditOp];
