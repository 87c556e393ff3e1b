// Content origin: which root and which network created a piece of published content (KB entries,
// tasks, topic lines ...). Writers call the platform's `recordOrigin` (src/core/platform/origin.ts)
// after the write; GET /admin/origin reads the rows.
import { z } from 'zod';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import { iso as isoS } from '../kernel/text.js';
import { hint, next } from '../kernel/hints.js';

export const originOp = defineOp({
  name: 'admin.origin',
  title: 'Content origin (operator)',
  summary: 'content_origin rows: which root and network created a piece of published content; ref is a content id or a root id (admin token).',
  input: z
    .object({
      ref: z.string().min(1).max(64).optional().describe('a content id (k…, t…, topic:seq) or a root id (a…)'),
      kind: z.string().min(1).max(24).optional().describe('kb, task, line ...'),
      k: z.number().int().min(1).max(limit('admin.origin_k')).default(50),
    })
    .strict(),
  output: z.object({ rows: z.array(z.object({ kind: z.string(), ref: z.string(), root: z.string(), net: z.string(), at: z.string() })) }),
  auth: 'admin',
  readOnly: true,
  rest: { method: 'GET', path: '/admin/origin', cache: 'no-store', query: ['ref', 'kind', 'k'] },
  async run(ctx, input) {
    const rows = await ctx.core.store.admin.origins({ ref: input.ref, kind: input.kind }, input.k);
    return { rows: rows.map((r) => ({ kind: r.kind, ref: r.ref, root: r.root, net: r.net, at: isoS(r.at) })) };
  },
  text: (o, ctx) =>
    [
      `origin rows=${o.rows.length}`,
      ...o.rows.map((r) => `${r.kind} ${r.ref} root=${r.root} net=${r.net} ${r.at}`),
      next(ctx, hint('admin.purge', { id: '<root>' }, 'removes a root and its content')),
    ].join('\n'),
});
