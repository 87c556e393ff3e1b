// Operator marks: seed roots (POST /admin/seed-root) and hidden status pages (POST /admin/st-hide).
// Other domains read them through `isSeedRoot` and `isStatusHidden` (the /st pages, the sitemap and
// the feeds leave a hidden target out).
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import type { Core } from '../kernel/types.js';
import { hint, next } from '../kernel/hints.js';

const rootId = z
  .string()
  .max(7)
  .regex(/^a[0-9a-z]{1,6}$/, 'want an identity id');

/** Whether the operator marked `id` as a seed root. */
export async function isSeedRoot(core: Core, id: string): Promise<boolean> {
  return core.store.admin.hasMark('seed', id);
}

/** Whether the status page of `target` is hidden (from indexing, /st, the sitemap and the feed). */
export async function isStatusHidden(core: Core, target: string): Promise<boolean> {
  return core.store.admin.hasMark('st_hide', target);
}

export const seedRootOp = defineOp({
  name: 'admin.seed_root',
  title: 'Mark a seed root (operator)',
  summary: 'Mark (on=true) or unmark an identity as an operator seed root (admin token).',
  input: z.object({ id: rootId, on: z.boolean() }).strict(),
  output: z.object({ id: z.string(), on: z.boolean(), changed: z.boolean() }),
  auth: 'admin',
  readOnly: false,
  rest: { method: 'POST', path: '/admin/seed-root', cache: 'no-store' },
  async run(ctx, input) {
    const { core } = ctx;
    if (input.on && !(await core.store.identities.byId(input.id))) throw new CxError('notfound', `no identity ${input.id}`);
    const changed = await core.store.admin.setMark('seed', input.id, input.on, '', core.now());
    return { id: input.id, on: input.on, changed };
  },
  text: (o, ctx) =>
    `ok seed-root ${o.id} ${o.on ? 'on' : 'off'}${o.changed ? '' : ' (unchanged)'}\n${next(ctx, hint('admin.origin'), ' lists what roots brought in')}`,
});

export const stHideOp = defineOp({
  name: 'admin.st_hide',
  title: 'Hide a status page (operator)',
  summary: 'Hide the status page of a target from indexing, /st, the sitemap and the feed; restore=true shows it again (admin token).',
  input: z
    .object({
      target: z
        .string()
        .min(1)
        .max(limit('admin.what'))
        .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
        .describe('the status page target, as in /st/<target>'),
      restore: z.boolean().default(false),
    })
    .strict(),
  output: z.object({ target: z.string(), hidden: z.boolean() }),
  auth: 'admin',
  readOnly: false,
  rest: { method: 'POST', path: '/admin/st-hide', cache: 'no-store' },
  async run(ctx, input) {
    await ctx.core.store.admin.setMark('st_hide', input.target, !input.restore, '', ctx.core.now());
    return { target: input.target, hidden: !input.restore };
  },
  text: (o, ctx) =>
    `ok st:${o.target} hidden=${o.hidden ? 1 : 0}\n${next(ctx, hint('st.get', { target: o.target }), ' still answers; it is left out of /st, the sitemap and the feed')}`,
});
