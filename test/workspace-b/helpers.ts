// Shared helpers of the workspace tests (notes, checkpoints, anchors, cached results, mail).
import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { register, type TestServer } from '../helpers/server.js';

export interface Who {
  id: string;
  token: string;
  net: string;
}

let netN = 0;
/** A fresh /24 for each call: registration quotas and reader networks are per network. */
export function newNet(): string {
  const n = netN++;
  return `10.${60 + ((n >> 8) & 63)}.${n & 255}.9`;
}

/** A registered identity with its own network. */
export async function who(s: TestServer): Promise<Who> {
  const net = newNet();
  const r = await register(s.url, undefined, { 'x-forwarded-for': net });
  return { ...r, net };
}

export interface ReqOpts {
  as?: Who | null;
  /** Network to come from (default: the identity's, or a fresh one). */
  net?: string;
  json?: unknown;
  text?: string;
  body?: Buffer;
  headers?: Record<string, string>;
}

export async function req(s: TestServer, method: string, path: string, o: ReqOpts = {}): Promise<Response> {
  const headers: Record<string, string> = { 'x-forwarded-for': o.net ?? o.as?.net ?? newNet(), ...(o.headers ?? {}) };
  if (o.as) headers.authorization = `Bearer ${o.as.token}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (o.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.json);
  } else if (o.text !== undefined) {
    headers['content-type'] ??= 'text/plain; charset=utf-8';
    body = o.text;
  } else if (o.body !== undefined) {
    headers['content-type'] ??= 'application/octet-stream';
    body = new Uint8Array(o.body);
  }
  return fetch(`${s.url}${path}`, { method, headers, body, redirect: 'manual' });
}

/** Status and body text in one call. */
export async function call(s: TestServer, method: string, path: string, o: ReqOpts = {}): Promise<{ status: number; text: string; res: Response }> {
  const res = await req(s, method, path, o);
  return { status: res.status, text: await res.text(), res };
}

/** Status, body bytes and headers minus the ones that differ per response by design. */
export async function snapshot(res: Response): Promise<{ status: number; body: string; headers: [string, string][] }> {
  const body = Buffer.from(await res.arrayBuffer()).toString('hex');
  const headers = [...res.headers.entries()].filter(([k]) => k !== 'date' && k !== 'x-request-id').sort();
  return { status: res.status, body, headers };
}

/** Writes to the server's database file through a second connection (tests only). */
export function sql(s: TestServer, stmt: string, ...args: unknown[]): void {
  const db = new Database(join(s.dir, 'commons.db'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(stmt).run(...args);
  } finally {
    db.close();
  }
}

/** Raises an identity to L2 (rep, confirmed fixes and age of the L2 row of TRUST_LEVELS). */
export function makeL2(s: TestServer, w: Who): void {
  sql(s, 'UPDATE identities SET rep = 30, confirmed = 6, created = ? WHERE id = ?', Date.now() - 10 * 86_400_000, w.id);
}

/** Every byte of the database files (main, WAL, shared memory). */
export function dbBytes(dir: string): Buffer[] {
  return ['commons.db', 'commons.db-wal', 'commons.db-shm'].map((f) => join(dir, f)).filter(existsSync).map((f) => readFileSync(f));
}

/** Runs `fn` with the server's clock moved forward by `ms`. */
export async function later<T>(s: TestServer, ms: number, fn: () => Promise<T>): Promise<T> {
  const real = s.core.now;
  s.core.now = () => real() + ms;
  try {
    return await fn();
  } finally {
    s.core.now = real;
  }
}

export type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/** An MCP client over Streamable HTTP, acting as `as` (or anonymous), from its own network. */
export interface McpClient {
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  tools(): Promise<Array<{ name: string; annotations?: Record<string, unknown> }>>;
  close(): Promise<void>;
}

export async function mcp(s: TestServer, as: Who | null, net = as?.net ?? newNet()): Promise<McpClient> {
  const client = new Client({ name: 'workspace-test', version: '1.0.0' });
  const headers: Record<string, string> = as ? { authorization: `Bearer ${as.token}` } : {};
  const f: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), 'x-forwarded-for': net } });
  const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers }, fetch: f });
  await client.connect(transport);
  return {
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
    tools: async () => (await client.listTools()).tools,
    async close() {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}
