// The lean path: a few hot routes (the KB lookups agents call in loops) answered straight from
// Node's `request` event, before fastify. fastify's routing, hooks, body parsers, reply object and
// per-request child logger cost more CPU than such a lookup itself (profiled: docs/benchmarks.md).
// A route here only takes the plain case it declares (its method, an exact path or one trailing
// segment, a text or form body, text or JSON wanted); anything else, and every request while the
// server closes, falls through to fastify, which owns all other behaviour. The same operation
// pipeline (invoke) runs on both paths, so answers are the same; test/http/hot.test.ts compares them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CxError } from '../core/errors.js';
import { limit } from '../core/limits.js';
import type { Core } from '../core/ops/types.js';
import { checkShed, shedClassOfPath } from '../core/control/shed.js';
import { errorBody } from './errors.js';

/** What a hot handler reads of a request: the shape rawInput and negotiation read of fastify's. */
export interface LeanRequest {
  id: string;
  method: string;
  url: string;
  ip: string;
  headers: IncomingMessage['headers'];
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: string | undefined;
  raw: IncomingMessage;
}

export interface LeanReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface HotRoute {
  method: 'GET' | 'POST';
  /** An exact path, or a prefix ending in '/' whose one remaining segment becomes `param`. */
  path: string;
  param?: string;
  bodyLimit?: number;
  /** Whether this request is the plain case the route answers (else fastify serves it). */
  accepts(req: LeanRequest): boolean;
  handle(req: LeanRequest): Promise<LeanReply>;
}

export interface RequestLog {
  level: string;
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface HotOptions {
  genReqId(req: IncomingMessage): string;
  trustProxy: boolean | string;
  allowedHosts: string[] | null;
}

const INFO_OR_LOWER = new Set(['trace', 'debug', 'info']);
const TEXT_BODY = /^text\/plain\s*(;|$)/i;

/** The client address as fastify computes it for `trustProxy` true or false (other settings are left to fastify). */
function clientIp(req: IncomingMessage, trust: boolean): string {
  const sock = req.socket.remoteAddress ?? '';
  if (!trust) return sock;
  const xff = req.headers['x-forwarded-for'];
  if (typeof xff !== 'string' || !xff) return sock;
  const first = xff.split(',')[0]!.trim();
  return first || sock;
}

export class HotRoutes {
  private exact = new Map<string, HotRoute>();
  private prefixed: HotRoute[] = [];
  /** Set while the server closes: fastify then answers (and drains) every request. */
  closing = false;
  /** The host's request logger (fastify's, with its serializers), set once the app exists. */
  log: RequestLog | null = null;

  constructor(private core: Core, private opts: HotOptions) {}

  add(route: HotRoute): void {
    if (route.param) this.prefixed.push(route);
    else this.exact.set(`${route.method} ${route.path}`, route);
  }

  get size(): number {
    return this.exact.size + this.prefixed.length;
  }

  /** Serves the request when a hot route takes it; false hands it to fastify untouched (body unread). */
  tryServe(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.closing || (this.exact.size === 0 && this.prefixed.length === 0)) return false;
    const method = req.method;
    if (method !== 'GET' && method !== 'POST') return false;
    if (typeof this.opts.trustProxy === 'string') return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    let route = this.exact.get(`${method} ${path}`);
    const params: Record<string, string> = {};
    if (!route) {
      for (const r of this.prefixed) {
        if (r.method !== method || !path.startsWith(r.path)) continue;
        const seg = path.slice(r.path.length);
        // Encoded, empty, nested or over-long segments: fastify's decoding and errors apply.
        if (!seg || seg.length > limit('url.param') || /[/%]/.test(seg)) return false;
        params[r.param!] = seg;
        route = r;
        break;
      }
      if (!route) return false;
    }
    if (this.opts.allowedHosts) return false;
    const h = req.headers;
    if (method === 'POST') {
      // A text body only (forms, JSON and encodings go through fastify's parsers).
      if (!TEXT_BODY.test(h['content-type'] ?? '') || h['content-encoding'] !== undefined) return false;
    } else if (h['content-length'] !== undefined || h['transfer-encoding'] !== undefined) return false;
    let query: Record<string, unknown> = {};
    if (q >= 0) {
      const search = url.slice(q + 1);
      if (search) {
        // Same decoding as fastify's query parser for what it is used on here: plain key=value pairs.
        if (/%(?![0-9a-fA-F]{2})/.test(search)) return false;
        const sp = new URLSearchParams(search);
        query = {};
        for (const [k, v] of sp) {
          if (k in query) return false; // repeated keys become arrays in fastify: leave it that way
          query[k] = v;
        }
      }
    }
    const lean: LeanRequest = { id: this.opts.genReqId(req), method, url, ip: clientIp(req, this.opts.trustProxy === true), headers: h, query, params, body: undefined, raw: req };
    if (!route.accepts(lean)) return false;
    void this.serve(route, lean, res);
    return true;
  }

  private async serve(route: HotRoute, req: LeanRequest, res: ServerResponse): Promise<void> {
    const started = performance.now();
    // The same two lines fastify logs for a request (its `req` serializer masks the path).
    const log = this.log;
    const info = !!log && INFO_OR_LOWER.has(log.level);
    if (info) log!.info({ reqId: req.id, req }, 'incoming request');
    let reply: LeanReply;
    try {
      const cls = shedClassOfPath(req.url);
      if (cls) await checkShed(this.core, cls);
      if (req.method === 'POST') req.body = await readText(req.raw, route.bodyLimit ?? limit('body.default'));
      reply = await route.handle(req);
    } catch (err) {
      reply = this.errorReply(req, err);
    }
    const body = Buffer.from(reply.body);
    res.writeHead(reply.status, { 'x-request-id': req.id, ...reply.headers, 'content-length': String(body.length) });
    res.end(body);
    if (info) log!.info({ reqId: req.id, res: { statusCode: reply.status }, responseTime: performance.now() - started }, 'request completed');
  }

  private errorReply(req: LeanRequest, err: unknown): LeanReply {
    let cx: CxError;
    if (err instanceof CxError) cx = err;
    else {
      (this.log ?? this.core.log).error({ err, reqId: req.id }, 'request failed');
      cx = new CxError('internal', `request ${req.id}`, 500);
    }
    // The request body is left unread on an early refusal: the connection cannot be reused.
    const headers: Record<string, string> = { ...cx.headers, 'cache-control': 'no-store' };
    if (!req.raw.complete) headers.connection = 'close';
    const e = errorBody(req.headers.accept, req.query.f, cx, this.core.config.baseUrl);
    return { status: cx.status, headers: { ...headers, 'content-type': e.type }, body: e.body };
  }
}

/** Reads a request body as UTF-8 text, refusing past `max` bytes as fastify does (413 `err size`). */
function readText(req: IncomingMessage, max: number): Promise<string> {
  const tooLarge = () => new CxError('size', `body over ${max} bytes`, 413);
  const declared = Number(req.headers['content-length']);
  if (declared > max) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    const onData = (c: Buffer) => {
      n += c.length;
      if (n > max) {
        req.off('data', onData);
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', () => reject(new CxError('bad', 'request body not received', 400)));
  });
}
