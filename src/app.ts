// Composition of the HTTP faces: the shared host, then REST, MCP and A2A as its plugins.
// The faces never import each other; this file is the only place that knows all three.
import type { FastifyInstance } from 'fastify';
import { a2aFace } from './a2a/routes.js';
import type { AnyOperation, Core } from './core/kernel/types.js';
import { limit } from './core/kernel/limits.js';
import { createHost, type HostOptions } from './http/host.js';
import { drainOnClose } from './http/wire.js';
import { mcpFace } from './mcp/routes.js';
import { restFace } from './rest/plugin.js';

export async function buildApp(core: Core, ops: readonly AnyOperation[], opts: HostOptions = {}): Promise<FastifyInstance> {
  const app = await createHost(core, opts);
  await app.register(restFace, { core, ops });
  await app.register(mcpFace, { core, ops });
  await app.register(a2aFace, { core, ops });
  // Last, so its wait at close starts after the faces have ended their streams and sessions.
  drainOnClose(app, limit('shutdown.drain'));
  return app;
}
