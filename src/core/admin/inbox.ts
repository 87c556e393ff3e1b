// The operator inbox (GET /admin/inbox), built on the event bus. Any domain adds an item by
// publishing an event on topic `inbox.<kind>` (kind: a-z 0-9 _, at most 24) whose payload is an
// InboxEvent: `ref` names the item (a proposal id, a notice id, a mail report number ...); a later
// event with the same kind and ref updates the fields it carries (e.g. `{ref, status: 'decided'}`).
// Publish with `postInbox` (own transaction) or put `inboxDraft` in a write's `emit` (same
// transaction as the write); both are the platform's topic contract (src/core/platform/events/topics.ts). The inbox copies those events into durable rows (the bus prunes after
// events.retention_h) whenever it is read; the row's seq is the `since` cursor.
//
// Caps (spec 8): per kind and UTC day, the first `inbox.per_kind_day` items arriving are rows; the
// rest of that kind and day fold into one summary row. Default: open items only; `all=1`: every
// item, every status, no folding.
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import type { Core } from '../kernel/types.js';
import { iso as isoS } from '../kernel/text.js';
import type { InboxItem } from './ports.js';
import { hint, next } from '../kernel/hints.js';

// The topic contract (shape, topic name, publishing) is the platform's, so writers need not import admin.
export { INBOX_PREFIX, inboxDraft, inboxTopic, postInbox } from '../platform/events/topics.js';
const KIND_RE = /^[a-z][a-z0-9_]{0,23}$/;
const DAY = 86_400_000;

const rowOut = z.object({
  cursor: z.number().int(),
  id: z.string(),
  kind: z.string(),
  scope: z.string(),
  title: z.string(),
  support_w: z.number(),
  groups: z.number().int(),
  created: z.string(),
  url: z.string(),
  status: z.string(),
});
type Row = z.infer<typeof rowOut>;

const dayOf = (ms: number) => ms - (ms % DAY);

export async function readInbox(core: Core, q: { since: number; k: number; kind: string | null; all: boolean }): Promise<{ rows: Row[]; next: number }> {
  await core.store.admin.ingestInbox();
  const cap = limit('inbox.per_kind_day');
  const rows: Row[] = [];
  const folds = new Map<string, Row & { n: number }>();
  let consumed = q.since;
  const row = (i: InboxItem): Row => ({
    cursor: i.seq,
    id: i.ref,
    kind: i.kind,
    scope: i.scope,
    title: i.title,
    support_w: i.support_w,
    groups: i.groups,
    created: isoS(i.created),
    url: i.url,
    status: i.status,
  });
  scan: for (;;) {
    const batch = await core.store.admin.inboxAfter(consumed, 500, q.kind);
    for (const i of batch) {
      if (!q.all && i.status !== 'open') {
        consumed = i.seq;
        continue;
      }
      if (q.all || (i.rank ?? 1) <= cap) {
        if (rows.length >= q.k) break scan;
        rows.push(row(i));
      } else {
        const day = dayOf(i.created);
        const key = `${i.kind} ${day}`;
        const f = folds.get(key);
        if (f) {
          f.n++;
          f.cursor = i.seq;
          f.title = `${f.n} more ${i.kind} items on ${isoS(day).slice(0, 10)}`;
        } else {
          if (rows.length >= q.k) break scan;
          const s = {
            cursor: i.seq,
            id: `more:${i.kind}:${isoS(day).slice(0, 10)}`,
            kind: i.kind,
            scope: 'summary',
            title: `1 more ${i.kind} items on ${isoS(day).slice(0, 10)}`,
            support_w: 0,
            groups: 0,
            created: isoS(day),
            url: `/admin/inbox?kind=${i.kind}&all=1&since=${i.seq - 1}`,
            status: 'summary',
            n: 1,
          };
          folds.set(key, s);
          rows.push(s);
        }
      }
      consumed = i.seq;
    }
    if (batch.length < 500) break;
  }
  return { rows: rows.map(({ n: _n, ...r }: Row & { n?: number }) => r), next: consumed };
}

export const inboxOp = defineOp({
  name: 'admin.inbox',
  title: 'Operator inbox',
  summary: `Items waiting for the operator (mail reports, notices, proposals, check requests ...), by events cursor since; ${limit('inbox.per_kind_day')} new items per kind per day, the rest in one summary row; all=1 lists every item and status (poll token).`,
  input: z
    .object({
      since: z.number().int().min(0).default(0).describe('events seq cursor: the next value of the previous page'),
      k: z
        .number()
        .int()
        .min(1)
        .max(limit('inbox.k'))
        .default(50)
        .describe(`rows, at most ${limit('inbox.k')}`),
      kind: z.string().max(24).regex(KIND_RE, 'a-z 0-9 _').optional().describe('only this kind'),
      all: z.boolean().default(false).describe('1: every item and status, no folding'),
    })
    .strict(),
  output: z.object({ rows: z.array(rowOut), next: z.number().int() }),
  auth: 'poll',
  readOnly: true,
  // Spec 4.7: "200 JSON rows"; the text form is the twin (/admin/inbox.txt, ?f=txt, Accept: text/plain).
  rest: { method: 'GET', path: '/admin/inbox', cache: 'no-store', query: ['since', 'k', 'kind', 'all'], defaultJson: true, twins: ['txt', 'json'] },
  async run(ctx, input) {
    if (input.since > Number.MAX_SAFE_INTEGER) throw new CxError('bad', 'since');
    return readInbox(ctx.core, { since: input.since, k: input.k, kind: input.kind ?? null, all: input.all });
  },
  text: (o, ctx) =>
    [
      `inbox rows=${o.rows.length} next=${o.next}`,
      ...o.rows.map(
        (r) =>
          `${r.cursor} ${r.kind} ${r.id} ${r.status} ${r.created}${r.scope ? ` scope=${r.scope}` : ''}${r.support_w ? ` w=${r.support_w}` : ''}${r.groups ? ` groups=${r.groups}` : ''} ${r.title}${r.url ? ` ${r.url}` : ''}`,
      ),
      next(ctx, hint('admin.inbox', { since: o.next })),
    ].join('\n'),
});
