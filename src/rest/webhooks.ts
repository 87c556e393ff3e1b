// POST /in/{id}: provider webhooks (GitHub, GitLab, generic). A provider-facing route, not an
// agent operation (no MCP tool or A2A skill): the body is taken as the exact bytes signed, capped at
// in.body (413 err size), and every outcome but `err notfound` is 204 with no body.
import type { FastifyInstance } from 'fastify';
import { limit } from '../core/kernel/limits.js';
import type { Core } from '../core/kernel/types.js';
import { receive } from '../core/webhooks/receive.js';

export function registerWebhooks(app: FastifyInstance, core: Core): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post('/in/:id', { bodyLimit: limit('in.body') }, async (req, reply) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      await receive(core, { id: (req.params as { id: string }).id, headers: req.headers, body });
      return reply.code(204).header('cache-control', 'no-store').send();
    });
  });
}
