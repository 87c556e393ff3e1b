// REST adapter for blobs: PUT /v1/b takes the raw request body (any content type) and GET
// /v1/b/{hash} answers the raw bytes; both run the registry operations through the one pipeline
// (the bytes travel as base64 inside it, as they do on MCP and A2A).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { blobGetOp, blobPutOp } from '../core/blobs/ops.js';
import { CxError } from '../core/errors.js';
import { invoke } from '../core/ops/invoke.js';
import type { Core } from '../core/ops/types.js';
import { JSON_T, sendText, wantsJson } from '../http/negotiate.js';
import { restMeta } from './ops.js';

const meta = restMeta;

/** Blob routes take no query (f=json|txt only on the upload's reply). */
function noQuery(req: FastifyRequest, allowF: boolean): void {
  for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    if (allowF && k === 'f' && (v === 'json' || v === 'txt')) continue;
    throw new CxError('bad', `${k.slice(0, 40)}: unknown query parameter`);
  }
}

export function registerBlobRoutes(app: FastifyInstance, core: Core): void {
  app.register(async (sub) => {
    sub.removeAllContentTypeParsers();
    sub.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    sub.route({
      method: 'PUT',
      url: blobPutOp.rest!.path,
      bodyLimit: blobPutOp.rest!.bodyLimit,
      handler: async (req, reply) => {
        noQuery(req, true);
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const { out, ctx } = await invoke(core, blobPutOp, { data_b64: body.toString('base64') }, meta(req));
        reply.header('cache-control', 'no-store');
        if (wantsJson(req)) return reply.code(201).type(JSON_T).send(out);
        return sendText(reply, blobPutOp.text(out, ctx), 201);
      },
    });
  });
  app.route({
    method: 'GET',
    url: blobGetOp.rest!.path,
    handler: async (req, reply) => {
      noQuery(req, false);
      const { out } = await invoke(core, blobGetOp, { hash: (req.params as { hash: string }).hash }, meta(req));
      const b = out as { hash: string; kind: string; data_b64: string };
      return reply
        .code(200)
        .header('etag', `"${b.hash}"`)
        // Content-addressed: the bytes of a hash never change; private because reading needs a token.
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('x-blob-kind', b.kind)
        .type(b.kind === 'wasm' ? 'application/wasm' : 'application/octet-stream')
        .send(Buffer.from(b.data_b64, 'base64'));
    },
  });
}
