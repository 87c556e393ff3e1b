// Inbound webhook endpoints: created, listed and deleted by their owner. The secret is given by the
// owner or generated (then shown once, in the create reply); it is kept sealed and never returned.
import { CxError, notFound } from '../kernel/errors.js';
import { newId } from '../platform/identity/tokens.js';
import { limit } from '../kernel/limits.js';
import type { Ctx } from '../kernel/types.js';
import { iso } from '../platform/workspace.js';
import type { Provider, WebhookRow } from './ports.js';
import { sealSecret } from './secret.js';
import { topicFor } from './topics.js';

export const HOOK_ID = /^w[0-9a-z]{12}$/;

export interface EndpointView {
  id: string;
  url: string;
  provider: Provider;
  topic: string;
  /** Event names that publish; empty: every event. */
  events: string[];
  created: string;
  last: string | null;
  ok: number;
  dropped: number;
}

export interface CreatedView extends EndpointView {
  /** The generated secret, in this reply only; null when the owner gave one. */
  secret: string | null;
}

const view = (ctx: Ctx, r: WebhookRow): EndpointView => ({
  id: r.id,
  url: `${ctx.core.config.baseUrl}/in/${r.id}`,
  provider: r.provider,
  topic: r.topic,
  events: r.events ? r.events.split(',') : [],
  created: iso(r.created),
  last: r.last === null ? null : iso(r.last),
  ok: r.ok,
  dropped: r.dropped,
});

/** `push, Pull_Request` → ['push', 'pull_request']; duplicates go. */
export function parseEvents(s: string | undefined): string[] {
  if (!s || !s.trim()) return [];
  const names = [
    ...new Set(
      s
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((e) => e.toLowerCase()),
    ),
  ];
  for (const e of names) if (!/^[a-z0-9_.:-]{1,40}$/.test(e)) throw new CxError('bad', `events: ${e.slice(0, 40)} is not an event name (a-z 0-9 _ . : -)`);
  if (names.length > limit('in.events')) throw new CxError('bad', `events: at most ${limit('in.events')} names`);
  return names;
}

export async function createEndpoint(
  ctx: Ctx,
  provider: Provider,
  topicIn: string,
  secretIn: string | undefined,
  eventsIn: string | undefined,
): Promise<CreatedView> {
  const owner = ctx.caller.identity!;
  const topic = await topicFor(ctx.core, owner, topicIn);
  const events = parseEvents(eventsIn).join(',');
  const secret = secretIn ?? ctx.core.random(32).toString('base64url');
  const now = ctx.core.now();
  for (let i = 0; i < 5; i++) {
    const id = newId('w', ctx.core.random, 12);
    const r = await ctx.core.store.webhooks.insert(
      { id, owner: owner.id, provider, topic, events, ...sealSecret(ctx.core, id, owner.id, secret), created: now },
      limit('in.per_id'),
    );
    if (r === 'full') throw new CxError('dup', `at most ${limit('in.per_id')} webhook endpoints: delete one first`);
    if (r !== 'taken') return { ...view(ctx, r), secret: secretIn === undefined ? secret : null };
  }
  throw new CxError('busy', 'id space contention, retry', 503);
}

export async function listEndpoints(ctx: Ctx): Promise<EndpointView[]> {
  return (await ctx.core.store.webhooks.list(ctx.caller.identity!.id)).map((r) => view(ctx, r));
}

export async function deleteEndpoint(ctx: Ctx, id: string): Promise<void> {
  if (!(await ctx.core.store.webhooks.remove(id, ctx.caller.identity!.id))) throw notFound();
}
