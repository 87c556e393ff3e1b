// Shared pieces of the A2A tests: raw JSON-RPC, both SDK clients, a push receiver, trust levels.
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { A2AClient } from 'a2a-sdk-03/client';
import Database from 'better-sqlite3';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';

export type Json = Record<string, any>;

/** Cards carry the configured base URL (http://commons.test); clients are sent to the test server. */
let served = '';
export function serveBase(url: string): void {
  served = url;
}

/** fetch with a bearer token (and any extra headers) added to every request. */
export function authedFetch(token?: string, extra: Record<string, string> = {}): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    const url = String(input instanceof Request ? input.url : input).replace(/^http:\/\/commons\.test/, served);
    return fetch(url, { ...init, headers });
  };
}

export async function rpc(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

let n = 0;
export const mid = () => `m-${Date.now()}-${++n}`;

/** A 0.3 wire message. */
export const msg03 = (parts: Json[], extra: Json = {}) => ({ kind: 'message', messageId: mid(), role: 'user', parts, ...extra });
export const text03 = (text: string) => ({ kind: 'text', text });
export const data03 = (data: unknown) => ({ kind: 'data', data });

export async function client03(cardUrl: string, token?: string): Promise<A2AClient> {
  return A2AClient.fromCardUrl(cardUrl, { fetchImpl: authedFetch(token) });
}

export async function client13(base: string, token?: string, path?: string) {
  const fetchImpl = authedFetch(token);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(base, path);
}

/** Collects everything an async generator yields. */
export async function collect<T>(gen: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

/** Waits for a stream's first event (the server is then attached), and collects the rest. */
export async function subscribed<T>(gen: AsyncGenerator<T>): Promise<{ first: T; rest: Promise<T[]> }> {
  const first = await gen.next();
  if (first.done) throw new Error('stream ended before its first event');
  return { first: first.value, rest: collect(gen) };
}

export interface Receiver {
  url: string;
  hits: { headers: IncomingHttpHeaders; body: any }[];
  /** Status codes to answer, in order (then 200). */
  failFirst: number[];
  waitFor(pred: (hits: Receiver['hits']) => boolean, ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** A local webhook receiver for push notifications. */
export async function receiver(): Promise<Receiver> {
  const r: Receiver = {
    url: '',
    hits: [],
    failFirst: [],
    async waitFor(pred, ms = 10_000) {
      const until = Date.now() + ms;
      while (!pred(r.hits)) {
        if (Date.now() > until) throw new Error(`push not received: ${JSON.stringify(r.hits).slice(0, 500)}`);
        await new Promise((res) => setTimeout(res, 25));
      }
    },
    close: async () => {},
  };
  const srv = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const code = r.failFirst.shift();
      if (code) return res.writeHead(code).end();
      r.hits.push({ headers: req.headers, body: JSON.parse(body) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  r.url = `http://127.0.0.1:${(srv.address() as { port: number }).port}/hook`;
  r.close = () => new Promise((ok) => srv.close(() => ok()));
  return r;
}

/** Makes an identity L1 (rep, a confirmed fix, two days old) directly in the database. */
export function raiseToL1(dataDir: string, id: string): void {
  const db = new Database(join(dataDir, 'commons.db'));
  try {
    db.prepare('UPDATE identities SET rep = 5, confirmed = 1, created = created - 2 * 86400000 WHERE id = ?').run(id);
  } finally {
    db.close();
  }
}
