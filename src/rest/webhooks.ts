// POST /in/{id}: provider webhooks (GitHub, GitLab, generic). A provider-facing route, not an
// agent operation (no MCP tool or A2A skill): the body is taken as the exact bytes signed, capped at
// in.body (413 err size), and every outcome but `err notfound` is 204 with no body.
import { limit } from '../core/kernel/limits.js';
import { receive } from '../core/webhooks/receive.js';
import { rawGroup } from '../http/raw.js';
import type { RestEnv } from './env.js';

export const webhookRoutes = rawGroup(
  'rest',
  'src/rest/webhooks.ts',
  {
    // Publishing is a write: a write freeze or a maintenance window holds deliveries (503, before any
    // lookup, so the reply says nothing about the id); providers retry or redeliver later.
    in: { method: 'POST', path: '/in/:id', purpose: 'provider webhook deliveries (GitHub, GitLab, generic) to a topic', shed: 'core', freeze: 'write' },
  },
  ({ core }: RestEnv) => ({
    in: {
      bodyLimit: limit('in.body'),
      scope(s) {
        s.removeAllContentTypeParsers();
        s.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
      },
      async handle(req, reply) {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        await receive(core, { id: (req.params as { id: string }).id, headers: req.headers, body });
        return reply.code(204).header('cache-control', 'no-store').send();
      },
    },
  }),
);
