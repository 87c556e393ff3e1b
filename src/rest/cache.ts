// REST adapter for cached results: GET /c/{key} (raw text, 303 to the blob for blob rows) and a
// HEAD that runs the counting-free peek instead of the GET, around the same operations and pipeline.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cacheGetOp, cachePeekOp } from '../core/cache/ops.js';
import type { ReadOut } from '../core/cache/cache.js';
import { invoke } from '../core/ops/invoke.js';
import type { Core, Ctx, Operation } from '../core/ops/types.js';
import { JSON_T, TEXT, wantsJson } from '../http/negotiate.js';
import { restMeta } from './ops.js';

/** Path key and query (ns; f=json|txt is negotiation); zod's strict objects refuse anything else. */
function rawInput(req: FastifyRequest): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    if (k === 'f' && (v === 'json' || v === 'txt')) continue;
    raw[k] = v;
  }
  raw.key = (req.params as { key: string }).key;
  return raw;
}

const meta = restMeta;

function headers(reply: FastifyReply, op: Operation, out: unknown, ctx: Ctx): void {
  for (const [k, v] of Object.entries(op.headers?.(out, ctx) ?? {})) reply.header(k, v);
  // Untrusted text from another agent: never let a browser sniff it into something else.
  reply.header('x-content-type-options', 'nosniff');
}

export function registerCacheRoutes(app: FastifyInstance, core: Core): void {
  const path = cacheGetOp.rest!.path;
  app.route({
    method: 'GET',
    url: path,
    // Fastify would answer HEAD by running this handler, which counts a hit.
    exposeHeadRoute: false,
    handler: async (req, reply) => {
      const { out, ctx } = await invoke(core, cacheGetOp, rawInput(req), meta(req));
      const r = out as ReadOut;
      headers(reply, cacheGetOp, out, ctx);
      if (r.kind === 'blob') return reply.code(303).header('location', r.location!).type(TEXT).send(`see ${r.location}\n`);
      if (wantsJson(req)) return reply.code(200).type(JSON_T).send(r);
      return reply.code(200).type(TEXT).send(r.text);
    },
  });
  app.route({
    method: 'HEAD',
    url: path,
    handler: async (req, reply) => {
      const { out, ctx } = await invoke(core, cachePeekOp, rawInput(req), meta(req));
      headers(reply, cachePeekOp, out, ctx);
      return reply.code(200).send();
    },
  });
}
