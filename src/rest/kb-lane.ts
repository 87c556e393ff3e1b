// The lean lane of the KB's two hottest routes, GET /h/{hex} and POST /e: their plain form is
// answered from Node's request event, before fastify, through the same operation pipeline (invoke:
// auth, shed, validate, quota) and the same rendering as the generated routes; only fastify's
// per-request machinery (request and reply objects, hooks, child logger, body parser) is skipped.
// Anything but the plain case (a query string, an Accept other than text, credentials, a body
// that is not a sized text/plain one) is left to the generated route, which answers it as always.
// Measured at 1M entries: see docs/benchmarks.md.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { asCxError } from '../core/kernel/errors.js';
import { kbHashOp, kbLookupOp } from '../core/kb/ops.js';
import { invoke } from '../core/platform/invoke.js';
import type { AnyOperation, Core } from '../core/kernel/types.js';
import { netKey } from '../core/kernel/net.js';
import { limit } from '../core/kernel/limits.js';
import { errorHeaders } from '../http/errors.js';
import { TEXT, textBody } from '../http/negotiate.js';
import type { FrontHandler } from '../http/front.js';
import { render } from './ops.js';

const H = /^\/h\/[0-9a-f]{64}$/;

interface LaneOpts {
  ip: (req: IncomingMessage) => string | undefined;
  admit: (req: IncomingMessage) => string | null;
}

/** The plain form: the text answer asked for (or nothing said), no credentials. */
function plain(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  // Any other Accept is negotiated by the route (JSON wins a tie with text).
  if (accept !== undefined && accept !== '*/*' && accept !== 'text/plain') return false;
  return req.headers.authorization === undefined && req.headers['x-pow'] === undefined;
}

export function kbLane(core: Core, opts: LaneOpts): FrontHandler {
  const maxBody = kbLookupOp.rest!.bodyLimit ?? limit('body.default');
  // The route's answers, without fastify: the text form of the result or of the error.
  const answer = async (req: IncomingMessage, res: ServerResponse, id: string, op: AnyOperation, raw: Record<string, unknown>) => {
    const send = (status: number, headers: Record<string, string | undefined>, text: string) => {
      const body = textBody(text);
      res.writeHead(status, {
        'x-request-id': id,
        ...headers,
        'content-type': TEXT,
        'content-length': Buffer.byteLength(body),
        'x-content-type-options': 'nosniff',
      });
      res.end(body);
    };
    try {
      const { out, ctx } = await invoke(core, op, raw, { creds: {}, net: netKey(opts.ip(req)), reqId: id, face: 'rest' });
      send(200, op.headers?.(out, ctx) ?? {}, render(op, out, ctx));
    } catch (err) {
      const cx = asCxError(err, id);
      if (cx.code === 'internal') core.log.error({ err }, 'request failed');
      send(cx.status, errorHeaders(cx), cx.line);
    }
  };
  return (req, res) => {
    const url = req.url ?? '';
    if (req.method === 'GET' && H.test(url)) {
      if (!plain(req)) return false;
      const id = opts.admit(req);
      if (id === null) return false;
      void answer(req, res, id, kbHashOp as AnyOperation, { hex: url.slice(3) });
      return true;
    }
    if (req.method === 'POST' && url === '/e') {
      const type = req.headers['content-type'];
      if (type !== 'text/plain' && type !== 'text/plain; charset=utf-8') return false;
      // A sized body within the route's limit (Node's parser then reads exactly that many bytes);
      // chunked, empty and oversized bodies get the route's own answers.
      const size = Number(req.headers['content-length']);
      if (!(size > 0 && size <= maxBody) || req.headers['transfer-encoding'] !== undefined || !plain(req)) return false;
      const id = opts.admit(req);
      if (id === null) return false;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void answer(req, res, id, kbLookupOp as AnyOperation, { text: Buffer.concat(chunks).toString('utf8') }));
      return true;
    }
    return false;
  };
}
