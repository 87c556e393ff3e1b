// MCP over HTTP: Streamable HTTP at /mcp and /mcp/t/{token} (sessions and stateless), and the
// legacy HTTP+SSE pair /sse + /messages?s=. Tools come from the registry (see server.ts).
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { isInitializeRequest, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { CxError } from '../core/kernel/errors.js';
import { resolveCaller, resolvedOnce } from '../core/platform/identity/auth.js';
import { limit } from '../core/kernel/limits.js';
import { netKey } from '../core/kernel/net.js';
import type { Core, Credentials, Operation } from '../core/kernel/types.js';
import { credentialsOf } from '../http/input.js';
import { face } from '../http/plugin.js';
import { buildCards } from './cards.js';
import { SessionEventStore } from './events.js';
import { callAnswer, directKind, FastPost, fastEligible, listAnswer, sendJson } from './fastpost.js';
import { isModern, ListBodies, modernHandler, sdkErrorLog, serveModern } from './modern.js';
import { buildMcpServer, McpCatalog, type RequestFacts, type SessionState } from './server.js';
import { McpHandlers, type McpExtras } from './handlers.js';
import { makeRoom, MemorySessionStore, type SessionRecord, type SessionStore } from './session-store.js';
import { LegacySseTransport } from './sse.js';
import { selectionOf } from './tools.js';
import { registerSvcMcp } from './svc.js';
import { bindRaw, type RawHandler } from '../http/raw.js';
import { mcpCardRoutes, mcpStreamRoutes } from './raw-routes.js';

/** The live objects of a session; its record (kind, bound credential, network, last seen) is in the SessionStore. */
interface Live {
  server: Server;
  state: SessionState;
  http?: StreamableHTTPServerTransport;
  fast?: FastPost;
  sse?: LegacySseTransport;
}

const PARSE_ERROR = Symbol('parse error');
function parseBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return PARSE_ERROR;
  }
}

/** tools/call whose `arguments` is present but not an object: a one-line -32602 (the SDKs answer a multi-line validation dump). */
function badArguments(body: unknown): { id: unknown; message: string } | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const m = body as { method?: unknown; id?: unknown; params?: { arguments?: unknown } };
  if (m.method !== 'tools/call' || typeof m.params !== 'object' || m.params === null) return null;
  const a = m.params.arguments;
  if (a === undefined || (typeof a === 'object' && a !== null && !Array.isArray(a))) return null;
  return { id: m.id ?? null, message: `arguments must be an object, got ${Array.isArray(a) ? 'array' : a === null ? 'null' : typeof a}` };
}

function answerBadArguments(res: ServerResponse, status: number, bad: { id: unknown; message: string }): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: bad.id, error: { code: -32602, message: bad.message } }));
}

const credKey = (c: Credentials) => (c.urlToken ? `u:${c.urlToken}` : c.bearer ? `b:${c.bearer}` : '');

function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

export function registerMcp(
  app: FastifyInstance,
  core: Core,
  ops: readonly Operation[],
  extras?: McpExtras,
): { close(): Promise<void>; sessions: () => number } {
  const cat = new McpCatalog(core, ops, extras);
  // Revision 2026-07-28: the SDK 2.x entry, one fresh server per request (modern.ts).
  const lists = new ListBodies();
  const modern = modernHandler(cat, sdkErrorLog(core.log));
  // Records behind a port (see session-store.ts); transports and servers stay in this process.
  const records: SessionStore = new MemorySessionStore();
  const live = new Map<string, Live>();
  const sessionOf = (id: string): (Live & { rec: SessionRecord }) | undefined => {
    const rec = records.get(id);
    const l = rec && live.get(id);
    return l && { ...l, rec };
  };
  const base = new URL(core.config.baseUrl);
  // DNS-rebinding guard: the configured hosts (or the base URL's), and localhost for development.
  const hosts = new Set([...(core.config.allowedHosts ?? [base.hostname.toLowerCase()]), 'localhost', '127.0.0.1', '[::1]', '::1']);

  const dropSession = (id: string) => {
    records.remove(id);
    const s = live.get(id);
    if (!s) return;
    live.delete(id);
    void s.server.close().catch(() => {});
  };
  const sweep = setInterval(() => {
    for (const rec of records.idleSince(core.now() - limit('mcp.idle') * 1000)) dropSession(rec.id);
  }, 60_000);
  sweep.unref();
  /** Charges the per-network creation quota; throws 429 err quota. */
  const chargeNewSession = async (net: string): Promise<void> => {
    await core.quotas.take('mcp_session', net);
  };
  /** Adds a session, first ending the least recently seen ones its network must give up, then those of the networks holding the most when the server is full. */
  const addSession = (rec: SessionRecord, l: Live) => {
    makeRoom(records, rec.net, { total: limit('mcp.sessions'), perNet: limit('mcp.sessions_net') }, (old) => dropSession(old.id));
    records.add(rec);
    live.set(rec.id, l);
  };

  /** Host and Origin checks, credentials and per-request facts; null when already answered. */
  async function admit(req: FastifyRequest, reply: FastifyReply, creds: Credentials): Promise<RequestFacts | null> {
    const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
    const origin = req.headers.origin;
    let originHost = '';
    try {
      originHost = origin ? new URL(origin).hostname.toLowerCase() : '';
    } catch {
      originHost = '\0';
    }
    if (!hosts.has(host) || (origin !== undefined && origin !== 'null' && !hosts.has(originHost))) {
      reply.hijack();
      rpcError(reply.raw, 403, -32000, 'host or origin not allowed');
      return null;
    }
    return { net: netKey(req.ip), reqId: String(req.id) };
  }

  const authInfoOf = (facts: RequestFacts) => ({ token: '', clientId: facts.net, scopes: [], extra: { ...facts } });
  function attachFacts(req: FastifyRequest, facts: RequestFacts): void {
    (req.raw as typeof req.raw & { auth?: unknown }).auth = authInfoOf(facts);
  }

  async function streamable(req: FastifyRequest, reply: FastifyReply, creds: Credentials): Promise<void> {
    const facts = await admit(req, reply, creds);
    if (!facts) return;
    // Toolsets and read-only mode: ?toolsets=kb,drops&readonly=1 or X-MCP-Toolsets / X-MCP-Readonly.
    const sel = selectionOf(req.query as Record<string, unknown>, req.headers);
    if (typeof sel === 'string') {
      reply.hijack();
      return rpcError(reply.raw, 400, -32602, sel);
    }
    // The selection's view is needed by everything but a request in an existing session (which keeps its own).
    const view = () => cat.view(sel);
    // The body is parsed once here, for whichever path serves it.
    const parsed = req.method === 'POST' ? parseBody(req.body) : undefined;
    // The revision is chosen per request, as 2026-07-28 says: a body that claims the per-request
    // envelope (or a 2026 header) goes to the stateless path; everything else is 2025-era.
    if (req.method === 'POST') {
      if (parsed !== PARSE_ERROR && isModern('POST', req.headers, parsed)) {
        reply.hijack();
        // Resolved once: the call's guards take this caller instead of looking the token up again.
        let once: typeof creds;
        try {
          once = resolvedOnce(creds, await resolveCaller(core, creds));
        } catch (err) {
          const cx = err as CxError;
          return rpcError(reply.raw, 401, -32001, cx.line, cx.headers);
        }
        const bad = badArguments(parsed);
        if (bad) return answerBadArguments(reply.raw, 400, bad);
        return serveModern(
          modern,
          req.raw,
          reply.raw,
          typeof req.body === 'string' ? req.body : JSON.stringify(req.body),
          parsed,
          { creds: once, facts, view: view() },
          lists,
          cat,
        );
      }
    }
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const rec = records.get(sid);
      const s = rec && live.get(sid);
      reply.hijack();
      if (!s || rec.kind !== 'http') return rpcError(reply.raw, 404, -32001, 'Session not found: initialize again');
      const key = credKey(creds);
      if (key && key !== rec.bound && key !== credKey(s.state.creds)) return rpcError(reply.raw, 403, -32000, 'session belongs to another credential');
      records.touch(sid, core.now());
      if (parsed === PARSE_ERROR) return rpcError(reply.raw, 400, -32700, 'Parse error: malformed JSON');
      const bad = badArguments(parsed);
      if (bad) return answerBadArguments(reply.raw, 200, bad);
      if (req.method === 'POST' && s.fast && fastEligible(req.raw, parsed)) {
        if (s.fast.busy(parsed.id))
          return rpcError(reply.raw, 400, -32600, `Invalid Request: id ${JSON.stringify(parsed.id).slice(0, 40)} is already in flight in this session`);
        return s.fast.handle(req.raw, reply.raw, parsed, facts, authInfoOf);
      }
      attachFacts(req, facts);
      await s.http!.handleRequest(req.raw, reply.raw, parsed);
      return;
    }
    if (req.method !== 'POST') {
      reply.hijack();
      return rpcError(reply.raw, 400, -32000, 'Mcp-Session-Id header required');
    }
    // A present but unknown token is refused before any session exists.
    try {
      await resolveCaller(core, creds);
    } catch (err) {
      const cx = err as CxError;
      reply.hijack();
      return rpcError(reply.raw, 401, -32001, cx.line, cx.headers);
    }
    const body = parsed;
    if (body === PARSE_ERROR) return rpcError(reply.raw, 400, -32700, 'Parse error: malformed JSON');
    const bad = badArguments(body);
    if (bad) {
      reply.hijack();
      return answerBadArguments(reply.raw, 200, bad);
    }
    const initializing = Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
    attachFacts(req, facts);
    reply.hijack();
    if (initializing) {
      try {
        await chargeNewSession(facts.net);
      } catch (err) {
        const cx = err as CxError;
        return rpcError(reply.raw, cx.status, -32000, cx.line, cx.headers);
      }
      const state: SessionState = { creds, stateful: true };
      const sessionView = view();
      const { server, handlers } = buildMcpServer(cat, state, sessionView);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new SessionEventStore(limit('mcp.events')),
        retryInterval: 1000,
        // Tool calls send no request-scoped notifications (logs go to the GET stream), so a POST
        // is answered as one JSON body: one write, no chunked SSE framing. GET streams stay SSE
        // and resumable.
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          addSession({ id, kind: 'http', bound: credKey(creds), net: facts.net, seen: core.now() }, { server, state, http: transport, fast });
        },
        onsessionclosed: (id) => dropSession(id),
      });
      const fast = new FastPost(transport, { server, handlers });
      transport.onclose = () => {
        if (transport.sessionId) dropSession(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req.raw, reply.raw, body);
      return;
    }
    // Stateless: a client that sends no session gets fresh per-request state. A plain tools/list or
    // tools/call is answered from fresh handlers (fastpost.ts); anything else from a one-shot server.
    if (fastEligible(req.raw, body)) {
      const h = new McpHandlers(cat, { creds, stateful: false }, view());
      const kind = directKind(body, h);
      if (kind === 'list') return sendJson(reply.raw, listAnswer(h.view, body.id));
      if (kind === 'call') {
        const answer = await callAnswer(h, body, facts);
        return reply.raw.destroyed ? undefined : sendJson(reply.raw, answer);
      }
    }
    const { server } = buildMcpServer(cat, { creds, stateful: false }, view());
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => {
      void transport.close().catch(() => {});
      void server.close().catch(() => {});
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, body);
  }

  const bodyLimit = limit('mcp.body');
  const fromHeaders = (req: FastifyRequest): Credentials => credentialsOf(req);
  const fromPath = (req: FastifyRequest): Credentials => ({ urlToken: (req.params as { token: string }).token });
  // JSON arrives as text in this scope so malformed JSON gets a JSON-RPC parse error, not err bad.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    bindRaw(scope, mcpStreamRoutes, {
      core,
      handlers: {
        mcp: { bodyLimit, handle: (req, reply) => streamable(req, reply, fromHeaders(req)) },
        mcpToken: { bodyLimit, handle: (req, reply) => streamable(req, reply, fromPath(req)) },
      },
    });
    // One service, one tool: /mcp/svc/{name} and /mcp/svc/{name}/t/{token} (svc.ts).
    registerSvcMcp(scope, { core, ops, admit, bodyLimit, credentials: fromHeaders });
  });

  const cards = buildCards(
    core.config.baseUrl,
    core.version,
    cat.tools.map((t) => ({ ...t, title: cat.byTool.get(t.name)!.title })),
  );
  const json = (body: object): RawHandler => ({
    handle: async (_req, reply) =>
      reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*').type('application/json; charset=utf-8').send(body),
  });

  // Legacy HTTP+SSE.
  const sse = async (req: FastifyRequest, reply: FastifyReply) => {
    const creds = fromHeaders(req);
    const facts = await admit(req, reply, creds);
    if (!facts) return;
    try {
      await resolveCaller(core, creds);
    } catch (err) {
      throw err instanceof CxError ? err : new CxError('auth', 'unknown token', 401);
    }
    const sel = selectionOf(req.query as Record<string, unknown>, req.headers);
    if (typeof sel === 'string') throw new CxError('bad', sel, 400);
    await chargeNewSession(facts.net);
    reply.hijack();
    const id = randomUUID();
    const state: SessionState = { creds, stateful: true };
    const { server } = buildMcpServer(cat, state, cat.view(sel));
    const transport = new LegacySseTransport(id, reply.raw, `/messages?s=${id}`);
    addSession({ id, kind: 'sse', bound: credKey(creds), net: facts.net, seen: core.now() }, { server, state, sse: transport });
    transport.onclose = () => dropSession(id);
    await server.connect(transport);
  };

  const messages = async (req: FastifyRequest, reply: FastifyReply) => {
    const s = (req.query as Record<string, unknown>).s;
    const session = typeof s === 'string' ? sessionOf(s) : undefined;
    if (!session || session.rec.kind !== 'sse') throw new CxError('auth', 'no such SSE session: open GET /sse first', 403);
    const facts = await admit(req, reply, session.state.creds);
    if (!facts) return;
    const parsed = JSONRPCMessageSchema.safeParse(req.body);
    if (!parsed.success) return reply.code(400).send({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: not a JSON-RPC message' }, id: null });
    records.touch(session.rec.id, core.now());
    const answer = await session.sse!.deliver(
      parsed.data as JSONRPCMessage,
      { authInfo: { token: '', clientId: facts.net, scopes: [], extra: { ...facts } } },
      limit('mcp.sse_wait') * 1000,
    );
    if (answer === null) return reply.code(202).send();
    return reply.code(200).type('application/json').send(answer);
  };

  bindRaw(app, mcpCardRoutes, {
    core,
    handlers: {
      serverCard: json(cards.serverCard),
      registry: json(cards.registry),
      aiPlugin: json(cards.aiPlugin),
      registryAuth: {
        async handle(_req, reply) {
          const key = core.config.mcpRegistryAuth;
          if (!key) throw new CxError('notfound', 'no registry key configured');
          return reply.type('text/plain; charset=utf-8').send(key.endsWith('\n') ? key : key + '\n');
        },
      },
      sse: { handle: sse },
      messages: { bodyLimit, handle: messages },
    },
  });

  return {
    sessions: () => records.size,
    async close() {
      clearInterval(sweep);
      await modern.close();
      for (const id of [...live.keys()]) {
        const s = live.get(id);
        await s?.http?.close().catch(() => {});
        await s?.sse?.close().catch(() => {});
        dropSession(id);
      }
    },
  };
}

/** The MCP face as a plugin of the shared host. Open SSE streams would keep close() waiting: sessions end first. */
export const mcpFace = face<{ core: Core; ops: readonly Operation[]; extras?: McpExtras }>('mcp', async (app, { core, ops, extras }) => {
  const mcp = registerMcp(app, core, ops, extras);
  app.addHook('preClose', async () => mcp.close());
});
