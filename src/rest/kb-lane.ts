// The lean lane of the KB's hottest read, GET /h/{hex}: answered from Node's request event, before
// fastify, through the same operation pipeline (invoke: auth, shed, validate, quota) and the same
// rendering as the generated route; only fastify's per-request machinery is skipped. Anything but
// the plain case (a query string, another Accept than text, request logging on) is left to the
// generated route. Measured at 1M entries: see docs/benchmarks.md.
import type { IncomingMessage } from 'node:http';
import { CxError } from '../core/errors.js';
import { kbHashOp } from '../core/kb/ops.js';
import { invoke } from '../core/ops/invoke.js';
import type { Core } from '../core/ops/types.js';
import { netKey } from '../core/net.js';
import { TEXT } from '../http/negotiate.js';
import { render } from './ops.js';
import type { FrontHandler } from '../http/front.js';

const H = /^\/h\/[0-9a-f]{64}$/;

export function kbLane(core: Core, opts: { ip: (req: IncomingMessage) => string | undefined; admit: (req: IncomingMessage) => string | null }): FrontHandler {
  const op = kbHashOp;
  return (req, res) => {
    if (req.method !== 'GET' || !H.test(req.url ?? '')) return false;
    // Only the text form: any other Accept is negotiated by the route (JSON wins a tie with text).
    const accept = req.headers.accept;
    if (accept !== undefined && accept !== '*/*' && accept !== 'text/plain') return false;
    if (req.headers.authorization !== undefined || req.headers['x-pow'] !== undefined) return false;
    const id = opts.admit(req);
    if (id === null) return false;
    const hex = req.url!.slice(3);
    invoke(core, op, { hex }, { creds: {}, net: netKey(opts.ip(req)), reqId: id, face: 'rest' }).then(
      ({ out, ctx }) => {
        const text = render(op as never, out, ctx);
        const body = text.endsWith('\n') ? text : text + '\n';
        res.writeHead(200, { 'x-request-id': id, 'x-robots-tag': 'noindex', 'content-type': TEXT, 'content-length': Buffer.byteLength(body) });
        res.end(body);
      },
      (err: unknown) => {
        const cx = err instanceof CxError ? err : new CxError('internal', `request ${id}`, 500);
        if (!(err instanceof CxError)) core.log.error({ err }, 'request failed');
        const body = cx.line + '\n';
        res.writeHead(cx.status, { 'x-request-id': id, ...cx.headers, 'cache-control': 'no-store', 'content-type': TEXT, 'content-length': Buffer.byteLength(body) });
        res.end(body);
      },
    );
    return true;
  };
}
