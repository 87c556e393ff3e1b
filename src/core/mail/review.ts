// The operator's review of recipient reports on mail (GET /admin/x/queue, POST /admin/x/decide).
// The queue shows locators, parties and the reporter's reason, never the message text. Decisions:
// purge deletes the ciphertext by its locator, freeze freezes the sender root (its tokens get
// 403), dismiss closes the report. A report is decided once: again is 409 `err decided`.
import { z } from 'zod';
import { postInbox } from '../platform/events/topics.js';
import { iso as isoS } from '../kernel/text.js';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import type { AnyOperation } from '../kernel/types.js';
import { hint, next } from '../kernel/hints.js';

/** Inbox kind of mail reports (one item per reported message). */
export const MAIL_REPORT_KIND = 'mail_report';

const sinceField = z
  .string()
  .max(40)
  .refine((s) => Number.isFinite(Date.parse(s)), 'want a date-time')
  .optional()
  .describe('only reports filed at or after this date-time');

export const reviewQueueOp = defineOp({
  name: 'admin.x_queue',
  title: 'Mail report review queue (operator)',
  summary:
    'Open recipient reports on mail, oldest first: report id, message locator, sender, reporter, reason, whether the ciphertext is held; no plaintext (ops token).',
  input: z.object({ since: sinceField }).strict(),
  output: z.object({
    rows: z.array(
      z.object({
        id: z.number().int(),
        msg: z.string(),
        sender: z.string(),
        reporter: z.string(),
        reason: z.string(),
        created: z.string(),
        held: z.boolean(),
        size: z.number().int(),
      }),
    ),
  }),
  auth: 'ops',
  readOnly: true,
  rest: { method: 'GET', path: '/admin/x/queue', cache: 'no-store', query: ['since'] },
  async run(ctx, input) {
    const since = input.since ? Date.parse(input.since) : 0;
    const rows = await ctx.core.store.mail.reviewQueue(since, limit('admin.queue_k'));
    return {
      rows: rows.map((r) => ({
        id: r.id,
        msg: r.msg,
        sender: r.sender,
        reporter: r.reporter,
        reason: r.reason,
        created: isoS(r.created),
        held: r.held,
        size: r.size,
      })),
    };
  },
  text: (o, ctx) =>
    [
      `queue open=${o.rows.length}`,
      ...o.rows.map(
        (r) => `${r.id} ${r.msg} from=${r.sender} by=${r.reporter} ${r.created} ${r.held ? `held size=${r.size}` : 'gone'} reason=${JSON.stringify(r.reason)}`,
      ),
      next(ctx, hint('admin.x_decide', { id: '<n>', action: 'purge|freeze|dismiss' })),
    ].join('\n'),
});

export const reviewDecideOp = defineOp({
  name: 'admin.x_decide',
  title: 'Decide a mail report (operator)',
  summary:
    'Decide an open report: purge deletes the ciphertext by locator, freeze freezes the sender root, dismiss closes it; a decided report is 409 err decided (ops token).',
  input: z
    .object({
      id: z.number().int().min(1).describe('report id from GET /admin/x/queue'),
      action: z.enum(['purge', 'freeze', 'dismiss']),
      note: z.string().max(limit('admin.note')).default(''),
    })
    .strict(),
  output: z.object({ id: z.number().int(), action: z.string(), msg: z.string(), sender: z.string() }),
  auth: 'ops',
  readOnly: false,
  rest: { method: 'POST', path: '/admin/x/decide', cache: 'no-store' },
  async run(ctx, input) {
    const { core } = ctx;
    const r = await core.store.mail.decideReport(input.id, input.action, input.note, core.now());
    if (r === null) throw new CxError('notfound', `no report ${input.id}`);
    if (r === 'decided') throw new CxError('decided', '', 409);
    if (input.action === 'freeze') await core.store.admin.setIdentityFrozen(r.sender, true);
    await postInbox(core, MAIL_REPORT_KIND, { ref: r.msg, status: input.action === 'dismiss' ? 'dismissed' : 'decided' }).catch((err) =>
      core.log.warn({ err }, 'inbox update failed'),
    );
    core.log.info({ report: input.id, action: input.action }, 'mail report decided');
    return { id: input.id, action: input.action, msg: r.msg, sender: r.sender };
  },
  text: (o, ctx) =>
    `ok decided ${o.action}\nreport ${o.id} msg=${o.msg} sender=${o.sender}\n${next(ctx, hint('admin.x_queue'), ' for the reports still open')}`,
});

export const reviewOps: AnyOperation[] = [reviewQueueOp, reviewDecideOp];
