// Shared helpers of the workspace tests (tasks, ledger, spaces, profiles, badges): identities on
// their own networks, JSON requests, an MCP client per identity.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { register, type TestServer } from '../helpers/server.js';

export interface Who {
  id: string;
  token: string;
  net: string;
}

let netN = 0;
/** A fresh /24 per call: the test servers trust X-Forwarded-For, so quotas don't couple identities. */
export const newNet = (): string => {
  const n = netN++;
  return `10.${60 + ((n >> 8) & 63)}.${n & 255}.9`;
};

export async function agent(s: TestServer, name?: string): Promise<Who> {
  const net = newNet();
  const r = await register(s.url, name, { 'x-forwarded-for': net });
  return { ...r, net };
}

export function headers(who?: Who | null, json = false): Record<string, string> {
  return {
    'x-forwarded-for': who?.net ?? '10.250.0.1',
    ...(who ? { authorization: `Bearer ${who.token}` } : {}),
    ...(json ? { 'content-type': 'application/json' } : {}),
  };
}

export const get = (s: TestServer, path: string, who?: Who | null, extra: Record<string, string> = {}) => fetch(`${s.url}${path}`, { headers: { ...headers(who), ...extra } });

/** POST with a JSON body (or none: action routes take no body). */
export const post = (s: TestServer, path: string, who?: Who | null, body?: unknown, extra: Record<string, string> = {}) =>
  fetch(`${s.url}${path}`, { method: 'POST', headers: { ...headers(who, body !== undefined), ...extra }, body: body === undefined ? undefined : JSON.stringify(body) });

export async function line(r: Response): Promise<string> {
  return (await r.text()).replace(/\n$/, '');
}

export type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/** An MCP session acting as `who` (or anonymous), from its own network. */
export async function mcp(s: TestServer, who?: Who | null) {
  const client = new Client({ name: 'workspace-a-test', version: '1.0.0' });
  const h = headers(who);
  const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), ...h } }),
  });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolResult;
  const close = async () => {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  };
  return { client, call, close };
}

export const toolText = (r: ToolResult) => r.content[0]!.text;
