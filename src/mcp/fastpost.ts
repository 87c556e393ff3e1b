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
import type { McpHandlers, RequestFacts, ToolView } from './handlers.js';
import { logTo } from './server.js';

type Answer = (message: JSONRPCMessage) => void;
type Plain = { jsonrpc: '2.0'; id: RequestId; method: string; params?: Record<string, unknown> };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Same checks as the SDK transport makes for a non-initialize POST, so both paths answer alike. */
export function fastEligible(req: IncomingMessage, body: unknown): body is Plain {
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return false;
  const pv = req.headers['mcp-protocol-version'];
  if (pv !== undefined && (typeof pv !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(pv))) return false;
  if (!isObj(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string' || body.method === 'initialize') return false;
  const id = body.id;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)))) return false;
  return body.params === undefined || isObj(body.params);
}

/** What a session answers from directly: its SDK server (cancellation, logs), handlers and mounted tools. */
export interface Direct {
  server: Server;
  handlers: McpHandlers;
  view: ToolView;
}

/** The SDK server's map of running requests' AbortControllers (notifications/cancelled and close abort them). */
const controllersOf = (server: Server): Map<RequestId, AbortController> | undefined => {
  const m = (server as unknown as { _requestHandlerAbortControllers?: unknown })._requestHandlerAbortControllers;
  return m instanceof Map ? (m as Map<RequestId, AbortController>) : undefined;
};

/** Whether params hold only the given keys. */
const only = (p: Record<string, unknown>, keys: readonly string[]) => {
  for (const k in p) if (!keys.includes(k)) return false;
  return true;
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

export class FastPost {
  private pending = new Map<RequestId, Answer>();
  /** Ids answered directly and still running. */
  private direct = new Set<RequestId>();
  private listBody: { head: string } | undefined;

  constructor(private transport: StreamableHTTPServerTransport, private session?: Direct) {
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
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no', 'mcp-session-id': this.transport.sessionId ?? '' });
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
      onmessage(message as JSONRPCMessage, { authInfo: authInfoOf(facts), requestInfo: { headers: req.headers, url: new URL(req.url ?? '/mcp', 'http://localhost') } as never });
    });
  }

  /**
   * One JSON answer. With its length known the head and body leave in one write; without it,
   * writeHead() commits to chunked framing and end() writes four pieces (size, CRLF, body, last chunk).
   */
  private json(res: ServerResponse, body: string): void {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'mcp-session-id': this.transport.sessionId ?? '' });
    res.end(body);
  }

  /** tools/list and a plain tools/call of a registry tool, answered from the handlers; null for anything else. */
  private answerDirectly(res: ServerResponse, m: Plain, facts: RequestFacts): Promise<void> | null {
    const { view, handlers, server } = this.session!;
    const p = m.params;
    if (m.method === 'tools/list') {
      // The SDK's tools/list handler ignores the cursor (one page); other params go through its parse.
      if (p !== undefined && !(only(p, ['cursor']) && (p.cursor === undefined || typeof p.cursor === 'string'))) return null;
      // {"result":<list>,"jsonrpc":"2.0","id":…}: the SDK's key order.
      this.listBody ??= { head: `{"result":${view.listJson},"jsonrpc":"2.0","id":` };
      this.json(res, `${this.listBody.head}${JSON.stringify(m.id)}}`);
      return Promise.resolve();
    }
    if (m.method !== 'tools/call' || p === undefined || !only(p, ['name', 'arguments']) || typeof p.name !== 'string') return null;
    const op = view.byTool.get(p.name);
    if (!op || op.stream || handlers.cat.extraTools.has(p.name)) return null;
    const args = p.arguments;
    if (args !== undefined && !isObj(args)) return null;
    const controllers = controllersOf(server);
    if (!controllers) return null;
    const id = m.id;
    // What the SDK's cancellation and close call is abort(); a non-streaming call never reads its
    // signal, so no AbortController (costly to make) is needed, only the flag.
    const stop = new Cancel();
    controllers.set(id, stop as unknown as AbortController);
    this.direct.add(id);
    return handlers
      .callTool(p.name, args, { facts, signal: NEVER, notify: async () => {}, log: logTo(server) })
      .then((result) => {
        // A cancelled request is not answered (as the SDK does); its HTTP request ends empty.
        if (res.writableEnded || res.destroyed) return;
        if (stop.aborted) return void res.writeHead(204).end();
        this.json(res, JSON.stringify({ result, jsonrpc: '2.0', id }));
      })
      .catch((err: { code?: unknown; message?: string; data?: unknown }) => {
        // What the SDK answers for a handler that throws (callTool turns op failures into results).
        if (res.writableEnded || res.destroyed || stop.aborted) return;
        const code = Number.isSafeInteger(err.code) ? (err.code as number) : -32603;
        this.json(res, JSON.stringify({ jsonrpc: '2.0', id, error: { code, message: err.message ?? 'Internal error', ...(err.data !== undefined ? { data: err.data } : {}) } }));
      })
      .finally(() => {
        if ((controllers.get(id) as unknown) === stop) controllers.delete(id);
        this.direct.delete(id);
      });
  }
}
