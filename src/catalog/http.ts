// HTTP plumbing of the catalog: one-line errors (JSON on ?f=json or Accept: application/json; a
// page for browsers, see app.ts),
// open CORS for the public GETs, and ETag revalidation for the static documents.
import { createHash } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { CxError } from '../core/kernel/errors.js';
import { acceptQ } from '../http/negotiate.js';
import { paramTooLong } from '../http/wire.js';
import { CATALOG_LIMITS } from './limits.js';

export const TEXT = 'text/plain; charset=utf-8';
export const JSON_T = 'application/json; charset=utf-8';
export const HTML = 'text/html; charset=utf-8';

export function wantsJson(req: FastifyRequest): boolean {
  const f = (req.query as Record<string, unknown> | undefined)?.f;
  if (typeof f === 'string') return f === 'json';
  const a = req.headers.accept;
  const j = acceptQ(a, 'application/json');
  return j > 0 && j >= acceptQ(a, 'text/html') && j >= acceptQ(a, 'text/plain');
}

/** A browser (text/html preferred over text/plain and JSON, no ?f=): errors become a page. */
export function wantsHtml(req: FastifyRequest): boolean {
  if (typeof (req.query as Record<string, unknown> | undefined)?.f === 'string') return false;
  const a = req.headers.accept;
  const h = acceptQ(a, 'text/html');
  return h > 0 && h > acceptQ(a, 'text/plain') && h >= acceptQ(a, 'application/json');
}

export function sendErr(req: FastifyRequest, reply: FastifyReply, err: CxError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  reply.header('cache-control', 'no-store');
  if (wantsJson(req)) return reply.code(err.status).type(JSON_T).send({ error: err.code, detail: err.detail, status: err.status, line: err.line });
  return reply
    .code(err.status)
    .type(TEXT)
    .send(err.line + '\n');
}

export function toCxError(err: unknown, req: FastifyRequest): CxError {
  if (err instanceof CxError) return err;
  const e = err as FastifyError;
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new CxError('size', `body over ${req.routeOptions?.bodyLimit ?? 'the limit of'} bytes`, 413);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new CxError('bad', 'json: malformed body');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new CxError('bad', 'content-type: send application/x-www-form-urlencoded or application/json', 415);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new CxError('bad', 'content-length does not match the body');
    case 'FST_ERR_BAD_URL':
      return new CxError('bad', 'url: malformed');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return paramTooLong(CATALOG_LIMITS.url_param);
  }
  if (e instanceof SyntaxError || e?.statusCode === 400) return new CxError('bad', 'malformed request');
  if (e?.statusCode === 413) return new CxError('size', 'body too large', 413);
  if (e?.statusCode === 415) return new CxError('bad', 'content-type not supported', 415);
  req.log.error({ err }, 'catalog request failed');
  return new CxError('internal', `request ${req.id}`, 500);
}

const TOKEN_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

export function cors(reply: FastifyReply): void {
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', 'ETag, Cache-Control');
}

/** Preflight: any origin, GET/HEAD, the request headers asked for (no credentials are ever used). */
export function preflight(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  cors(reply);
  reply.header('access-control-allow-methods', 'GET, HEAD, OPTIONS');
  const asked = req.headers['access-control-request-headers'];
  if (typeof asked === 'string' && TOKEN_LIST.test(asked.trim())) reply.header('access-control-allow-headers', asked.trim());
  reply.header('access-control-max-age', '86400');
  return reply.code(204).send();
}

export interface Static {
  body: string;
  etag: string;
  type: string;
}

export function staticDoc(body: string, type: string): Static {
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** Sends a static document with ETag and public caching; 304 when If-None-Match matches. */
export function sendStatic(req: FastifyRequest, reply: FastifyReply, doc: Static, maxAge: number): FastifyReply {
  cors(reply);
  reply.header('etag', doc.etag);
  reply.header('cache-control', `public, max-age=${maxAge}`);
  const inm = req.headers['if-none-match'];
  if (typeof inm === 'string' && inm.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === doc.etag)) {
    return reply.code(304).send();
  }
  return reply.type(doc.type).send(doc.body);
}
