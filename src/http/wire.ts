// What the HTTP host does below routing, for every app (the commons and the catalog): answers to
// requests Node's parser refuses, the error a too-long path segment raises, and a graceful drain of
// open connections at shutdown. All of them keep the one-line `err <code> <detail>` format.
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { CxError } from '../core/kernel/errors.js';
import { limit } from '../core/kernel/limits.js';

/**
 * Options of the Node server under every app. A missing Host is answered by the app (`missingHost`,
 * one line) instead of Node's empty 400. Headers are due within `http.headers_timeout`; Node checks
 * every `connectionsCheckingInterval` (30 s by default, so a slow sender was held 60-90 s).
 */
export const serverOptions = (): ServerOptions => ({
  requireHostHeader: false,
  headersTimeout: limit('http.headers_timeout') * 1000,
  connectionsCheckingInterval: 1000,
});

/** An HTTP/1.1 request without a Host header (RFC 9112 3.2: 400); HTTP/1.0 needs none. */
export const missingHost = (req: IncomingMessage): boolean => req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1;
export const missingHostError = (): CxError => new CxError('bad', 'missing Host header', 400, { Connection: 'close' });

/** Every response of `server` carries `X-Content-Type-Options: nosniff`, set on the raw response
 *  before any handler runs: fastify's replies, hijacked ones and early errors alike. */
export function nosniffEvery(server: Server): void {
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => res.setHeader('x-content-type-options', 'nosniff'));
}

/** Node's parser refused the request (bad request line, bad Content-Length, headers too large, timeout):
 *  there is no request to negotiate with, so the answer is the one-line text form, then the socket closes. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, line] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'err size request line or headers too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'err bad request not received in time']
        : [400, 'Bad Request', 'err bad malformed HTTP request'];
  const body = line + '\n';
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** fastify's FST_ERR_MAX_PARAM_LENGTH: a 414 line that does not repeat the path. */
export function paramTooLong(max: number): CxError {
  return new CxError('bad', `path: a segment is over ${max} characters`, 414);
}

/**
 * At close, requests that still arrive on open (kept-alive) connections get `503 err busy shutting
 * down` with `Connection: close` for up to `graceMs`, so a client learns the socket is going instead of
 * finding it reset; then the connections with no request in flight are closed. Requests already
 * running are served to the end.
 */
export function drainOnClose(app: FastifyInstance, graceMs: number): void {
  const sockets = new Set<Socket>();
  // Requests in flight per socket: a socket with none (kept alive, or opened and never used, as
  // HTTP clients' pools do) holds nothing, and is closed after the grace period.
  const inflight = new Map<Socket, number>();
  app.server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => {
      sockets.delete(s);
      inflight.delete(s);
    });
  });
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const s = req.socket;
    inflight.set(s, (inflight.get(s) ?? 0) + 1);
    res.once('close', () => inflight.set(s, (inflight.get(s) ?? 1) - 1));
  });
  let draining = false;
  app.addHook('onRequest', async () => {
    if (draining) throw new CxError('busy', 'shutting down', 503, { Connection: 'close', 'Retry-After': '1' });
  });
  app.addHook('preClose', async () => {
    draining = true;
    app.front?.close();
    const until = Date.now() + graceMs;
    while (sockets.size && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    for (const s of sockets) if (!inflight.get(s)) s.destroy();
  });
}
