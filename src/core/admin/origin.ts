// Content origin: which root and which network created a piece of published content (KB entries,
// tasks, topic lines ...). Writers publish an `origin` event (the platform's topic contract,
// src/core/platform/events/topics.ts); this module follows the topic and keeps one row per
// content (GET /admin/origin reads them), catching up from the bus before a read so a row is there
// also when the live event reached it late (another replica) or not at all (a restart).
import { z } from 'zod';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import type { Core } from '../kernel/types.js';
import type { BusEvent } from '../kernel/bus.js';
import type { Subscribes } from '../kernel/module.js';
import { iso as isoS } from '../kernel/text.js';
import { hint, next } from '../kernel/hints.js';
import { ORIGIN_TOPIC, type OriginEvent } from '../platform/events/topics.js';

/** The row of one origin event (rows are keyed by kind and ref: a second one of the same content is ignored). */
async function keep(core: Core, e: BusEvent): Promise<void> {
  const o = e.payload as OriginEvent;
  await core.store.admin.recordOrigin({ kind: o.kind, ref: o.ref, root: o.root, net: o.net, at: o.at });
}

/** The admin module's subscription to `origin`. */
export const originFollow: Subscribes = { topics: { topic: ORIGIN_TOPIC }, on: keep, failed: 'content origin not recorded; kept when origins are read' };

/** Per store, the last origin event kept by a catch-up (rows are idempotent, so a replica or a restart starting at 0 only repeats). */
const caught = new WeakMap<object, number>();

/** Keeps every retained origin event after the last one caught up with. */
export async function catchUpOrigins(core: Core): Promise<void> {
  const key = core.store.admin;
  let after = caught.get(key) ?? 0;
  for (;;) {
    const evs = await core.store.events.read(ORIGIN_TOPIC, after, 500);
    for (const e of evs) {
      await keep(core, e);
      after = e.id;
    }
    caught.set(key, after);
    if (evs.length < 500) return;
  }
}

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
    await catchUpOrigins(ctx.core);
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
