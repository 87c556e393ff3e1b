// Owners and the private KB of a closed space (issue 39): one-time invites, removal, the team's
// export of its entries (JSONL, their own data, not CC0), promotion of an entry to the public
// commons (through the scrubber and the hazard guard, a new public id, CC0 from then on), and the
// purge of a space's entries. Reads and writes of entries themselves are kb.add/kb.get/kb.e with
// the caller's token (src/core/kb/ops.ts, src/core/spaces/kb-pool.ts). Agents reach these five
// through one tool, space.manage (manage.ts), that keeps the MCP tool list within its budget.
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { recordOrigin } from '../platform/origin.js';
import { hashToken, newToken } from '../platform/identity/tokens.js';
import { ERRSIG_VERSION, errsig } from '../kb/errsig/errsig.js';
import { classOf } from '../kb/classify.js';
import { parseLib } from '../kb/libs.js';
import type { Lib } from '../kb/ports.js';
import { insertWithFreshId } from '../kb/ops.js';
import { iso } from '../kernel/text.js';
import { limit } from '../kernel/limits.js';
import { defineOp, type AnyOperation, type Ctx } from '../kernel/types.js';
import { hazardFind } from '../kernel/safety/hazards.js';
import { scrubFind } from '../kernel/safety/scrub.js';
import { outcomesOf } from '../kb/render.js';
import type { Space, SpaceEntry, SpaceKbEntry, SpaceRole } from './ports.js';
import { SLUG_RE } from '../platform/slug.js';
import { lastOwner } from './last-owner.js';
import { hint, next } from '../kernel/hints.js';

const slug = z.string().regex(SLUG_RE, `a-z 0-9 and -, 2-${limit('space.slug')} chars, starting with a letter or digit`);
const NO_STORE = { 'cache-control': 'private, no-store' };
export const INVITE_PREFIX = 'csi_';

/**
 * The space when the caller holds the role asked (an owner is also a member). A non-member learns
 * nothing (the same notfound as an unknown space); a member asking for an owner's act is refused.
 */
async function asRole(ctx: Ctx, s: string, need: SpaceRole): Promise<Space> {
  const st = ctx.core.store.spaces;
  const me = ctx.caller.identity!.id;
  const sp = await st.bySlug(s);
  const role = sp ? await st.role(s, me) : null;
  if (!sp || !role) throw new CxError('notfound', `no space s:${s} you are a member of`);
  if (need === 'owner' && role !== 'owner') throw new CxError('auth', `owners of s:${s} only`, 403);
  return sp;
}

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

const exportRow = z.object({
  id: z.string(),
  space: z.string(),
  title: z.string(),
  sig: z.string(),
  h: z.string(),
  eco: z.string(),
  class: z.string(),
  libs: z.array(z.string()),
  tags: z.array(z.string()),
  error: z.string(),
  fix: z.string(),
  author: z.string(),
  created: z.string(),
  license: z.string(),
  outcomes: z.object({
    worked: z.number(),
    worked_w: z.number(),
    changes: z.number(),
    changes_w: z.number(),
    failed: z.number(),
    failed_w: z.number(),
    principals: z.number(),
    disputed: z.boolean(),
  }),
});
type ExportRow = z.infer<typeof exportRow>;
const rowOf = (e: SpaceKbEntry): ExportRow => ({
  id: e.id,
  space: `s:${e.space}`,
  title: e.title,
  sig: e.sig,
  h: e.h,
  eco: e.eco,
  class: e.cls,
  libs: e.libs,
  tags: e.tags,
  error: e.error,
  fix: e.fix,
  author: e.author,
  created: iso(e.created),
  license: `private to s:${e.space} (its members' own data, not CC0)`,
  // The members' outcomes, as the space's own lookups rank by them.
  outcomes: outcomesOf(e),
});
const jsonl = (rows: ExportRow[]) => rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');

export const spaceKbExportOp = defineOp({
  name: 'space.kb_export',
  title: "Export a space's private entries",
  summary: "A space's private KB entries as JSONL (members). One entry a line, oldest first: the team's own data, not CC0, never in the public exports.",
  input: z.object({ slug }).strict(),
  output: z.object({ space: z.string(), count: z.number().int(), rows: z.array(exportRow) }),
  auth: 'token',
  via: { op: 'space.manage', input: { act: 'export' } },
  readOnly: true,
  idempotent: true,
  quota: ['read'],
  rest: {
    method: 'GET',
    path: '/v1/spaces/:slug/kb.jsonl',
    replyHeaders: NO_STORE,
    raw: (o: { space: string; count: number; rows: ExportRow[] }) => ({ body: jsonl(o.rows), type: 'application/x-ndjson; charset=utf-8' }),
  },
  async run(ctx, input) {
    await asRole(ctx, input.slug, 'member');
    const rows = await ctx.core.store.spaces.kbList(input.slug, limit('space.kb_entries'));
    return { space: `s:${input.slug}`, count: rows.length, rows: rows.map(rowOf) };
  },
  text: (o) => jsonl(o.rows) || `# ${o.space} holds no private entries`,
});

/** The guards' own lines for a text going public (the op's input is an id, so they are called here). */
function checkPublishable(e: SpaceEntry): void {
  for (const [field, v] of [
    ['error', e.error],
    ['fix', e.fix],
    ['title', e.title],
  ] as const) {
    const hit = scrubFind(v);
    if (hit) throw new CxError('scrub', `${hit.kind} ${field}@${hit.offset}`);
  }
  for (const v of [e.error, e.fix, e.title]) {
    const hit = hazardFind(v);
    if (hit) throw new CxError('hazard', hit.family);
  }
}

export const spaceKbPromoteOp = defineOp({
  name: 'space.kb_promote',
  title: 'Publish a private entry',
  summary:
    'Publish a private entry of a space to the commons (owners). It passes the scrubber and the hazard guard, gets a new public id and is CC0-1.0 from then on, published by you; the space keeps its private copy.',
  input: z.object({ slug, id: z.string().regex(/^k[0-9a-z]{8}$/, 'want k + 8 chars') }).strict(),
  output: z.object({ id: z.string(), from: z.string(), space: z.string(), url: z.string(), license: z.string() }),
  auth: 'token',
  via: { op: 'space.manage', input: { act: 'promote' } },
  readOnly: false,
  freeze: 'write',
  quota: ['write', 'write_net'],
  rest: { method: 'POST', path: '/v1/spaces/:slug/kb/:id/promote', status: 201 },
  async run(ctx, input) {
    await asRole(ctx, input.slug, 'owner');
    const e = await ctx.core.store.spaces.kbById(input.id, [input.slug]);
    if (!e) throw new CxError('notfound', `no entry ${input.id}`);
    checkPublishable(e);
    const { sig, h, ch } = errsig(e.error);
    const pub = await insertWithFreshId(ctx, {
      sig,
      h,
      ch,
      sigv: ERRSIG_VERSION,
      title: e.title,
      error: e.error,
      fix: e.fix,
      eco: e.eco,
      cls: classOf(sig),
      tags: e.tags,
      libs: e.libs.map(parseLib).filter((l): l is Lib => l !== null),
      author: ctx.caller.identity!.id,
      created: ctx.core.now(),
    });
    await recordOrigin(ctx, 'kb', pub.id);
    return { id: pub.id, from: e.id, space: `s:${input.slug}`, url: `${ctx.core.config.baseUrl}/k/${pub.id}`, license: 'CC0-1.0' };
  },
  text: (o, ctx) => `ok k/${o.id} published ${o.license} from k/${o.from} (${o.space} keeps its private copy)\n${next(ctx, hint('kb.get', { id: o.id }))}`,
});

export const spacePurgeOp = defineOp({
  name: 'space.purge',
  title: "Purge a space's private entries",
  summary:
    'Delete every private KB entry of a space (owners). Its open invites go too, from the store at once (backups aside; docs/decisions.md); confirm repeats s:<slug>. The space and its members stay.',
  input: z.object({ slug, confirm: z.string().describe('s:<slug> again') }).strict(),
  output: z.object({ space: z.string(), purged: z.number().int() }),
  auth: 'token',
  via: { op: 'space.manage', input: { act: 'purge' } },
  readOnly: false,
  destructive: true,
  quota: ['write', 'write_net'],
  rest: { method: 'POST', path: '/v1/spaces/:slug/purge' },
  async run(ctx, input) {
    await asRole(ctx, input.slug, 'owner');
    if (input.confirm.replace(/^s:/, '') !== input.slug) throw new CxError('bad', `confirm: want s:${input.slug}`);
    return { space: `s:${input.slug}`, purged: await ctx.core.store.spaces.kbPurge(input.slug) };
  },
  text: (o, ctx) => `ok purged ${o.space} entries=${o.purged}\n${next(ctx, hint('space.get', { slug: o.space.slice(2) }))}`,
});

export const spaceKbOps: AnyOperation[] = [spaceInviteOp, spaceRemoveOp, spaceKbExportOp, spaceKbPromoteOp, spacePurgeOp];
