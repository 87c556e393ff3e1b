// The common case of a session, one JSON-RPC request POSTed and answered as one JSON body (or as an
// SSE stream when the request sends notifications first, e.g. progress of a streaming tool), served
// without the SDK transport's Node-to-Web conversion (a Request and a Response object per call,
// which cost more than the tool call itself). Everything else (initialize, batches, notifications,
// odd headers, GET streams, DELETE) still goes through the SDK transport, which owns the session.
// The request enters the SDK Server exactly as the transport would hand it over (onmessage), and
// its answer is taken from the transport's send() before the transport looks for a stream.
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { IncomingMessage, ServerResponse } from 'node:http';

type Answer = (message: JSONRPCMessage) => void;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Same checks as the SDK transport makes for a non-initialize POST, so both paths answer alike. */
export function fastEligible(req: IncomingMessage, body: unknown): body is { jsonrpc: '2.0'; id: RequestId; method: string; params?: Record<string, unknown> } {
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

export class FastPost {
  private pending = new Map<RequestId, Answer>();

  constructor(private transport: StreamableHTTPServerTransport) {
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
    return this.pending.has(id);
  }

  handle(req: IncomingMessage, res: ServerResponse, message: JSONRPCMessage & { id: RequestId }, authInfo: AuthInfo): Promise<void> {
    const onmessage = this.transport.onmessage;
    if (!onmessage) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      let sse = false;
      this.pending.set(message.id, (answer) => {
        const final = 'result' in answer || 'error' in answer;
        if (res.writableEnded) return final ? resolve() : undefined;
        if (final && !sse) {
          // The common case: no notification came first, one JSON body.
          res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': this.transport.sessionId ?? '' });
          res.end(JSON.stringify(answer));
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
      onmessage(message, { authInfo, requestInfo: { headers: req.headers, url: new URL(req.url ?? '/mcp', 'http://localhost') } as never });
    });
  }
}
