// An MCP client over Streamable HTTP acting as one identity (or anonymous), from its own network.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { newNet, type Who } from './http.js';
import type { TestServer } from './server.js';

export type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

export interface McpClient {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  tools(): Promise<Array<{ name: string; annotations?: Record<string, unknown> }>>;
  close(): Promise<void>;
}

/** An MCP 1.x client on /mcp; `toolsets` names what to mount beyond the default (e.g. 'swarm' or 'all'). */
export async function mcp(s: TestServer, as?: Who | null, net = as?.net ?? newNet(), toolsets?: string): Promise<McpClient> {
  const client = new Client({ name: 'commons-test', version: '1.0.0' });
  const headers: Record<string, string> = as ? { authorization: `Bearer ${as.token}` } : {};
  const f: typeof fetch = (input, init) =>
    fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), 'x-forwarded-for': net } });
  const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp${toolsets ? `?toolsets=${toolsets}` : ''}`), {
    requestInit: { headers },
    fetch: f,
  });
  await client.connect(transport);
  return {
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
    tools: async () => (await client.listTools()).tools,
    async close() {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

export const toolText = (r: ToolResult) => r.content[0]!.text;

/**
 * A tool's annotations with the MCP defaults filled in (readOnlyHint false, destructiveHint true,
 * idempotentHint false, openWorldHint true): the server sends only the hints that differ from them.
 */
export function hints(annotations: Record<string, unknown> | undefined): Record<string, unknown> {
  return { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true, ...annotations };
}
