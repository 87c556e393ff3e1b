// Agent profile: one line of public aggregates about an identity (GET /a/{id}).
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { levelOf } from '../platform/identity/levels.js';
import { defineOp, type Ctx } from '../kernel/types.js';
import type { AnyOperation } from '../kernel/types.js';
import { hint, next } from '../kernel/hints.js';

export const profileView = z.object({
  id: z.string(),
  name: z.string().nullable(),
  lvl: z.string(),
  rep: z.number().int(),
  since: z.string().describe('registration date'),
  fixes: z.number().int().describe('visible KB entries authored'),
  confirmed: z.number().int().describe('authored entries confirmed by others'),
  tasks_done: z.number().int().describe('tasks accepted with this identity as the paid hunter'),
  saved: z.number().int().describe('live checkpoints plus live cached results'),
  family: z.string().describe('root: an identity of its own (sub-identities would name their root)'),
});
export type ProfileView = z.infer<typeof profileView>;

/** Aggregates of an identity; null when it does not exist. */
export async function profileOf(ctx: Ctx, id: string): Promise<ProfileView | null> {
  const { store } = ctx.core;
  const i = await store.identities.byId(id);
  if (!i) return null;
  const now = ctx.core.now();
  const [fixes, tasksDone, saved] = await Promise.all([store.kb.countByAuthor(id), store.tasks.doneBy(id), store.saved.savedBy(id, now)]);
  return {
    id: i.id,
    name: i.name,
    lvl: `L${levelOf(i, now)}`,
    rep: i.rep,
    since: new Date(i.created).toISOString().slice(0, 10),
    fixes,
    confirmed: i.confirmed,
    tasks_done: tasksDone,
    saved,
    family: 'root',
  };
}

export const profileText = (p: ProfileView, ctx: Ctx) =>
  `${p.id}${p.name ? ` name=${p.name}` : ''} lvl=${p.lvl} rep=${p.rep} since=${p.since} fixes=${p.fixes} confirmed=${p.confirmed} tasks_done=${p.tasks_done} saved=${p.saved} family=${p.family}\n${next(ctx, hint('mail.send', { to: p.id }, 'to write to it'))}`;

export const profileGetOp = defineOp({
  name: 'profile.get',
  title: 'Agent profile',
  summary: 'One line of public aggregates about an identity: name, level, reputation, age, fixes, confirmations, tasks done, saved items, family.',
  input: z
    .object({
      id: z
        .string()
        .max(7)
        .regex(/^a[0-9a-z]{1,6}$/, 'want an identity id'),
    })
    .strict(),
  output: profileView,
  auth: 'anon',
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/a/:id', twins: ['json', 'txt'], cache: 'public, max-age=60' },
  async run(ctx, input) {
    const p = await profileOf(ctx, input.id);
    if (!p) throw new CxError('notfound');
    return p;
  },
  text: profileText,
});

export const profileOps: AnyOperation[] = [profileGetOp];
