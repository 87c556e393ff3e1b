// MCP revision 2026-07-28 (stateless): served by the official SDK 2.x entry (createMcpHandler,
// strict: 2025-era traffic never reaches it) from a fresh low-level Server per HTTP request, so no
// server, transport or JSON-RPC id map is ever shared between callers (the CVE-2026-25536 class).
// Cross-call identity is the bearer or URL token of each request, never a session.
import { classifyInboundRequest, createMcpHandler, Server, type AuthInfo, type CallToolResult, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Credentials } from '../core/kernel/types.js';
import { INSTRUCTIONS, McpHandlers, SERVER_INFO, type McpCatalog, type RequestFacts, type ToolView } from './handlers.js';

/** What the HTTP layer knows about one modern request, carried to the factory in authInfo.extra. */
interface Modern {
  creds: Credentials;
  facts: RequestFacts;
  view: ToolView;
}

const TTL = 300_000;

/** The envelope's client capabilities (the SDK lifts the envelope out of _meta). */
const capsOf = (r: { _meta?: Record<string, unknown>; envelope?: object }) => {
  const env = r.envelope as Record<string, unknown> | undefined;
  return (env?.clientCapabilities ?? env?.['io.modelcontextprotocol/clientCapabilities'] ?? r._meta?.['io.modelcontextprotocol/clientCapabilities']) as
    | Record<string, unknown>
    | undefined;
};

const stateOf = (ctx: { mcpReq: { requestState: () => unknown } }) => {
  const v = ctx.mcpReq.requestState();
  return typeof v === 'string' ? v : undefined;
};

export function buildModernServer(cat: McpCatalog, m: Modern): Server {
  const h = new McpHandlers(cat, { creds: m.creds, stateful: false }, m.view);
  const server = new Server(SERVER_INFO(cat.core), {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false }, completions: {} },
    instructions: INSTRUCTIONS,
    // The lists are fixed for the life of the process (per toolset), so any cache may keep them.
    cacheHints: {
      'tools/list': { ttlMs: TTL, cacheScope: 'public' },
      'prompts/list': { ttlMs: TTL, cacheScope: 'public' },
      'resources/list': { ttlMs: TTL, cacheScope: 'public' },
      'resources/templates/list': { ttlMs: TTL, cacheScope: 'public' },
      'server/discover': { ttlMs: TTL, cacheScope: 'public' },
    },
  });
  // The list object is built once per toolset selection (McpCatalog.view); a shallow copy takes the cache hint.
  server.setRequestHandler('tools/list', async () => ({ tools: m.view.tools as never }));
  server.setRequestHandler('tools/call', async (req, ctx) => {
    const r = await h.callTool(req.params.name, req.params.arguments, {
      facts: m.facts,
      signal: ctx.mcpReq.signal,
      progressToken: ctx.mcpReq._meta?.progressToken as string | number | undefined,
      notify: (method, params) => ctx.mcpReq.notify({ method, params } as never),
      inputResponses: ctx.mcpReq.inputResponses,
      requestState: stateOf(ctx),
      clientCapabilities: capsOf(ctx.mcpReq),
    });
    // An input_required result (multi round-trip) goes out as it is.
    if ((r as { resultType?: string }).resultType === 'input_required') return r as never;
    return server.projectCallToolResult(r as CallToolResult, undefined);
  });
  server.setRequestHandler('resources/list', async (req) => h.listResources(req.params?.cursor));
  server.setRequestHandler('resources/templates/list', async () => h.listTemplates());
  server.setRequestHandler('resources/read', async (req) => (await h.readResource(req.params.uri, m.facts)) as never);
  server.setRequestHandler('prompts/list', async () => h.listPrompts());
  server.setRequestHandler(
    'prompts/get',
    async (req, ctx) => h.getPrompt(req.params.name, req.params.arguments, { inputResponses: ctx.mcpReq.inputResponses, requestState: stateOf(ctx) }) as never,
  );
  server.setRequestHandler('completion/complete', async (req) => h.complete(req.params.ref as never, req.params.argument));
  return server;
}

/**
 * The SDK entry's `onerror`, as one log line without a stack: a request it rejected (malformed
 * JSON-RPC, an empty batch, a missing envelope) is the client's mistake, answered already, at info;
 * anything else at warn. The error object is not logged (its stack is the SDK's, every time).
 */
export function sdkErrorLog(
  log: { info(o: object, msg: string): void; warn(o: object, msg: string): void },
  fields: Record<string, unknown> = {},
): (e: Error) => void {
  return (e) => {
    const err = String(e?.message ?? e)
      .split('\n')[0]!
      .slice(0, 300);
    if (err.startsWith('Rejected inbound request')) log.info({ ...fields, err }, 'mcp request not served');
    else log.warn({ ...fields, err }, 'mcp request failed');
  };
}

/** The SDK's strict modern entry; the factory builds one fresh Server per request. */
export function modernHandler(cat: McpCatalog, onerror: (e: Error) => void): McpHttpHandler {
  return createMcpHandler(({ authInfo }) => buildModernServer(cat, authInfo!.extra as unknown as Modern), { legacy: 'reject', onerror });
}

/** Whether a request belongs to the 2026-07-28 path (or to its validation ladder), per the SDK's own classifier. */
export function isModern(method: string, headers: IncomingMessage['headers'], body: unknown): boolean {
  if (plainLegacy(method, headers, body)) return false;
  const h = (k: string) => {
    const v = headers[k];
    return typeof v === 'string' ? v : undefined;
  };
  const out = classifyInboundRequest({
    httpMethod: method,
    protocolVersionHeader: h('mcp-protocol-version'),
    mcpMethodHeader: h('mcp-method'),
    mcpNameHeader: h('mcp-name'),
    ...(body !== undefined ? { body } : {}),
  });
  return out.kind !== 'legacy';
}

const REVISION = '2026-07-28';

/**
 * The common 2025-era POST, which the classifier would call legacy after its zod parses: one
 * JSON-RPC request (only the four keys) with a string or safe-integer id, params absent or without `_meta` (so no
 * envelope claim), no Mcp-Method/Mcp-Name header, and no version header or one older than
 * 2026-07-28. Anything else is left to the classifier.
 */
function plainLegacy(method: string, headers: IncomingMessage['headers'], body: unknown): boolean {
  if (method !== 'POST' || typeof body !== 'object' || body === null || Array.isArray(body) || Object.getPrototypeOf(body) !== Object.prototype) return false;
  const b = body as Record<string, unknown>;
  // The SDK's JSON-RPC request schema is strict: no other top-level keys.
  for (const k in b) if (k !== 'jsonrpc' && k !== 'id' && k !== 'method' && k !== 'params') return false;
  if (b.jsonrpc !== '2.0' || typeof b.method !== 'string') return false;
  if (!(typeof b.id === 'string' || (typeof b.id === 'number' && Number.isSafeInteger(b.id)))) return false;
  const p = b.params;
  if (p !== undefined && (typeof p !== 'object' || p === null || Array.isArray(p) || Object.getPrototypeOf(p) !== Object.prototype || '_meta' in p))
    return false;
  if (headers['mcp-method'] !== undefined || headers['mcp-name'] !== undefined) return false;
  const v = headers['mcp-protocol-version'];
  return v === undefined || (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && v < REVISION);
}
const ENVELOPE_VERSION = 'io.modelcontextprotocol/protocolVersion';

/**
 * tools/list from a pre-serialized body: the SDK answers the first well-formed tools/list of each
 * toolset selection; its body (the id taken out) is kept and replayed for the same request shape
 * after. Anything else, or anything unusual about the request, goes through the SDK.
 */
export class ListBodies {
  private bodies = new WeakMap<ToolView, string>();

  /** Whether the request is the plain shape whose answer never varies: tools/list, no cursor, matching headers. */
  static plain(req: IncomingMessage, body: unknown): body is { id: string | number; params: { _meta: Record<string, unknown> } } {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
    const b = body as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: { cursor?: unknown; _meta?: Record<string, unknown> } };
    if (b.jsonrpc !== '2.0' || b.method !== 'tools/list' || !(typeof b.id === 'string' || (typeof b.id === 'number' && Number.isSafeInteger(b.id))))
      return false;
    const meta = b.params?._meta;
    if (!meta || b.params!.cursor !== undefined || meta[ENVELOPE_VERSION] !== REVISION) return false;
    const caps = meta['io.modelcontextprotocol/clientCapabilities'];
    if (typeof caps !== 'object' || caps === null || Array.isArray(caps)) return false;
    const h = req.headers;
    return (
      h['mcp-protocol-version'] === REVISION &&
      h['mcp-method'] === 'tools/list' &&
      h['mcp-name'] === undefined &&
      /^application\/json\s*(;|$)/i.test(h['content-type'] ?? '')
    );
  }

  get(view: ToolView, id: string | number): string | undefined {
    const b = this.bodies.get(view);
    return b === undefined ? undefined : `${b}${JSON.stringify(id)}}`;
  }

  /** Keeps the SDK's answer when it ends with the request id, as JSON-RPC bodies from the SDK do. */
  keep(view: ToolView, id: string | number, text: string): void {
    const tail = `"id":${JSON.stringify(id)}}`;
    if (text.endsWith(tail) && text.startsWith('{"result":')) this.bodies.set(view, text.slice(0, -tail.length + 5));
  }
}

const META_KEYS = new Set([ENVELOPE_VERSION, 'io.modelcontextprotocol/clientInfo', 'io.modelcontextprotocol/clientCapabilities']);
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The common 2026-07-28 call, served without the SDK's per-request Server and web Request/Response
 * (which cost more CPU than the call): a plain tools/call of a mounted, non-streaming registry tool,
 * with exactly the envelope and the standard headers, answered as the SDK answers it (resultType,
 * serverInfo in _meta). State is per request (a fresh McpHandlers); nothing is shared between
 * callers. Any other shape (progress tokens, input responses, extra keys, mismatched headers,
 * streaming tools, fixtures) goes through the SDK, which owns the validation ladder.
 */
export function plainCall(req: IncomingMessage, body: unknown, view: ToolView): { id: string | number; name: string; args: Record<string, unknown> } | null {
  if (!isObj(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return null;
  const id = body.id;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return null;
  const p = body.params;
  if (!isObj(p) || typeof p.name !== 'string' || !isObj(p._meta)) return null;
  for (const k of Object.keys(body)) if (k !== 'jsonrpc' && k !== 'id' && k !== 'method' && k !== 'params') return null;
  for (const k of Object.keys(p)) if (!PARAM_KEYS.has(k)) return null;
  const meta = p._meta;
  for (const k of Object.keys(meta)) if (!META_KEYS.has(k)) return null;
  if (meta[ENVELOPE_VERSION] !== REVISION || !isObj(meta['io.modelcontextprotocol/clientCapabilities'])) return null;
  const info = meta['io.modelcontextprotocol/clientInfo'];
  if (info !== undefined && !(isObj(info) && typeof info.name === 'string' && typeof info.version === 'string')) return null;
  if (p.arguments !== undefined && !isObj(p.arguments)) return null;
  const h = req.headers;
  if (
    h['mcp-protocol-version'] !== REVISION ||
    h['mcp-method'] !== 'tools/call' ||
    h['mcp-name'] !== p.name ||
    !/^application\/json\s*(;|$)/i.test(h['content-type'] ?? '')
  )
    return null;
  const op = view.byTool.get(p.name);
  if (!op || op.stream) return null;
  return { id, name: p.name, args: (p.arguments as Record<string, unknown> | undefined) ?? {} };
}

/** Serves one Node request through the web-standard handler and writes its answer back. */
export async function serveModern(
  handler: McpHttpHandler,
  req: IncomingMessage,
  res: ServerResponse,
  bodyText: string,
  parsed: unknown,
  m: Modern,
  lists?: ListBodies,
  cat?: McpCatalog,
): Promise<void> {
  const call = cat && plainCall(req, parsed, m.view);
  if (call) {
    const stop = new AbortController();
    res.once('close', () => stop.abort());
    const h = new McpHandlers(cat, { creds: m.creds, stateful: false }, m.view);
    const r = await h.callTool(call.name, call.args, { facts: m.facts, signal: stop.signal, notify: async () => {} });
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(
      JSON.stringify({
        result: { ...r, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO(cat.core) } },
        jsonrpc: '2.0',
        id: call.id,
      }),
    );
  }
  const plain = lists !== undefined && ListBodies.plain(req, parsed);
  if (plain) {
    const cached = lists.get(m.view, parsed.id);
    if (cached !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(cached);
    }
  }
  const response = await fetchWeb(handler, req, res, bodyText, parsed, m.facts.net, m as unknown as Record<string, unknown>);
  const out: Record<string, string> = {};
  response.headers.forEach((v, k) => (out[k] = v));
  if (plain && response.status === 200 && (out['content-type'] ?? '').startsWith('application/json')) {
    const text = await response.text();
    lists.keep(m.view, parsed.id, text);
    res.writeHead(200, out);
    return void res.end(text);
  }
  await pipeWeb(response, res);
}

/** One Node request through an SDK 2.x web-standard handler; `extra` reaches the server factory in authInfo. */
export async function fetchWeb(
  handler: McpHttpHandler,
  req: IncomingMessage,
  res: ServerResponse,
  bodyText: string,
  parsed: unknown,
  net: string,
  extra: Record<string, unknown>,
): Promise<Response> {
  const abort = new AbortController();
  res.once('close', () => abort.abort());
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/mcp'}`, {
    method: req.method,
    headers,
    body: req.method === 'POST' ? bodyText : undefined,
    signal: abort.signal,
  });
  const authInfo: AuthInfo = { token: '', clientId: net, scopes: [], extra };
  return handler.fetch(request, { authInfo, parsedBody: parsed });
}

/** Writes a web Response back to the Node response, streaming its body. */
export async function pipeWeb(response: Response, res: ServerResponse): Promise<void> {
  const out: Record<string, string> = {};
  response.headers.forEach((v, k) => (out[k] = v));
  res.writeHead(response.status, out);
  if (!response.body) return void res.end();
  const body = Readable.fromWeb(response.body as never);
  res.once('close', () => body.destroy());
  body.on('error', () => res.end());
  body.pipe(res);
}
