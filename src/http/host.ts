// The shared HTTP host of the commons: the fastify instance, body parsers, request ids, host
// checks, load shedding (measured in pressure.ts, decided in src/core/platform/control/shed.ts, applied
// by the invoke guards and, for raw routes, by their declared class in src/http/raw.ts), and the one
// error and not-found rendering. Faces (REST, MCP, A2A) are plugins registered on it by the
// composition root (src/app.ts); none of them builds its own.
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { CxError } from '../core/kernel/errors.js';
import { InputRefused } from '../core/kernel/input-refused.js';
import { limit } from '../core/kernel/limits.js';
import type { Core } from '../core/kernel/types.js';
import { sendError, toCxError } from './errors.js';
import { logSerializers, maskUrl } from './logging.js';
import { logFormatFor, prettyRequests, prettyStream } from './log-format.js';
import { clientErrorHandler, missingHost, missingHostError, serverOptions } from './wire.js';
import { PAGE_CSP } from './html.js';
import { startPressure } from './pressure.js';
import { createFront, type FrontApi, type FrontHandler } from './front.js';
import type { IncomingMessage } from 'node:http';

export interface HostOptions {
  logger?: boolean;
  /** Where the request log goes (default stdout); tests read it. */
  logStream?: NodeJS.WritableStream;
  /** Default the config's (CX_LOG): pretty lines for a terminal or JSON for a collector (src/http/log-format.ts). */
  logFormat?: 'pretty' | 'json';
}

export async function createHost(core: Core, opts: HostOptions = {}): Promise<FastifyInstance> {
  const { config } = core;
  const reqPrefix = randomBytes(4).toString('hex');
  let reqSeq = 0;
  const front = createFront(serverOptions());
  const requestId = (given: string | string[] | undefined): string =>
    typeof given === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(given) ? given : reqPrefix + (reqSeq++).toString(16).padStart(8, '0');
  const hostAllowed = (host: string | undefined): boolean =>
    !config.allowedHosts || config.allowedHosts.includes((host ?? '').toLowerCase().replace(/:\d+$/, ''));
  const pretty = logFormatFor(opts.logFormat ?? config.logFormat, opts.logStream) === 'pretty';
  const logStream = pretty ? prettyStream(opts.logStream) : opts.logStream;
  const app = Fastify({
    serverFactory: front.factory,
    logger: opts.logger === false ? false : { level: config.logLevel, serializers: logSerializers, ...(logStream ? { stream: logStream } : {}) },
    // Pretty: one line per request instead of fastify's two JSON lines.
    ...(pretty ? { logController: prettyRequests(maskUrl) } : {}),
    trustProxy: config.trustProxy,
    bodyLimit: limit('body.default'),
    // A caller's X-Request-Id is kept only when it is short and plain; otherwise a random
    // per-process prefix and a counter: unique without a CSPRNG call per request.
    requestIdHeader: false,
    genReqId: (req) => requestId(req.headers['x-request-id']),
    // Malformed URLs and headers become the spec's one-line errors, not fastify's JSON.
    frameworkErrors: (err, req, reply) => {
      sendError(req, reply, toCxError(err, req), config.baseUrl);
    },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: limit('url.param') },
    // Requests Node's parser refuses get the one-line form too, not fastify's JSON.
    clientErrorHandler,
    // While closing, requests already on open connections are served (drained) instead of getting
    // fastify's own JSON 503, which is not the one-line error format.
    return503OnClosing: false,
  });

  // Every route is either generated from an operation (src/rest/ops.ts: config.cxOp) or declared in
  // a face's raw route table and registered by src/http/raw.ts (config.cxRaw): a route added by hand
  // fails the start, so no route escapes the declared shedding, freezes and quotas, or the docs.
  app.addHook('onRoute', (r) => {
    const c = r.config as { cxOp?: boolean; cxRaw?: string } | undefined;
    if (!c?.cxOp && !c?.cxRaw) throw new Error(`route ${String(r.method)} ${r.url} is neither an operation nor a declared raw route (src/http/raw.ts)`);
  });
  await app.register(formbody, { bodyLimit: limit('body.default') });
  // An empty JSON body means no fields (clients often send the header on body-less POSTs).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = String(body);
    if (!text.trim()) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      const err = new CxError('bad', 'json: malformed body');
      // Operation routes refuse it after auth (src/core/kernel/input-refused.ts); other routes at once.
      if ((req.routeOptions.config as { cxOp?: boolean } | undefined)?.cxOp) done(null, new InputRefused(err));
      else done(err, undefined);
    }
  });
  // Any other content type arrives as a string; the face's adapter decides whether it fits.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  // The measured shed level (src/http/pressure.ts): event-loop delay and utilization, heap, database
  // busy share, sampled every second from 2 s after ready (start-up work is not overload).
  let meter: ReturnType<typeof startPressure> | null = null;
  app.addHook('onReady', async () => {
    meter = startPressure(core, { enabled: config.shedMeasure });
  });
  app.addHook('onClose', async () => meter?.stop());
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    // Node's own answer would be an empty 400 (requireHostHeader is off in serverOptions).
    if (missingHost(req.raw)) throw missingHostError();
    if (!hostAllowed(req.headers.host)) throw new CxError('bad', 'host not allowed', 421);
  });
  // Every HTML reply has a CSP: routes that set none get the pages' policy.
  app.addHook('onSend', (_req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html') && !reply.hasHeader('content-security-policy'))
      reply.header('content-security-policy', PAGE_CSP);
    done(null, payload);
  });
  // The front's handlers (src/http/front.ts) pass the same host gate; what it refuses (another host)
  // is left to fastify, which answers as above. They serve operation routes only, whose shedding is
  // the invoke guard's. With request logging on (info or more
  // verbose) they stand aside: the log would miss their requests.
  const quiet = opts.logger === false || ['warn', 'error', 'fatal', 'silent'].includes(app.log.level);
  app.decorate<FrontApi>('front', {
    add(h: FrontHandler) {
      if (quiet) front.handlers.push(h);
    },
    admit(req: IncomingMessage): string | null {
      return req.headers.host !== undefined && hostAllowed(req.headers.host) ? requestId(req.headers['x-request-id']) : null;
    },
    /** At close every request goes to fastify again, which drains (src/http/wire.ts). */
    close() {
      front.handlers.length = 0;
    },
    get answered() {
      return front.answered;
    },
  });

  app.setErrorHandler((err, req, reply) => {
    const cx = toCxError(err, req);
    if (cx.status >= 500 && cx.code !== 'busy') req.log.error({ err }, 'request failed');
    return sendError(req, reply, cx, config.baseUrl);
  });
  app.setNotFoundHandler((req, reply) =>
    sendError(req, reply, new CxError('notfound', `no route ${req.method} ${req.url.split('?')[0]!.slice(0, 120)}`), config.baseUrl),
  );
  return app;
}
