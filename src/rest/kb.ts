// /kb/{id}: the browser page of a KB entry (GET /k/{id} sends browsers here); same operation.
// Hand-written because it is a second, HTML-only route of kb.get: a binding has one path.
import type { FastifyInstance } from 'fastify';
import { invoke } from '../core/ops/invoke.js';
import { kbGetOp } from '../core/kb/ops.js';
import type { Core } from '../core/ops/types.js';
import { HTML } from '../http/negotiate.js';
import { restMeta } from './ops.js';
import { entryHtml, PAGE_CSP } from './site.js';

export function registerKbPages(app: FastifyInstance, core: Core): void {
  const op = kbGetOp;
  app.get('/kb/:id', async (req, reply) => {
    const { out } = await invoke(core, op, { id: (req.params as { id: string }).id }, restMeta(req));
    reply.headers({ 'cache-control': 'public, max-age=60', 'content-security-policy': PAGE_CSP });
    return reply.type(HTML).send(entryHtml(core.config.baseUrl, out));
  });
}
