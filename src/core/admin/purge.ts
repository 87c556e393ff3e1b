// POST /admin/purge: removes a root tree. The identities are frozen first (their tokens stop at
// once), their credits and the escrows of their open bounties are burned through the ledger (so
// /admin/audit stays at zero drift), then one store transaction deletes their rows in every domain,
// keeps the ledger history under a pseudonym and leaves export tombstones for the published content
// that went (KB entries, tasks, published checkpoints). Tombstones name content ids, never the root.
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { burnTx, escrowOf } from '../platform/ledger/ledger.js';
import { defineOp } from '../kernel/types.js';
import type { Core } from '../kernel/types.js';
import type { Tombstone } from './ports.js';
import { hint, next } from '../kernel/hints.js';

/**
 * The identities of a root's tree. Identities have no children today (no parent link in the
 * identity domain); when sub-identities arrive, this is the one place that lists them.
 */
export async function rootTree(_core: Core, root: string): Promise<string[]> {
  return [root];
}

/** Tombstones removed at or after `since` (ms), oldest first: what an export lists as removed. */
export async function listTombstones(core: Core, since: number, n: number): Promise<Tombstone[]> {
  return core.store.exports.tombstones(since, null, n);
}

export const purgeOp = defineOp({
  name: 'admin.purge',
  title: 'Purge a root (operator)',
  summary:
    'Revoke a root tree: freeze it, burn its credits and bounty escrows through the ledger, delete its rows in every domain, keep tombstones of its published content for exports (admin token).',
  input: z
    .object({
      id: z
        .string()
        .max(7)
        .regex(/^a[0-9a-z]{1,6}$/, 'want an identity id'),
    })
    .strict(),
  output: z.object({ id: z.string(), ids: z.number().int(), rows: z.number().int(), burned: z.number().int(), tombstones: z.number().int() }),
  auth: 'admin',
  readOnly: false,
  destructive: true,
  rest: { method: 'POST', path: '/admin/purge', cache: 'no-store' },
  async run(ctx, input) {
    const { core } = ctx;
    const { store } = core;
    if (!(await store.identities.byId(input.id))) throw new CxError('notfound', `no identity ${input.id}`);
    const ids = await rootTree(core, input.id);
    for (const id of ids) await store.admin.setIdentityFrozen(id, true);
    let burned = 0;
    const burn = async (account: string, ref: string) => {
      const n = await store.ledger.balance(account);
      if (n <= 0) return;
      const r = await store.ledger.post(burnTx(account, ref, n), core.now());
      if ('short' in r) throw new CxError('busy', 'balance moved during the purge, retry', 503);
      burned += n;
    };
    for (const e of await store.admin.escrowsOf(ids)) await burn(escrowOf(e.bounty), e.bounty);
    for (const id of ids) await burn(id, id);
    const at = core.now();
    const pseudo = () => `x:${core.random(6).toString('hex')}`;
    const tomb =
      (kind: string) =>
      (id: string): Tombstone => ({ id, kind, removed_at: at, reason: 'purge' });
    const r = await store.admin.purgeRoots(ids, pseudo, (c) => [...c.kb.map(tomb('kb')), ...c.tasks.map(tomb('task')), ...c.cps.map(tomb('cp'))]);
    core.log.info({ id: input.id, ids: ids.length, rows: r.rows, burned }, 'root purged');
    return { id: input.id, ids: ids.length, rows: r.rows, burned, tombstones: r.tombstones };
  },
  text: (o, ctx) => `ok purged ${o.id} ids=${o.ids} rows=${o.rows} burned=${o.burned} tombstones=${o.tombstones}\n${next(ctx, hint('admin.audit'))}`,
});
