// REST adapter for dead drops: the HTTP details the generic adapter cannot express (raw text
// bodies, 201 vs 200, X-Drop-* headers, a HEAD that must not run the GET) around the same
// operations and the same pipeline every face uses.
import type { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dropDeleteOp, dropGetOp, dropPeekOp, dropPutOp } from '../core/drops/ops.js';
import { CxError } from '../core/errors.js';
import { invoke } from '../core/ops/invoke.js';
import type { Core, Ctx, Operation } from '../core/ops/types.js';
import { JSON_T, sendText, TEXT, wantsJson } from '../http/negotiate.js';
import { restMeta } from './ops.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Query parameters each route takes; f=json|txt is negotiation. Anything else is refused. */
const QUERY: Record<string, readonly string[]> = { PUT: ['ttl', 'reads', 'once', 'append'], GET: [], HEAD: [], DELETE: [] };

function coerce(k: string, v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (k === 'once' || k === 'append') return v === '1' || v === 'true' ? true : v === '0' || v === 'false' ? false : v;
  if (k === 'ttl' || k === 'reads') return /^-?\d{1,9}$/.test(v) ? Number(v) : v;
  return v;
}

function rawInput(req: FastifyRequest, op: Operation): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  const allowed = QUERY[req.method] ?? [];
  for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    if (k === 'f' && (v === 'json' || v === 'txt')) continue;
    // Secrets and keys never travel in query strings (they end up in logs and histories).
    if (!allowed.includes(k)) throw new CxError('bad', `${k.slice(0, 40)}: unknown query parameter`);
    raw[k] = coerce(k, v);
  }
  for (const [h, field] of Object.entries(op.rest?.headerInputs ?? {})) {
    const v = req.headers[h];
    if (typeof v === 'string') raw[field] = v.trim();
  }
  if (op.rest?.textBody) {
    const b = req.body;
    if (b !== undefined && b !== null && !Buffer.isBuffer(b)) throw new CxError('bad', 'body: send the text as the raw request body');
    try {
      raw[op.rest.textBody] = b ? utf8.decode(b) : '';
    } catch {
      throw new CxError('bad', 'body: not valid UTF-8');
    }
  }
  raw.secret = (req.params as { secret: string }).secret;
  return raw;
}

const meta = restMeta;

function opHeaders(reply: FastifyReply, op: Operation, out: unknown, ctx: Ctx): void {
  for (const [k, v] of Object.entries(op.headers?.(out, ctx) ?? {})) reply.header(k, v);
  reply.header('cache-control', 'no-store');
}

export function registerDropRoutes(app: FastifyInstance, core: Core): void {
  const path = dropPutOp.rest!.path;
  const run = <I extends z.ZodType, O>(req: FastifyRequest, op: Operation<I, O>) => invoke(core, op, rawInput(req, op), meta(req));
  app.register(async (sub) => {
    // Drop bodies are raw text whatever the Content-Type says (curl -d sends a form type):
    // this context parses every body as bytes and the adapter decodes strict UTF-8.
    sub.removeAllContentTypeParsers();
    sub.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    sub.route({
      method: 'PUT',
      url: path,
      bodyLimit: dropPutOp.rest!.bodyLimit,
      handler: async (req, reply) => {
        const { out, ctx } = await run(req, dropPutOp);
        const r = out;
        const status = r.created ? 201 : 200;
        opHeaders(reply, dropPutOp, out, ctx);
        if (wantsJson(req)) return reply.code(status).type(JSON_T).send(r);
        return sendText(reply, dropPutOp.text(r, ctx), status);
      },
    });

    sub.route({
      method: 'GET',
      url: path,
      // Fastify would answer HEAD by running this handler, which consumes a read.
      exposeHeadRoute: false,
      handler: async (req, reply) => {
        const { out, ctx } = await run(req, dropGetOp);
        opHeaders(reply, dropGetOp, out, ctx);
        // Untrusted text from another agent: never let a browser sniff it into something else.
        reply.header('x-content-type-options', 'nosniff');
        if (wantsJson(req)) return reply.code(200).type(JSON_T).send(out);
        return reply.code(200).type(TEXT).send(out.body);
      },
    });

    sub.route({
      method: 'HEAD',
      url: path,
      handler: async (req, reply) => {
        const { out, ctx } = await run(req, dropPeekOp);
        opHeaders(reply, dropPeekOp, out, ctx);
        return reply.code(200).send();
      },
    });

    sub.route({
      method: 'DELETE',
      url: path,
      handler: async (req, reply) => {
        const { out, ctx } = await run(req, dropDeleteOp);
        opHeaders(reply, dropDeleteOp, out, ctx);
        if (wantsJson(req)) return reply.code(200).type(JSON_T).send(out);
        return sendText(reply, dropDeleteOp.text(out, ctx));
      },
    });
  });
}
