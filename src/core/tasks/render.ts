// Views of tasks: the JSON shape, one-fact-per-line text, list lines.
import { iso } from '../kernel/text.js';
import { z } from 'zod';
import { limit } from '../kernel/limits.js';
import { flat } from '../kernel/text.js';
import type { Task } from './ports.js';
import { hint, next, type HintFace } from '../kernel/hints.js';

const indent = (s: string) =>
  s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');

export const bountyView = z.object({ id: z.string(), credits: z.number().int(), state: z.enum(['held', 'paid', 'refunded']) });

export const taskView = z.object({
  id: z.string(),
  url: z.string(),
  state: z.enum(['open', 'claimed', 'done', 'accepted', 'cancelled']),
  title: z.string(),
  body: z.string(),
  tags: z.array(z.string()),
  space: z.string().nullable().describe('s:<slug> the task was posted in'),
  creator: z.string(),
  claimant: z.string().nullable(),
  claimed: z.string().nullable().describe('when the current claim started'),
  lapses: z.string().nullable().describe('when the current claim lapses (others may claim, the creator may release)'),
  result: z.string().nullable(),
  note: z.string().nullable().describe('the last rejection note'),
  hunter: z.string().nullable().describe('who was paid (accepted)'),
  bounty: bountyView.nullable(),
  created: z.string(),
  updated: z.string(),
});
export type TaskView = z.infer<typeof taskView>;

export function bountyOf(t: Task): TaskView['bounty'] {
  if (!t.bounty) return null;
  const state = t.state === 'accepted' ? 'paid' : t.state === 'cancelled' ? 'refunded' : 'held';
  return { id: t.bounty, credits: t.credits, state };
}

export function viewOf(t: Task, base: string): TaskView {
  const ttl = limit('task.claim_ttl') * 3_600_000;
  const claimedNow = t.state === 'claimed' || t.state === 'done';
  return {
    id: t.id,
    url: `${base}/v1/tasks/${t.id}`,
    state: t.state,
    title: t.title,
    body: t.body,
    tags: t.tags,
    space: t.space ? `s:${t.space}` : null,
    creator: t.creator,
    claimant: claimedNow ? t.claimant : null,
    claimed: claimedNow && t.claimed !== null ? iso(t.claimed) : null,
    lapses: t.state === 'claimed' && t.claimed !== null ? iso(t.claimed + ttl) : null,
    result: t.result,
    note: t.note,
    hunter: t.hunter,
    bounty: bountyOf(t),
    created: iso(t.created),
    updated: iso(t.updated),
  };
}

const bountyPart = (b: TaskView['bounty']) => (b ? ` bounty=${b.id}:${b.credits}:${b.state}` : '');

export function nextFor(v: Pick<TaskView, 'id' | 'state'>, ctx: { hints?: HintFace }): string {
  const id = { id: v.id };
  switch (v.state) {
    case 'open':
      return next(ctx, hint('task.claim', id, 'to take it; the creator may'), ' ', hint('task.cancel', id));
    case 'claimed':
      return next(ctx, 'the claimant ', { op: 'task.done', input: id, form: 'plural', say: 'with result=<what was done>, or' }, ' ', {
        op: 'task.release',
        input: id,
        form: 'bare',
      });
    case 'done':
      return next(ctx, 'the creator ', { op: 'task.accept', input: id, form: 'plural', say: '(pays the bounty) or' }, ' ', {
        op: 'task.reject',
        input: id,
        form: 'bare',
        say: 'with a note',
      });
    default:
      return next(ctx, hint('task.list', undefined, 'for open tasks'));
  }
}

export function taskText(v: TaskView, ctx: { hints?: HintFace }): string {
  return [
    `task ${v.id} ${v.state}${bountyPart(v.bounty)} by ${v.creator} ${v.created.slice(0, 10)} untrusted`,
    `title: ${flat(v.title, 200)}`,
    `tags: ${v.tags.join(' ') || '-'}`,
    `space: ${v.space ?? '-'}`,
    ...(v.claimant ? [`claimant: ${v.claimant} since ${v.claimed}${v.lapses ? ` lapses ${v.lapses}` : ''}`] : []),
    ...(v.hunter ? [`hunter: ${v.hunter}`] : []),
    ...(v.note ? [`note: ${flat(v.note, 300)}`] : []),
    ...(v.result !== null ? ['result:', indent(v.result)] : []),
    'body:',
    indent(v.body || '-'),
    nextFor(v, ctx),
  ].join('\n');
}

export const listLine = (v: TaskView) =>
  `${v.id} ${v.state}${v.bounty ? ` ${v.bounty.credits}cr` : ''} by ${v.creator}${v.space ? ` ${v.space}` : ''}${v.tags.length ? ` [${v.tags.join(',')}]` : ''} ${flat(v.title, 120)}`;
