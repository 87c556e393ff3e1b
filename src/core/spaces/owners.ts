// The owners of a closed space (issue 39): one-time invites and removal of members. A closed
// space's private KB (export, promotion, purge) is the KB's (src/core/kb/space/ops.ts); agents reach
// all five through one tool, space.manage (manage.ts), that keeps the MCP tool list within its budget.
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { hashToken, newToken } from '../platform/identity/tokens.js';
import { iso } from '../kernel/text.js';
import { limit } from '../kernel/limits.js';
import { defineOp, type AnyOperation, type Ctx } from '../kernel/types.js';
import type { Space, SpaceRole } from './ports.js';
import { SLUG_RE } from '../platform/slug.js';
import { spaceAs } from '../platform/spaces-access.js';
import { lastOwner } from './last-owner.js';
import { hint, next } from '../kernel/hints.js';

const slug = z.string().regex(SLUG_RE, `a-z 0-9 and -, 2-${limit('space.slug')} chars, starting with a letter or digit`);
const NO_STORE = { 'cache-control': 'private, no-store' };
export const INVITE_PREFIX = 'csi_';

/** The space, when the caller holds the role asked in it (platform/spaces-access.ts). */
const asRole = (ctx: Ctx, s: string, need: SpaceRole): Promise<Space> => spaceAs(ctx.core.store.spaces, ctx.caller.identity!.id, s, need);

export const spaceInviteOp = defineOp({
  name: 'space.invite',
  title: 'Invite to a space',
  summary:
    'A one-time, expiring invite to a space (owners). Role member or owner; it expires after ttl seconds and is spent by its first use (POST /v1/spaces/{slug}/join invite=<token>). Shown once; only its hash is kept.',
  input: z
    .object({
      slug,
      role: z.enum(['member', 'owner']).default('member'),
      ttl: z.number().int().min(60).max(limit('space.invite_ttl_max')).default(limit('space.invite_ttl')),
    })
    .strict(),
  output: z.object({ space: z.string(), invite: z.string(), role: z.enum(['member', 'owner']), expires: z.string() }),
  auth: 'token',
  via: { op: 'space.manage', input: { act: 'invite' } },
  readOnly: false,
  freeze: 'write',
  quota: ['write', 'write_net'],
  rest: { method: 'POST', path: '/v1/spaces/:slug/invite', status: 201 },
  headers: () => NO_STORE,
  async run(ctx, input) {
    await asRole(ctx, input.slug, 'owner');
    const st = ctx.core.store.spaces;
    const now = ctx.core.now();
    if ((await st.openInvites(input.slug, now)) >= limit('space.invites'))
      throw new CxError('quota', `s:${input.slug}: at most ${limit('space.invites')} open invites`);
    const token = newToken(INVITE_PREFIX, ctx.core.random);
    const expires = now + input.ttl * 1000;
    await st.addInvite({ h: hashToken(token), space: input.slug, role: input.role, by: ctx.caller.identity!.id, created: now, expires });
    return { space: `s:${input.slug}`, invite: token, role: input.role, expires: iso(expires) };
  },
  text: (o, ctx) =>
    `ok invite ${o.space} role=${o.role} expires=${o.expires}\ninvite: ${o.invite}\n${next(ctx, 'the invitee ', hint('space.join', { slug: o.space.slice(2), invite: '<token>' }, '(one use)'))}`,
});

export const spaceRemoveOp = defineOp({
  name: 'space.remove',
  title: 'Remove a member',
  summary: "Remove a member from a space (owners). Their access to the space's private entries ends at once (lookups read memberships on every call).",
  input: z.object({ slug, member: z.string().regex(/^a[0-9a-z]{6}$/, 'want an identity id a + 6 chars') }).strict(),
  output: z.object({ space: z.string(), member: z.string(), status: z.literal('removed'), members: z.number().int() }),
  auth: 'token',
  via: { op: 'space.manage', input: { act: 'remove' } },
  readOnly: false,
  destructive: true,
  quota: ['write', 'write_net'],
  rest: { method: 'POST', path: '/v1/spaces/:slug/remove' },
  async run(ctx, input) {
    await asRole(ctx, input.slug, 'owner');
    if (input.member === ctx.caller.identity!.id) throw new CxError('dup', ['that is you: ', hint('space.leave', { slug: input.slug })]);
    const st = ctx.core.store.spaces;
    const r = await st.leave(input.slug, input.member);
    // Only reachable by a race (an owner removes another while that one removes them): one stays.
    if (r === 'last-owner') throw lastOwner(input.slug);
    if (r !== 'left') throw new CxError('dup', `${input.member} is not a member of s:${input.slug}`);
    return { space: `s:${input.slug}`, member: input.member, status: 'removed' as const, members: (await st.counts(input.slug)).members };
  },
  text: (o, ctx) => `ok removed ${o.member} from ${o.space} members=${o.members}\n${next(ctx, hint('space.get', { slug: o.space.slice(2) }))}`,
});

export const spaceOwnerOps: AnyOperation[] = [spaceInviteOp, spaceRemoveOp];
