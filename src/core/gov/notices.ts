// Notices (POST /notice): a person's report that content of the commons is unlawful or against the
// acceptable use policy. The form page hands out a form token (`ft`: HMAC-sealed with the seal key,
// with an expiry); a filing needs it, an Origin of this service and every field. An illicit notice
// hides the content at once; the other categories count as one report of weight 1.0, and reports
// reaching notice.hide_w hide it. Caps: notice.net_day per network and notice.group_day per
// super-group (rules.ts superGroup) in 24 h; a notice over a cap is queued for the operator with no
// effect. The operator upholds (content stays down, the KB entry is removed) or reverses (restored).
import { postInbox } from '../platform/events/topics.js';
import { iso } from '../kernel/text.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { newId } from '../platform/identity/tokens.js';
import { limit } from '../kernel/limits.js';
import { defineOp, type AnyOperation, type Core, type Ctx } from '../kernel/types.js';
import type { Notice } from './ports.js';
import { isNoticeCategory, NOTICE_CATEGORIES, NOTICE_REPORT_W, superGroup } from './rules.js';
import { hint, next } from '../kernel/hints.js';

const DAY = 86_400_000;

function ftMac(core: Core, payload: string): string {
  return createHmac('sha256', core.config.sealKey).update(`cx-notice-ft-v1|${payload}`).digest().subarray(0, 16).toString('base64url');
}

/** A fresh form token: `1.<exp seconds>.<random>.<mac>`. */
export function issueFormToken(core: Core): { ft: string; exp: string } {
  const expS = Math.floor(core.now() / 1000) + limit('notice.ft_ttl');
  const payload = `1.${expS}.${core.random(9).toString('base64url')}`;
  return { ft: `${payload}.${ftMac(core, payload)}`, exp: iso(expS * 1000) };
}

/** Throws `err bad ft: <why>` unless the token is ours and not expired. */
export function checkFormToken(core: Core, ft: string): void {
  const parts = ft.split('.');
  if (parts.length !== 4 || parts[0] !== '1' || !/^\d{1,12}$/.test(parts[1]!)) throw new CxError('bad', 'ft: malformed form token; load GET /notice again');
  const want = Buffer.from(ftMac(core, parts.slice(0, 3).join('.')));
  const got = Buffer.from(parts[3]!);
  if (want.length !== got.length || !timingSafeEqual(want, got)) throw new CxError('bad', 'ft: forged form token; load GET /notice again');
  if (Number(parts[1]) * 1000 <= core.now()) throw new CxError('bad', 'ft: form token expired; load GET /notice again');
}

/** What a notice url targets: `kb:<id>` for an entry page, else the path; only pages of this service. */
export function refOf(core: Core, url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new CxError('bad', 'url: an absolute URL of a page of this service');
  }
  if (u.host !== new URL(core.config.baseUrl).host || !/^https?:$/.test(u.protocol)) throw new CxError('bad', 'url: not a page of this service');
  const m = /^\/(?:k|kb)\/(k[0-9a-z]{8})(?:\.(?:txt|md|json))?\/?$/.exec(u.pathname);
  return m ? `kb:${m[1]}` : u.pathname.slice(0, 200);
}

export const noticeInput = z
  .object({
    url: z.string().min(1).max(limit('notice.url')),
    category: z
      .string()
      .max(24)
      .refine(isNoticeCategory, `one of ${Object.keys(NOTICE_CATEGORIES).join(', ')}`),
    reason: z.string().min(1).max(limit('notice.reason')),
    email: z
      .string()
      .max(limit('notice.email'))
      .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'an email address'),
    good_faith: z.string().refine((v) => ['1', 'yes', 'on', 'true'].includes(v), 'confirm you file in good faith (yes)'),
    ft: z.string().min(1).max(200),
  })
  .strict();

const FIELDS = ['url', 'category', 'reason', 'email', 'good_faith', 'ft'] as const;

/** The checks before the filer's quota (the route's `notice` bucket): every field present, a valid form token. */
export function checkNoticeForm(core: Core, raw: Record<string, unknown>): void {
  for (const f of FIELDS) if (typeof raw[f] !== 'string' || raw[f] === '') throw new CxError('bad', `${f}: required`);
  checkFormToken(core, raw.ft as string);
}

/**
 * Files a notice from the form fields, once checkNoticeForm passed and the `notice` quota was taken
 * (queued notices still cost a row each: a flood from one network is refused before it is stored;
 * POST /notice declares the bucket, src/rest/gov.ts); `net` is the filer's network key.
 */
export async function fileNotice(core: Core, raw: Record<string, unknown>, net: string): Promise<Notice> {
  const parsed = noticeInput.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new CxError('bad', `${i.path.join('.') || 'body'}: ${i.message}`);
  }
  const input = parsed.data;
  const ref = refOf(core, input.url);
  const now = core.now();
  const hide = NOTICE_CATEGORIES[input.category as keyof typeof NOTICE_CATEGORIES].hide;
  let n: Notice | null = null;
  while (!n) {
    n = await core.store.gov
      .fileNotice(
        {
          id: newId('n', core.random, 8),
          url: input.url,
          ref,
          category: input.category,
          reason: input.reason,
          email: input.email,
          good_faith: true,
          net,
          sgroup: superGroup(net),
          state: hide ? 'hidden' : 'counted',
          created: now,
        },
        { net: limit('notice.net_day'), group: limit('notice.group_day'), since: now - DAY },
      )
      .catch((err: unknown) => {
        if (String((err as { code?: string }).code).startsWith('SQLITE_CONSTRAINT')) return null;
        throw err;
      });
  }
  const kb = n.ref.startsWith('kb:') ? n.ref.slice(3) : null;
  if (n.state === 'hidden' && kb) await core.store.kb.setHidden(kb, true);
  let w = 0;
  if (n.state === 'counted') {
    w = await core.store.gov.addReport(n.ref, `notice:${n.id}`, NOTICE_REPORT_W, now);
    if (kb && w >= limit('notice.hide_w')) await core.store.kb.setHidden(kb, true);
  }
  // The row's weight is the report weight its target now carries (what hides it at notice.hide_w);
  // a notice comes from one network, so one group. Its status follows the decision.
  await postInbox(core, 'notice', {
    ref: n.id,
    scope: n.category,
    title: `${n.category} notice (${n.state}) on ${n.ref}`.slice(0, 200),
    support_w: w,
    groups: 1,
    url: `${core.config.baseUrl}/admin/notices?id=${n.id}`,
    status: 'open',
  });
  core.log.info({ notice: n.id, state: n.state, ref: n.ref }, 'notice filed');
  return n;
}

const noticeRow = z.object({
  id: z.string(),
  url: z.string(),
  ref: z.string(),
  category: z.string(),
  reason: z.string(),
  email: z.string(),
  good_faith: z.boolean(),
  net: z.string(),
  sgroup: z.string(),
  state: z.string(),
  note: z.string(),
  decided_by: z.string().nullable(),
  decided_at: z.number().nullable(),
  created: z.number(),
});
const NOTICE_ID = /^n[0-9a-z]{8}$/;

const listOp = defineOp({
  name: 'admin.notices',
  title: 'Notices',
  summary: 'Notices filed through POST /notice, newest first, every column (poll token); open=1 only undecided, id= one.',
  input: z
    .object({ k: z.number().int().min(1).max(limit('notice.k')).default(20), open: z.literal(1).optional(), id: z.string().regex(NOTICE_ID).optional() })
    .strict(),
  output: z.object({ rows: z.array(noticeRow) }),
  auth: 'poll',
  readOnly: true,
  // Spec 4.7: "JSON rows with every column"; the text form is the twin (.txt, ?f=txt, Accept: text/plain).
  rest: { method: 'GET', path: '/admin/notices', cache: 'no-store', defaultJson: true, twins: ['txt', 'json'] },
  async run(ctx, input) {
    if (input.id) {
      const n = await ctx.core.store.gov.notice(input.id);
      return { rows: n ? [n] : [] };
    }
    return { rows: await ctx.core.store.gov.notices({ open: input.open === 1, limit: input.k }) };
  },
  text: (o, ctx) =>
    [
      `notices n=${o.rows.length}`,
      ...o.rows.map(
        (n) =>
          `${n.id} ${n.state} ${n.category} ${n.ref} net=${n.net} sgroup=${n.sgroup} created=${iso(n.created)} decided=${n.decided_at ? iso(n.decided_at) : '-'}`,
      ),
      next(ctx, hint('admin.notice_decide', { id: '<id>', decision: 'yes|no' })),
    ].join('\n'),
});

const decideOp = defineOp({
  name: 'admin.notice_decide',
  title: 'Decide a notice',
  summary: 'yes: upheld (the content stays down, a KB entry is removed); no: reversed (the content is restored).',
  input: z
    .object({ id: z.string().regex(NOTICE_ID, 'want n + 8 chars'), decision: z.enum(['yes', 'no']), note: z.string().max(limit('gov.note')).default('') })
    .strict(),
  output: z.object({ id: z.string(), state: z.enum(['upheld', 'reversed']), ref: z.string() }),
  auth: 'ops',
  readOnly: false,
  rest: { method: 'POST', path: '/admin/notices/:id' },
  async run(ctx: Ctx, input) {
    const { core } = ctx;
    const state = input.decision === 'yes' ? 'upheld' : 'reversed';
    const r = await core.store.gov.decideNotice(input.id, state, input.note, ctx.caller.operator!, core.now());
    if (r === 'missing') throw new CxError('notfound');
    if (r === 'decided') throw new CxError('dup', 'notice already decided');
    const kb = r.ref.startsWith('kb:') ? r.ref.slice(3) : null;
    if (state === 'upheld' && kb) {
      // Tombstoned first, so exports and the mirrors of earlier exports drop it too.
      await core.recordTombstone({ kind: 'kb', id: kb, reason: 'notice' });
      await core.store.kb.remove(kb);
    }
    if (state === 'reversed') {
      const left = await core.store.gov.dropReport(r.ref, `notice:${r.id}`);
      if (kb && left < limit('notice.hide_w')) await core.store.kb.setHidden(kb, false);
    }
    await postInbox(core, 'notice', { ref: r.id, status: state });
    return { id: r.id, state, ref: r.ref };
  },
  text: (o, ctx) => [`ok ${o.id} ${o.state}`, `ref: ${o.ref}`, next(ctx, hint('admin.notices', { open: 1 }))].join('\n'),
});

export const noticeOps: AnyOperation[] = [listOp, decideOp];
