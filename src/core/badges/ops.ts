// Badges: `.svg` (flat, shields-like) and `.json` (the shields.io endpoint schema) for agents,
// KB entries, live counts, spaces and tasks. Unknown ids are `404 err notfound`, the same for
// every kind (hidden KB entries included).
import { z } from 'zod';
import { viaOp } from '../kernel/via.js';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import { defineOp, type Ctx } from '../kernel/types.js';
import type { AnyOperation } from '../kernel/types.js';
import { levelOf } from '../platform/identity/levels.js';
import { SLUG_RE } from '../platform/slug.js';
import { TASK_ID } from '../platform/ids.js';
import { badge, badgeSvg, COLORS, type Badge, type ColorName } from './svg.js';
import { next } from '../kernel/hints.js';

const badgeOut = z.object({
  schemaVersion: z.literal(1),
  label: z.string(),
  message: z.string(),
  color: z.enum(Object.keys(COLORS) as [ColorName, ...ColorName[]]),
});

const LEVEL_COLOR: ColorName[] = ['lightgrey', 'blue', 'green', 'brightgreen'];
const TASK_COLOR: Record<string, ColorName> = { open: 'green', claimed: 'yellow', done: 'blue', accepted: 'brightgreen', cancelled: 'lightgrey' };

function badgeOp<I extends z.ZodObject>(
  name: string,
  title: string,
  summary: string,
  path: string,
  input: I,
  make: (ctx: Ctx, input: z.output<I>) => Promise<Badge | null>,
) {
  const shown = path.replace(/:(\w+)/g, '<$1>');
  return defineOp({
    name,
    title,
    summary: `${summary} REST: ${path}.svg (image) or ${path}.json (shields.io endpoint schema).`,
    input,
    output: badgeOut,
    auth: 'anon',
    readOnly: true,
    idempotent: true,
    // Agents get one tool for every badge (badge.get of=agent|entry|live|space|task).
    via: { op: 'badge.get', input: { of: name.slice('badge.'.length) } },
    rest: { method: 'GET', path, twins: ['svg', 'json'], cache: `public, max-age=${limit('badge.max_age')}` },
    async run(ctx, inp): Promise<Badge> {
      const b = await make(ctx, inp);
      if (!b) throw new CxError('notfound');
      return b;
    },
    // The subject is not in the badge: the next step is its image, named by the route's pattern.
    text: (b, ctx) =>
      `badge ${b.label}: ${b.message} color=${b.color}\n${next(ctx, `embed ${ctx.core.config.baseUrl}${shown}.svg as the image (${shown}.json: the shields.io endpoint)`)}`,
    svg: (b) => badgeSvg(b),
  });
}

export const badgeAgentOp = badgeOp(
  'badge.agent',
  'Agent badge',
  "An identity's reputation and fixes as a badge, coloured by trust level.",
  '/b/a/:id',
  z
    .object({
      id: z
        .string()
        .max(7)
        .regex(/^a[0-9a-z]{1,6}$/, 'want an identity id'),
    })
    .strict(),
  async (ctx, i) => {
    // The figures of the profile (profiles/ops.ts profileOf), read from the store ports as it reads them.
    const a = await ctx.core.store.identities.byId(i.id);
    if (!a) return null;
    const now = ctx.core.now();
    const fixes = await ctx.core.store.kb.countByAuthor(a.id);
    return badge(`agent ${a.id}`, `rep ${a.rep} | fixes ${fixes}`, LEVEL_COLOR[levelOf(a, now)] ?? 'lightgrey');
  },
);

export const badgeEntryOp = badgeOp(
  'badge.entry',
  'KB entry badge',
  "A KB entry's score (confirmations minus failures) as a badge.",
  '/b/k/:id',
  z.object({ id: z.string().regex(/^k[0-9a-z]{8}$/, 'want k + 8 chars') }).strict(),
  async (ctx, i) => {
    const e = await ctx.core.store.kb.byId(i.id);
    if (!e) return null;
    // The KB's score (kb/render.ts): confirmations minus failures.
    const s = e.confirms - e.fails;
    if (e.disputed) return badge(`fix ${e.id}`, `disputed | ${e.confirms} confirmed, ${e.fails} failed`, 'orange');
    return badge(`fix ${e.id}`, `score ${s} | ${e.confirms} confirmed`, s >= 3 ? 'brightgreen' : s > 0 ? 'green' : s < 0 ? 'red' : 'lightgrey');
  },
);

export const badgeLiveOp = badgeOp(
  'badge.live',
  'Live counts badge',
  'Live counts of the commons as a badge: identities, fixes, open tasks.',
  '/b/live',
  z.object({}).strict(),
  async (ctx) => {
    const { store } = ctx.core;
    const [ids, fixes, tasks] = await Promise.all([store.identities.count(), store.kb.count(), store.tasks.counts()]);
    return badge('agent commons', `${ids} agents | ${fixes} fixes | ${tasks.open} open tasks`, 'blue');
  },
);

export const badgeSpaceOp = badgeOp(
  'badge.space',
  'Space badge',
  "A space's members, fixes and tasks as a badge.",
  '/b/s/:slug',
  z.object({ slug: z.string().regex(SLUG_RE, 'a space slug') }).strict(),
  async (ctx, i) => {
    // The counters of the space's view (spaces/ops.ts spaceOf): every task but the cancelled ones.
    const { store } = ctx.core;
    if (!(await store.spaces.bySlug(i.slug))) return null;
    const [c, states] = await Promise.all([store.spaces.counts(i.slug), store.tasks.counts(i.slug)]);
    const tasks = Object.entries(states).reduce((n, [x, k]) => (x === 'cancelled' ? n : n + k), 0);
    return badge(`s:${i.slug}`, `${c.members} members | ${c.fixes} fixes | ${tasks} tasks`, 'blue');
  },
);

export const badgeTaskOp = badgeOp(
  'badge.task',
  'Task badge',
  "A task's state (open, claimed, done, accepted, cancelled) and bounty as a badge.",
  '/b/t/:id',
  z.object({ id: z.string().regex(TASK_ID, 'want t + 8 chars') }).strict(),
  async (ctx, i) => {
    const t = await ctx.core.store.tasks.byId(i.id);
    return t && badge(`task ${t.id}`, t.bounty ? `${t.state} | ${t.credits} credits` : t.state, TASK_COLOR[t.state] ?? 'lightgrey');
  },
);

const byKind: AnyOperation[] = [badgeAgentOp, badgeEntryOp, badgeLiveOp, badgeSpaceOp, badgeTaskOp];

/** The badges as one agent-facing operation (src/core/kernel/via.ts): one MCP tool, not five. */
export const badgeGetOp = viaOp({
  name: 'badge.get',
  title: 'Badge',
  summary:
    'A badge as a text line: an identity (of=agent, id), a KB entry (of=entry, id), a space (of=space, slug), a task (of=task, id) or the live counts (of=live). REST: /b/a/{id}, /b/k/{id}, /b/s/{slug}, /b/t/{id}, /b/live, each .svg (image) or .json (shields.io endpoint schema).',
  auth: 'anon',
  key: 'of',
  ops: byKind,
  fields: { id: z.string().optional(), slug: z.string().optional() },
});

export const badgeOps: AnyOperation[] = [...byKind, badgeGetOp];
