// Spaces (`s:<slug>`): a named group of identities with its own tasks; create, join, leave, show.
import { iso } from '../kernel/text.js';
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import { defineOp, type Ctx } from '../kernel/types.js';
import type { AnyOperation } from '../kernel/types.js';
import { SLUG_RE } from '../platform/slug.js';
import { lastOwner } from './last-owner.js';
import { hashToken } from '../platform/identity/tokens.js';
import { spaceOwnerOps } from './owners.js';
import { hint, next } from '../kernel/hints.js';

const slug = z.string().regex(SLUG_RE, `a-z 0-9 and -, 2-${limit('space.slug')} chars, starting with a letter or digit`);

export const spaceView = z.object({
  space: z.string(),
  slug: z.string(),
  title: z.string(),
  closed: z.boolean().describe('joined only with an invite from an owner; only closed spaces hold private KB entries'),
  creator: z.string(),
  created: z.string(),
  members: z.number().int(),
  fixes: z.number().int().describe('KB entries authored by current members'),
  tasks: z.number().int().describe('tasks posted in the space, cancelled ones excluded'),
  states: z.record(z.string(), z.number().int()),
  latest: z.array(z.object({ id: z.string(), joined: z.string() })).describe('newest members'),
});
export type SpaceView = z.infer<typeof spaceView>;

/** The space and its counters; null when it does not exist. */
export async function spaceOf(ctx: Ctx, s: string): Promise<SpaceView | null> {
  const st = ctx.core.store;
  const sp = await st.spaces.bySlug(s);
  if (!sp) return null;
  const [c, states, latest] = await Promise.all([st.spaces.counts(s), st.tasks.counts(s), st.spaces.members(s, limit('space.members_shown'))]);
  return {
    space: `s:${s}`,
    slug: s,
    title: sp.title,
    closed: !!sp.closed,
    creator: sp.creator,
    created: iso(sp.created),
    members: c.members,
    fixes: c.fixes,
    // Every state the task store counts (one key each), cancelled ones left out.
    tasks: Object.entries(states).reduce((n, [x, k]) => (x === 'cancelled' ? n : n + k), 0),
    states: { ...states },
    latest: latest.map((m) => ({ id: m.member, joined: iso(m.joined) })),
  };
}

const counters = (v: SpaceView) =>
  `members=${v.members} fixes=${v.fixes} tasks=${v.tasks} ${['open', 'claimed', 'done', 'accepted'].map((x) => `${x}=${v.states[x] ?? 0}`).join(' ')}`;

export const spaceCreateOp = defineOp({
  name: 'space.create',
  title: 'Create a space',
  summary:
    "Create a space s:<slug> (you become its first member and owner); members post tasks in it and its counters add up their fixes. closed=true: joined only with an owner's invite, and it may hold private KB entries (kb.add space=s:<slug>).",
  input: z
    .object({
      slug,
      title: z
        .string()
        .trim()
        .max(limit('space.title'))
        .regex(/^[^\u0000-\u001f\u007f]*$/, 'one line')
        .optional(),
      closed: z.boolean().optional().describe('invite-only; needed for private KB entries'),
    })
    .strict(),
  output: spaceView,
  auth: 'token',
  readOnly: false,
  freeze: 'write',
  quota: ['write', 'write_net'],
  scrub: ['title'],
  hazard: ['title'],
  rest: { method: 'POST', path: '/v1/spaces', status: 201 },
  async run(ctx, input) {
    const me = ctx.caller.identity!.id;
    const st = ctx.core.store.spaces;
    if ((await st.createdBy(me)) >= limit('space.created')) throw new CxError('quota', `spaces: at most ${limit('space.created')} created per identity`);
    if ((await st.joinedBy(me)) >= limit('space.joined')) throw new CxError('quota', `spaces: at most ${limit('space.joined')} joined per identity`);
    const ok = await st.create({ slug: input.slug, title: input.title ?? '', creator: me, created: ctx.core.now(), closed: input.closed ?? false });
    if (!ok) throw new CxError('dup', `space s:${input.slug} exists`);
    return (await spaceOf(ctx, input.slug))!;
  },
  text: (v, ctx) =>
    v.closed
      ? `ok ${v.space} created closed members=${v.members}\n${next(ctx, hint('space.invite', { slug: v.slug }, 'for a one-time invite;'), ' ', hint('kb.add', { space: v.space }, 'for a private fix'))}`
      : `ok ${v.space} created members=${v.members}\n${next(ctx, 'others ', hint('space.join', { slug: v.slug }), '; ', hint('task.create', { space: v.slug }, 'to post a task in it'))}`,
});

const memberOut = z.object({ space: z.string(), member: z.string(), status: z.enum(['joined', 'member', 'left']), members: z.number().int() });

export const spaceJoinOp = defineOp({
  name: 'space.join',
  title: 'Join a space',
  summary:
    'Become a member of a space (idempotent): you can then post tasks in it, and your fixes count in its counters. A closed space takes a one-time invite from an owner (invite=<token>); it expires, and is spent by its first use.',
  input: z.object({ slug, invite: z.string().max(100).optional().describe('invite token (closed spaces)') }).strict(),
  output: memberOut,
  auth: 'token',
  readOnly: false,
  freeze: 'write',
  idempotent: true,
  quota: ['write', 'write_net'],
  rest: { method: 'POST', path: '/v1/spaces/:slug/join' },
  async run(ctx, input) {
    const me = ctx.caller.identity!.id;
    const st = ctx.core.store.spaces;
    const sp = await st.bySlug(input.slug);
    if (!sp) throw new CxError('notfound');
    const already = await st.isMember(input.slug, me);
    if (!already && (await st.joinedBy(me)) >= limit('space.joined'))
      throw new CxError('quota', `spaces: at most ${limit('space.joined')} joined per identity`);
    if (input.invite !== undefined) {
      // Unknown, used, expired or another space's invite: one answer for all.
      const got = await st.redeemInvite(hashToken(input.invite), input.slug, me, ctx.core.now());
      if (!got) throw new CxError('notfound', 'invite: unknown, used or expired');
      return { space: `s:${input.slug}`, member: me, status: got === 'joined' ? 'joined' : 'member', members: (await st.counts(input.slug)).members };
    }
    if (sp.closed && !already) throw new CxError('auth', `s:${input.slug} is closed: join with invite=<token> from one of its owners`, 403);
    const r = await st.join(input.slug, me, ctx.core.now());
    if (r === null) throw new CxError('notfound');
    return { space: `s:${input.slug}`, member: me, status: r === 'new' ? 'joined' : 'member', members: (await st.counts(input.slug)).members };
  },
  text: (o, ctx) =>
    `ok ${o.status === 'joined' ? 'joined' : 'already a member of'} ${o.space} members=${o.members}\n${next(ctx, hint('space.get', { slug: o.space.slice(2) }))}`,
});

export const spaceLeaveOp = defineOp({
  name: 'space.leave',
  title: 'Leave a space',
  summary:
    'Stop being a member of a space; tasks you posted in it stay. Access to its private KB entries ends at once. The last owner of a closed space with members or entries stays until another owner is promoted.',
  input: z.object({ slug }).strict(),
  output: memberOut,
  auth: 'token',
  readOnly: false,
  quota: ['write', 'write_net'],
  rest: { method: 'POST', path: '/v1/spaces/:slug/leave' },
  async run(ctx, input) {
    const me = ctx.caller.identity!.id;
    const r = await ctx.core.store.spaces.leave(input.slug, me);
    if (r === null) throw new CxError('notfound');
    if (r === 'not') throw new CxError('dup', `not a member of s:${input.slug}`);
    if (r === 'last-owner') throw lastOwner(input.slug);
    return { space: `s:${input.slug}`, member: me, status: 'left', members: (await ctx.core.store.spaces.counts(input.slug)).members };
  },
  text: (o, ctx) =>
    `ok left ${o.space} members=${o.members}\n${next(ctx, hint('space.join', { slug: o.space.slice(2) }), ' to come back (a closed space needs an invite)')}`,
});

export const spaceGetOp = defineOp({
  name: 'space.get',
  title: 'Show a space',
  summary: 'A space: title, creator, members, fixes and tasks counters, newest members.',
  input: z.object({ slug }).strict(),
  output: spaceView,
  auth: 'anon',
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/v1/spaces/:slug', twins: ['json', 'txt'] },
  async run(ctx, input) {
    const v = await spaceOf(ctx, input.slug);
    if (!v) throw new CxError('notfound');
    return v;
  },
  text: (v, ctx) =>
    [
      `space ${v.space} ${counters(v)} by ${v.creator} since ${v.created.slice(0, 10)}`,
      `title: ${v.title || '-'}`,
      `members: ${v.latest.map((m) => m.id).join(' ') || '-'}${v.members > v.latest.length ? ` (+${v.members - v.latest.length})` : ''}`,
      next(ctx, hint('task.list', { space: v.slug }), '; ', hint('space.join', { slug: v.slug })),
    ].join('\n'),
});

/** space.manage follows the KB's acts on a space (src/compose/modules.ts lists the three modules in order). */
export const spaceOps: AnyOperation[] = [spaceCreateOp, spaceJoinOp, spaceLeaveOp, spaceGetOp, ...spaceOwnerOps];
