// Builds an MCP server (low-level SDK 1.x Server) over the operation registry for one 2025-era
// session or one stateless 2025-era request. The handlers themselves are in handlers.ts.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { INSTRUCTIONS, McpHandlers, RpcError, SERVER_INFO, type McpCatalog, type RequestFacts, type SessionState, type ToolView } from './handlers.js';

export { McpCatalog, type RequestFacts, type SessionState } from './handlers.js';

const validator = new AjvJsonSchemaValidator();

/** A session's (or one stateless request's) SDK server, with the handlers behind it (FastPost answers some requests from them directly). */
export interface McpSession {
  server: Server;
  handlers: McpHandlers;
}

export function buildMcpServer(cat: McpCatalog, state: SessionState, view: ToolView = cat.view()): McpSession {
  const h = new McpHandlers(cat, state, view);
  const server = new Server(SERVER_INFO(cat.core), {
    capabilities: {
      tools: { listChanged: false },
      resources: { listChanged: false, subscribe: true },
      prompts: { listChanged: false },
      logging: {},
      completions: {},
    },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: validator,
  });
  const factsOf = (extra: { authInfo?: { extra?: Record<string, unknown> } }) => (extra.authInfo?.extra ?? {}) as Partial<RequestFacts>;

  server.setRequestHandler(SetLevelRequestSchema, async (req) => {
    h.setLevel(req.params.level);
    return {};
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => view.list);
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) =>
    h.callTool(req.params.name, req.params.arguments, {
      facts: factsOf(extra),
      signal: extra.signal,
      progressToken: req.params._meta?.progressToken,
      notify: (method, params) => extra.sendNotification({ method, params } as never),
      log: logTo(server),
    }),
  );
  server.setRequestHandler(ListResourcesRequestSchema, async (req) => h.listResources(req.params?.cursor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => h.listTemplates());
  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => h.readResource(req.params.uri, factsOf(extra)));

  // Subscriptions are kept per session; guides change only with a release, so updates are rare.
  const subscribed = new Set<string>();
  server.setRequestHandler(SubscribeRequestSchema, async (req, extra) => {
    if ((await h.readText(req.params.uri, factsOf(extra))) === null) throw new RpcError(-32002, `resource not found: ${req.params.uri.slice(0, 200)}`);
    subscribed.add(req.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    subscribed.delete(req.params.uri);
    return {};
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => h.listPrompts());
  server.setRequestHandler(GetPromptRequestSchema, async (req) => h.getPrompt(req.params.name, req.params.arguments));
  server.setRequestHandler(CompleteRequestSchema, async (req) => h.complete(req.params.ref, req.params.argument));
  return { server, handlers: h };
}

/** Tool-call logs of a session go out as notifications/message, not tied to the call (on the GET stream). */
export const logTo = (server: Server) => (params: Record<string, unknown>) => server.notification({ method: 'notifications/message', params } as never);
