// Legacy HTTP+SSE transport with the spec's `/messages?s=<session>` (the SDK's hard-codes `sessionId`).
// Answers go out as `message` events on the stream and, for requests, inline on the POST too.
import type { ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

type Waiter = (m: JSONRPCMessage) => void;

export class LegacySseTransport implements Transport {
  onclose?: () => void;
  onerror?: (e: Error) => void;
  onmessage?: (m: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private waiters = new Map<string | number, Waiter>();
  private keepAlive?: NodeJS.Timeout;
  private closed = false;

  constructor(
    readonly sessionId: string,
    private res: ServerResponse,
    private endpoint: string,
  ) {}

  async start(): Promise<void> {
    // Mcp-Session-Id names the session in a header too (the legacy transport only needs the
    // endpoint event): a load balancer stores it to route /messages?s=<id> to this replica.
    this.res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'mcp-session-id': this.sessionId,
    });
    this.res.write(`event: endpoint\ndata: ${this.endpoint}\n\n`);
    this.keepAlive = setInterval(() => this.res.write(': keep-alive\n\n'), 15_000);
    this.keepAlive.unref();
    this.res.on('close', () => void this.close());
  }

  async send(message: JSONRPCMessage, _opts?: TransportSendOptions): Promise<void> {
    if (this.closed) return;
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    if (('result' in message || 'error' in message) && message.id !== undefined) {
      const w = this.waiters.get(message.id);
      if (w) {
        this.waiters.delete(message.id);
        w(message);
      }
    }
  }

  /** Feeds one POSTed message in; resolves with the answer for requests, null for the rest. */
  deliver(message: JSONRPCMessage, extra: MessageExtraInfo, waitMs: number): Promise<JSONRPCMessage | null> {
    const isRequest = 'method' in message && 'id' in message && message.id !== undefined;
    if (!isRequest) {
      this.onmessage?.(message, extra);
      return Promise.resolve(null);
    }
    const id = message.id;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        resolve({ jsonrpc: '2.0', id, error: { code: -32001, message: 'request timed out; the answer may still arrive on the SSE stream' } });
      }, waitMs);
      timer.unref();
      this.waiters.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      this.onmessage?.(message, extra);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    for (const [id, w] of this.waiters) w({ jsonrpc: '2.0', id, error: { code: -32000, message: 'session closed' } });
    this.waiters.clear();
    if (!this.res.writableEnded) this.res.end();
    this.onclose?.();
  }
}
