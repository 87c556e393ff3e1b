// Renders every failure as the spec's one line, problem+json or JSON; never a stack, SQL or path.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { busyStore, CxError, errCode } from '../core/kernel/errors.js';
import { limit } from '../core/kernel/limits.js';
import { acceptQ, JSON_T, sendText, wantsJson } from './negotiate.js';
import { paramTooLong } from './wire.js';

/** The headers every error answer carries: its own (Retry-After ...), and no caching. */
export const errorHeaders = (err: CxError): Record<string, string> => ({ ...err.headers, 'cache-control': 'no-store' });

export function sendError(req: FastifyRequest, reply: FastifyReply, err: CxError, base: string): FastifyReply {
  reply.headers(errorHeaders(err));
  if (acceptQ(req.headers.accept, 'application/problem+json') > 0) {
    return reply
      .code(err.status)
      .type('application/problem+json; charset=utf-8')
      .send({ type: `${base}/help/err/${err.code}`, title: errCode(err.code)?.summary ?? err.code, status: err.status, detail: err.line, code: err.code });
  }
  if (wantsJson(req)) {
    return reply.code(err.status).type(JSON_T).send({ error: err.code, detail: err.detail, status: err.status, line: err.line });
  }
  return sendText(reply, err.line, err.status);
}

/** Maps framework and unknown errors to CxError; unknown ones are logged and hidden. */
export function toCxError(err: unknown, req: FastifyRequest): CxError {
  if (err instanceof CxError) return err;
  const e = err as FastifyError;
  const code = e?.code ?? '';
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      // A route with a declared size limit states it in the table's words (src/rest/ops.ts sizeLine).
      return new CxError(
        'size',
        (req.routeOptions?.config as { sizeLine?: string } | undefined)?.sizeLine ?? `body over ${req.routeOptions?.bodyLimit ?? 'the limit of'} bytes`,
        413,
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new CxError('bad', 'json: malformed body');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new CxError('bad', 'content-length does not match the body');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new CxError('bad', 'content-type not supported: send text/plain, JSON or a form');
    case 'FST_UNDER_PRESSURE':
      return new CxError('busy', 'server under load, retry later', 503, { 'Retry-After': String(limit('shed.retry_after')) });
    case 'FST_ERR_BAD_URL':
      return new CxError('bad', 'url: malformed');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return paramTooLong(limit('url.param'));
  }
  const busy = busyStore(err);
  if (busy) return busy;
  if (e instanceof SyntaxError || e?.statusCode === 400) return new CxError('bad', 'malformed request');
  if (e?.statusCode === 413) return new CxError('size', 'body too large', 413);
  if (e?.statusCode === 415) return new CxError('bad', 'content-type not supported');
  req.log.error({ err }, 'unhandled error');
  return new CxError('internal', `request ${req.id}`, 500);
}
