// The MCP face's raw routes (src/http/raw.ts): the protocol endpoints and the discovery cards.
// Tool calls go through invoke, so each operation's own guards (shedding, freezes, quotas) apply;
// the session and request admission of the transport (src/mcp/routes.ts `admit`) is the protocol's.
import type { Core } from '../core/kernel/types.js';
import { type RawHandler, type RawMethod, type RawRoute, rawGroup } from '../http/raw.js';

/** The face binds the handlers it built; the tables here are what the registrar and the docs read. */
export interface McpRawEnv<K extends string> {
  core: Core;
  handlers: Record<K, RawHandler>;
}

const STREAM: readonly RawMethod[] = ['POST', 'GET', 'DELETE'];
const route = (method: RawMethod | readonly RawMethod[], path: string, purpose: string): RawRoute => ({ method, path, purpose, shed: 'core' });

export const mcpStreamRoutes = rawGroup(
  'mcp',
  'src/mcp/routes.ts',
  {
    mcp: route(STREAM, '/mcp', 'MCP Streamable HTTP (token in the Authorization header)'),
    mcpToken: route(STREAM, '/mcp/t/:token', 'MCP Streamable HTTP with the token in the path'),
  },
  (env: McpRawEnv<'mcp' | 'mcpToken'>) => env.handlers,
);

export const mcpSvcRoutes = rawGroup(
  'mcp',
  'src/mcp/svc.ts',
  {
    svc: route(STREAM, '/mcp/svc/:name', 'one compute service as an MCP server with one tool'),
    svcToken: route(STREAM, '/mcp/svc/:name/t/:token', 'the same with the token in the path'),
  },
  (env: McpRawEnv<'svc' | 'svcToken'>) => env.handlers,
);

export const mcpCardRoutes = rawGroup(
  'mcp',
  'src/mcp/routes.ts',
  {
    serverCard: route('GET', '/.well-known/mcp.json', 'the MCP server card'),
    registry: route('GET', '/.well-known/mcp/server.json', 'the MCP registry entry'),
    aiPlugin: route('GET', '/.well-known/ai-plugin.json', 'the ai-plugin manifest'),
    registryAuth: route('GET', '/.well-known/mcp-registry-auth', 'the MCP registry key (when configured)'),
    sse: route('GET', '/sse', 'legacy HTTP+SSE: opens a session'),
    messages: route('POST', '/messages', 'legacy HTTP+SSE: a message to an open session'),
  },
  (env: McpRawEnv<'serverCard' | 'registry' | 'aiPlugin' | 'registryAuth' | 'sse' | 'messages'>) => env.handlers,
);
