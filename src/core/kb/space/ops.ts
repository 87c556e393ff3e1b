// The private KB of a closed space (issue 39): the team's export of its entries (JSONL, their own
// data, not CC0), promotion of an entry to the public commons (through the scrubber and the hazard
// guard, a new public id, CC0 from then on), and the purge of a space's entries. Reads and writes of
// entries themselves are kb.add/kb.get/kb.e with the caller's token (../ops.ts, ./pool.ts). The
// caller's role in the space is the spaces domain's, read through core.spaceAccess; the owners'
// invite and removal are spaces' own (src/core/spaces/owners.ts). Agents reach all five through one
// tool, space.manage (src/core/spaces/manage.ts), which the composition root hands these three.
import { z } from 'zod';
import { CxError } from '../../kernel/errors.js';
import { recordOrigin } from '../../platform/origin.js';
import { ERRSIG_VERSION, errsig } from '../errsig/errsig.js';
import { classOf } from '../classify.js';
import { parseLib } from '../libs.js';
import type { Lib } from '../ports.js';
import { insertWithFreshId } from '../ops.js';
import { iso } from '../../kernel/text.js';
import { limit } from '../../kernel/limits.js';
import { defineOp, type AnyOperation, type Ctx } from '../../kernel/types.js';
import { hazardFind } from '../../kernel/safety/hazards.js';
import { scrubFind } from '../../kernel/safety/scrub.js';
import { outcomesOf } from '../render.js';
import type { SpaceEntry, SpaceKbEntry } from './ports.js';
import { spaceAs, type SpaceRole } from '../../platform/spaces-access.js';
import { SLUG_RE } from '../../platform/slug.js';
import { hint, next } from '../../kernel/hints.js';

const slug = z.string().regex(SLUG_RE, `a-z 0-9 and -, 2-${limit('space.slug')} chars, starting with a letter or digit`);
const NO_STORE = { 'cache-control': 'private, no-store' };

/** Passes when the caller holds the role asked in the space (platform/spaces-access.ts). */
const asRole = async (ctx: Ctx, s: string, need: SpaceRole): Promise<void> => void (await spaceAs(ctx.core.spaceAccess, ctx.caller.identity!.id, s, need));

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
    const rows = await ctx.core.store.spaceKb.kbList(input.slug, limit('space.kb_entries'));
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
    const e = await ctx.core.store.spaceKb.kbById(input.id, [input.slug]);
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
    return { space: `s:${input.slug}`, purged: await ctx.core.store.spaceKb.kbPurge(input.slug) };
  },
  text: (o, ctx) => `ok purged ${o.space} entries=${o.purged}\n${next(ctx, hint('space.get', { slug: o.space.slice(2) }))}`,
});

/** In the order the faces list them, after the owners' invite and removal (src/compose/modules.ts). */
export const spaceKbOps: AnyOperation[] = [spaceKbExportOp, spaceKbPromoteOp, spacePurgeOp];
