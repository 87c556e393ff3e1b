// POST /admin/announce: an operator announcement (spec 2.2), recorded, signed as an ann1 statement
// and published as a line on topic g:sys (the feed /f/sys reads that topic): a `ps:g:sys` event of
// the platform's line contract, which the swarm module follows like any other line. Kind `maintenance`
// also opens a maintenance window (src/core/platform/control): write kinds answer `503 err frozen <kind>`
// from `starts` until `ends`.
import { iso as isoS } from '../kernel/text.js';
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import type { Core } from '../kernel/types.js';
import { lineDraft } from '../platform/events/topics.js';
import { recordOrigin } from '../platform/origin.js';
import { statementLine } from '../platform/trust/sign.js';
import type { Announcement, AnnKind } from './ports.js';
import { hint, next } from '../kernel/hints.js';

export const ANN_KINDS = ['maintenance', 'incident', 'change', 'notice'] as const satisfies readonly AnnKind[];
/** The topic announcements are published on. */
export const SYS_TOPIC = 'g:sys';

export { isoS };

/** The signed bytes of an ann1 statement: fixed fields first, the text last (it may hold spaces). */
export const annPayload = (a: Pick<Announcement, 'id' | 'kind' | 'starts' | 'ends' | 'text'>): string =>
  `id=${a.id} kind=${a.kind} starts=${isoS(a.starts)} ends=${isoS(a.ends)} text=${a.text}`;

/**
 * Announcements for /status: with `current`, those that have not ended (running or coming), else the
 * latest; newest first, at most `admin.ann_list`.
 */
export async function listAnnouncements(core: Core, opts: { current: boolean }): Promise<Announcement[]> {
  return core.store.admin.announcements(opts.current ? core.now() : null, limit('admin.ann_list'));
}

const when = (field: string) =>
  z
    .string()
    .max(40)
    .refine(
      (s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && Number.isFinite(Date.parse(s)),
      `want an RFC 3339 date-time`,
    )
    .describe(`${field}: RFC 3339 date-time, e.g. 2026-12-01T02:00:00Z`);

const annOut = z.object({
  id: z.number().int(),
  kind: z.string(),
  starts: z.string(),
  ends: z.string(),
  text: z.string(),
  line: z.string(),
  seq: z.number().int(),
  maintenance: z.number().int().nullable(),
});

export const announceOp = defineOp({
  name: 'admin.announce',
  title: 'Announce (operator)',
  summary:
    'Record an announcement, publish it as a signed ann1 line on topic g:sys (feed /f/sys) and list it on /status; kind maintenance also freezes writes from starts until ends (admin token).',
  input: z
    .object({
      kind: z.enum(ANN_KINDS).describe('maintenance, incident, change or notice'),
      starts: when('starts'),
      ends: when('ends'),
      // The cap of the text (announce.text) answers 413, so the schema only bounds the request.
      text: z
        .string()
        .min(1)
        .max(8192)
        .describe(`at most ${limit('announce.text')} characters, one line`),
    })
    .strict(),
  output: annOut,
  auth: 'admin',
  readOnly: false,
  scrub: ['text'],
  hazard: ['text'],
  rest: { method: 'POST', path: '/admin/announce', cache: 'no-store' },
  async run(ctx, input) {
    const { core } = ctx;
    if (input.text.length > limit('announce.text')) throw new CxError('size', `text over ${limit('announce.text')} chars`, 413);
    if (/[\r\n\u0000-\u001f\u007f\u2028\u2029]/.test(input.text)) throw new CxError('bad', 'text: one line, no control characters');
    const starts = Date.parse(input.starts);
    const ends = Date.parse(input.ends);
    if (ends <= starts) throw new CxError('bad', 'ends: after starts');
    if (ends <= core.now()) throw new CxError('bad', 'ends: in the past');
    const maint = input.kind === 'maintenance' ? (await core.control.addMaintenance({ starts, ends, text: input.text }, 'admin')).id : null;
    const row = await core.store.admin.addAnnouncement({ kind: input.kind, starts, ends, text: input.text, line: '', maint, created: core.now() });
    const payload = annPayload(row);
    const s = core.keys.sign('ann1', payload);
    const line = statementLine('ann1', s.kid, s.sig, payload);
    await core.store.admin.setAnnouncementLine(row.id, line);
    // A line of g:sys (the platform's ps: contract): the swarm module follows it like any other line.
    const draft = lineDraft(SYS_TOPIC, line, { by: 'sys' });
    const published = await core.store.events.publish(draft.topic, draft.payload);
    await recordOrigin(ctx, 'line', `${SYS_TOPIC}:${published.id}`);
    core.log.info({ id: row.id, kind: row.kind, maint }, 'announced');
    return { id: row.id, kind: row.kind, starts: isoS(starts), ends: isoS(ends), text: row.text, line, seq: published.id, maintenance: maint };
  },
  text: (o, ctx) =>
    [
      `ok ann #${o.id} ${o.kind}`,
      o.line,
      ...(o.maintenance !== null ? [`maintenance: writes frozen ${o.starts} to ${o.ends}`] : []),
      next(ctx, hint('sys.status'), '; verify with ', hint('key.server')),
    ].join('\n'),
});
