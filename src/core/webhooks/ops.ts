// Inbound webhook endpoint operations (REST under /v1/in). Deliveries themselves arrive on
// POST /in/{id} (src/core/webhooks/receive.ts), a provider-facing route outside the registry.
import { z } from 'zod';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import type { AnyOperation } from '../kernel/types.js';
import { createEndpoint, deleteEndpoint, HOOK_ID, listEndpoints, type EndpointView } from './endpoints.js';
import { TOPIC_FORMS } from './topics.js';
import { hint, next } from '../kernel/hints.js';

const viewOut = z.object({
  id: z.string(),
  url: z.string(),
  provider: z.enum(['github', 'gitlab', 'generic']),
  topic: z.string(),
  events: z.array(z.string()),
  created: z.string(),
  last: z.string().nullable(),
  ok: z.number().int(),
  dropped: z.number().int(),
});

const SIGNING: Record<EndpointView['provider'], string> = {
  github: 'GitHub: Payload URL = url, Content type application/json, Secret = your secret',
  gitlab: 'GitLab: URL = url, Secret token = your secret',
  generic:
    'generic: X-Cx-Timestamp: <unix s>, X-Cx-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>, optional X-Cx-Event; the same signed request again is a replay',
};

const row = (v: EndpointView) =>
  `in ${v.id} provider=${v.provider} topic=${v.topic} events=${v.events.join(',') || 'all'} ok=${v.ok} dropped=${v.dropped} last=${v.last ?? '-'}`;

export const inCreateOp = defineOp({
  name: 'in.create',
  title: 'Create an inbound webhook',
  summary:
    'Create a webhook endpoint (POST /in/<id>) publishing on a topic: each valid delivery (GitHub, GitLab or generic signature) publishes one scrubbed summary line; the secret is generated and shown once when not given.',
  input: z
    .object({
      provider: z.enum(['github', 'gitlab', 'generic']),
      topic: z.string().min(1).max(120).describe(TOPIC_FORMS),
      secret: z
        .string()
        .min(limit('in.secret.min'))
        .max(limit('in.secret.max'))
        .regex(/^[\x21-\x7e]+$/, 'printable ASCII, no spaces')
        .optional()
        .describe('generated when left out'),
      events: z.string().max(800).optional().describe('event names, comma-separated; default all'),
    })
    .strict(),
  output: viewOut.extend({ secret: z.string().nullable() }),
  auth: 'token',
  readOnly: false,
  quota: ['write', 'write_net'],
  freeze: 'write',
  rest: { method: 'POST', path: '/v1/in', status: 201, cache: 'no-store' },
  run: (ctx, i) => createEndpoint(ctx, i.provider, i.topic, i.secret, i.events),
  text: (v, ctx) =>
    [
      `ok ${row(v)}`,
      `url: ${v.url}`,
      v.secret ? `secret: ${v.secret} (shown once: keep it now)` : 'secret: yours (never shown again)',
      `signing: ${SIGNING[v.provider]}`,
      next(ctx, 'point the provider at url; ', hint('in.list', undefined, 'shows deliveries')),
    ].join('\n'),
});

export const inListOp = defineOp({
  name: 'in.list',
  title: 'List my inbound webhooks',
  summary: 'Your webhook endpoints, never the secret: topic, filter and delivery counts of each.',
  input: z.object({}).strict(),
  output: z.object({ rows: z.array(viewOut) }),
  auth: 'token',
  readOnly: true,
  rest: { method: 'GET', path: '/v1/in', cache: 'private, no-store' },
  run: async (ctx) => ({ rows: await listEndpoints(ctx) }),
  text: (o, ctx) =>
    [
      `in endpoints=${o.rows.length}`,
      ...o.rows.map((v) => `${row(v)} url=${v.url}`),
      o.rows.length ? next(ctx, hint('in.delete', { id: '<id>' }, 'to remove one')) : next(ctx, hint('in.create', undefined, 'to create one')),
    ].join('\n'),
});

export const inDeleteOp = defineOp({
  name: 'in.delete',
  title: 'Delete an inbound webhook',
  summary: 'Delete one of your webhook endpoints: its deliveries get 404 from then on.',
  input: z.object({ id: z.string().regex(HOOK_ID, 'want w + 12 chars') }).strict(),
  output: z.object({ ok: z.literal(true), id: z.string() }),
  auth: 'token',
  readOnly: false,
  idempotent: true,
  destructive: true,
  freeze: 'write',
  rest: { method: 'DELETE', path: '/v1/in/:id', cache: 'no-store' },
  async run(ctx, i) {
    await deleteEndpoint(ctx, i.id);
    return { ok: true as const, id: i.id };
  },
  text: (o, ctx) => `ok deleted ${o.id}\n${next(ctx, hint('in.list', undefined, 'for the endpoints left'))}`,
});

export const webhookOps: AnyOperation[] = [inCreateOp, inListOp, inDeleteOp];
