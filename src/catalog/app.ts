// Part B, the hosting catalog. Its content comes in its own issue; health is served now.
import Fastify, { type FastifyInstance } from 'fastify';

export async function buildCatalogApp(opts: { logger?: boolean | object } = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: opts.logger ?? false });
  app.get('/api/health', async () => ({ ok: true }));
  app.setNotFoundHandler((_req, reply) => reply.code(404).type('text/plain; charset=utf-8').send('err notfound\n'));
  app.setErrorHandler((_err, _req, reply) => reply.code(400).type('text/plain; charset=utf-8').send('err bad request\n'));
  return app;
}
