// The common case of a session, one JSON-RPC request POSTed and answered as one JSON body (or as an
// SSE stream when the request sends notifications first, e.g. progress of a streaming tool), served
// without the SDK transport's Node-to-Web conversion (a Request and a Response object per call,
// which cost more than the tool call itself). Everything else (initialize, batches, notifications,
// odd headers, GET streams, DELETE) still goes through the SDK transport, which owns the session.
//
// Two requests are answered here without the SDK's protocol layer at all (its zod parse of the
// request and of the result, its promise chain), from the session's own handlers: `tools/list`
// (a body serialized once per toolset selection) and a plain `tools/call` of a mounted,
// non-streaming registry tool (no `_meta`, so no progress token or task). Their answers are the
// bytes the SDK would send (a test compares both paths). Cancellation still works: the call's
// AbortController sits in the SDK server's own map, where notifications/cancelled and close look.
// Any other request enters the SDK Server exactly as the transport would hand it over (onmessage),
// and its answer is taken from the transport's send() before the transport looks for a stream.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallIo, McpHandlers, RequestFacts, ToolView } from './handlers.js';
import { logTo } from './server.js';

type Answer = (message: JSONRPCMessage) => void;
export type Plain = { jsonrpc: '2.0'; id: RequestId; method: string; params?: Record<string, unknown> };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether an object holds only the given keys. */
const only = (p: Record<string, unknown>, keys: readonly string[]) => {
  for (const k in p) if (!keys.includes(k)) return false;
  return true;
};

/** Same checks as the SDK transport makes for a non-initialize POST, so both paths answer alike. */
export function fastEligible(req: IncomingMessage, body: unknown): body is Plain {
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return false;
  const pv = req.headers['mcp-protocol-version'];
  if (pv !== undefined && (typeof pv !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(pv))) return false;
  if (!isObj(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string' || body.method === 'initialize') return false;
  // The SDK's JSON-RPC request schema is strict: any other top-level key is its parse error.
  if (!only(body, ['jsonrpc', 'id', 'method', 'params'])) return false;
  const id = body.id;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return false;
  return body.params === undefined || isObj(body.params);
}

/** What a session answers from directly: its SDK server (cancellation, logs) and its handlers (with the mounted tools). */
export interface Direct {
  server: Server;
  handlers: McpHandlers;
}

/** The SDK server's map of running requests' AbortControllers (notifications/cancelled and close abort them). */
const controllersOf = (server: Server): Map<RequestId, AbortController> | undefined => {
  const m = (server as unknown as { _requestHandlerAbortControllers?: unknown })._requestHandlerAbortControllers;
  return m instanceof Map ? (m as Map<RequestId, AbortController>) : undefined;
};

/** Stands in for a direct call's AbortController in the SDK's map. */
class Cancel {
  aborted = false;
  abort(): void {
    this.aborted = true;
  }
}

/** The signal of a direct call: non-streaming tools never wait on it. */
const NEVER = new AbortController().signal;

/** Which requests are answered from the handlers directly: tools/list, or a plain tools/call of a mounted, non-streaming registry tool. */
export function directKind(m: Plain, h: McpHandlers): 'list' | 'call' | null {
  const p = m.params;
  if (m.method === 'tools/list') {
    // The SDK's tools/list handler ignores the cursor (one page); other params go through its parse.
    return p === undefined || (only(p, ['cursor']) && (p.cursor === undefined || typeof p.cursor === 'string')) ? 'list' : null;
  }
  if (m.method !== 'tools/call' || p === undefined || !only(p, ['name', 'arguments']) || typeof p.name !== 'string') return null;
  const op = h.view.byTool.get(p.name);
  if (!op || op.stream || h.cat.extraTools.has(p.name)) return null;
  return p.arguments === undefined || isObj(p.arguments) ? 'call' : null;
}

/** The head of each mount's tools/list answer, {"result":<list>,"jsonrpc":"2.0","id": (the SDK's key order), serialized once. */
const listHeads = new WeakMap<ToolView, string>();

/** A tools/list answer: the mount's pre-serialized list and the request's id. */
export function listAnswer(view: ToolView, id: RequestId): string {
  let head = listHeads.get(view);
  if (head === undefined) listHeads.set(view, (head = `{"result":${view.listJson},"jsonrpc":"2.0","id":`));
  return `${head}${JSON.stringify(id)}}`;
}

/** A plain tools/call's answer as the SDK would serialize it: the result, or the error of a handler that throws. */
export function callAnswer(h: McpHandlers, m: Plain, facts: RequestFacts, log?: CallIo['log']): Promise<string> {
  const { id } = m;
  const p = m.params as { name: string; arguments?: Record<string, unknown> };
  return h.callTool(p.name, p.arguments, { facts, signal: NEVER, notify: async () => {}, log }).then(
    (result) => JSON.stringify({ result, jsonrpc: '2.0', id }),
    // callTool turns op failures into results; what throws is a JSON-RPC error (unknown tool...).
    (err: { code?: unknown; message?: string; data?: unknown }) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        error: {
          code: Number.isSafeInteger(err.code) ? (err.code as number) : -32603,
          message: err.message ?? 'Internal error',
          ...(err.data !== undefined ? { data: err.data } : {}),
        },
      }),
  );
}

/** One JSON answer. With its length known, head and body leave in one write (else writeHead() commits to chunked framing: four pieces). */
export function sendJson(res: ServerResponse, body: string, sessionId?: string): void {
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  res.writeHead(200, headers);
  res.end(body);
}

export class FastPost {
  private pending = new Map<RequestId, Answer>();
  /** Ids answered directly and still running. */
  private direct = new Set<RequestId>();

  constructor(
    private transport: StreamableHTTPServerTransport,
    private session?: Direct,
  ) {
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      const id = 'result' in message || 'error' in message ? (message as { id: RequestId }).id : options?.relatedRequestId;
      const answer = id === undefined ? undefined : this.pending.get(id);
      if (!answer) return send(message, options);
      if ('result' in message || 'error' in message) this.pending.delete(id!);
      // Request-scoped notifications (progress of a streaming tool) turn the answer into an SSE stream.
      answer(message);
    };
  }

  /** Whether a request with this id is already in flight on the fast path. */
  busy(id: RequestId): boolean {
    return this.pending.has(id) || this.direct.has(id);
  }

  handle(req: IncomingMessage, res: ServerResponse, message: Plain, facts: RequestFacts, authInfoOf: (f: RequestFacts) => AuthInfo): Promise<void> {
    const onmessage = this.transport.onmessage;
    if (!onmessage) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return Promise.resolve();
    }
    const direct = this.session && this.answerDirectly(res, message, facts);
    if (direct) return direct;
    return new Promise<void>((resolve) => {
      let sse = false;
      this.pending.set(message.id, (answer) => {
        const final = 'result' in answer || 'error' in answer;
        if (res.writableEnded) return final ? resolve() : undefined;
        if (final && !sse) {
          // The common case: no notification came first, one JSON body.
          this.json(res, JSON.stringify(answer));
          return resolve();
        }
        if (!sse) {
          sse = true;
          res.writeHead(200, {
            'content-type': 'text/event-stream',
            'cache-control': 'no-cache',
            'x-accel-buffering': 'no',
            'mcp-session-id': this.transport.sessionId ?? '',
          });
        }
        res.write(`event: message\ndata: ${JSON.stringify(answer)}\n\n`);
        if (final) {
          res.end();
          resolve();
        }
      });
      // A client gone before its answer leaves nothing behind.
      res.once('close', () => {
        if (this.pending.get(message.id) && !res.writableEnded) this.pending.delete(message.id);
        resolve();
      });
      onmessage(message as JSONRPCMessage, {
        authInfo: authInfoOf(facts),
        requestInfo: { headers: req.headers, url: new URL(req.url ?? '/mcp', 'http://localhost') } as never,
      });
    });
  }

  private json(res: ServerResponse, body: string): void {
    sendJson(res, body, this.transport.sessionId ?? '');
  }

  /** tools/list and a plain tools/call of a registry tool, answered from the handlers; null for anything else. */
  private answerDirectly(res: ServerResponse, m: Plain, facts: RequestFacts): Promise<void> | null {
    const { handlers, server } = this.session!;
    const kind = directKind(m, handlers);
    if (kind === null) return null;
    if (kind === 'list') {
      this.json(res, listAnswer(handlers.view, m.id));
      return Promise.resolve();
    }
    const controllers = controllersOf(server);
    if (!controllers) return null;
    const id = m.id;
    // What the SDK's cancellation and close call is abort(); a non-streaming call never reads its
    // signal, so no AbortController (costly to make) is needed, only the flag.
    const stop = new Cancel();
    controllers.set(id, stop as unknown as AbortController);
    this.direct.add(id);
    return callAnswer(handlers, m, facts, logTo(server))
      .then((body) => {
        // A cancelled request is not answered (as the SDK does); its HTTP request ends empty.
        if (res.writableEnded || res.destroyed) return;
        if (stop.aborted) return void res.writeHead(204).end();
        this.json(res, body);
      })
      .finally(() => {
        if ((controllers.get(id) as unknown) === stop) controllers.delete(id);
        this.direct.delete(id);
      });
  }
}
