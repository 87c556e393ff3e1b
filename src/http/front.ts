// A front on the host's HTTP server: handlers that may answer a request before fastify sees it.
// Faces add them (src/rest/kb-lane.ts); a handler that returns false leaves the request to fastify
// untouched. They exist for the few hot, body-less read routes where fastify's per-request work
// (request and reply objects, hooks, child loggers) was a measurable share of the CPU.
import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse, type Server } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

export type FrontHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/** What the host decorates itself with (`app.front`), for faces to add handlers. */
export interface FrontApi {
  /** Adds a handler (ignored while request logging is on: its requests would be missing from the log). */
  add(h: FrontHandler): void;
  /** The host's gate for a request the front will answer: its request id, or null to leave it to fastify. */
  admit(req: IncomingMessage): string | null;
  /** From now on every request goes to fastify (closing: it drains). */
  close(): void;
  /** Requests the front's handlers have taken (tests read it). */
  readonly answered: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    front: FrontApi;
  }
}

export interface Front {
  handlers: FrontHandler[];
  answered: number;
  /** The server fastify is given (its options: timeouts, as fastify sets them on its own server). */
  factory: (
    handler: (req: IncomingMessage, res: ServerResponse) => void,
    opts: { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number },
  ) => Server;
}

/** `options`: the Node server's (src/http/wire.ts serverOptions). */
export function createFront(options: ServerOptions = {}): Front {
  const handlers: FrontHandler[] = [];
  const front: Front = {
    handlers,
    answered: 0,
    factory(handler, opts) {
      const server = createServer(options, (req, res) => {
        for (const h of handlers) {
          if (h(req, res)) {
            front.answered++;
            return;
          }
        }
        // The front's handlers write their own headers (nosniff among them) in one writeHead.
        res.setHeader('x-content-type-options', 'nosniff');
        handler(req, res);
      });
      if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
      if (opts.requestTimeout !== undefined) server.requestTimeout = opts.requestTimeout;
      if (opts.connectionTimeout !== undefined) server.setTimeout(opts.connectionTimeout);
      return server;
    },
  };
  return front;
}

/** The client address as fastify computes `req.ip` with the same trustProxy setting. */
export function clientIp(trustProxy: boolean | string): (req: IncomingMessage) => string | undefined {
  if (!trustProxy) return (req) => req.socket.remoteAddress;
  const trust = trustProxy === true ? () => true : proxyAddr.compile(trustProxy.split(',').map((s) => s.trim()));
  return (req) => proxyAddr(req, trust);
}
