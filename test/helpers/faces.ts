// Shared checks of the generated faces: the OpenAPI document, the MCP tool list and A2A skills,
// so each domain's faces.test.ts states only its own operations.
import { expect } from 'vitest';
import type { Operation } from '../../src/core/kernel/types.js';
import type { Who } from './http.js';
import { hints, mcp } from './mcp.js';
import type { TestServer } from './server.js';

export type OpenApiOp = {
  'x-cx-op': string;
  'x-cx-auth': string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, unknown> };
};
export type OpenApi = { paths: Record<string, Record<string, OpenApiOp>> };

export async function openapi(s: TestServer): Promise<OpenApi> {
  return (await (await fetch(`${s.url}/openapi.json`)).json()) as OpenApi;
}

/** Every operation's REST route is listed in OpenAPI under its declared method and path. */
export function expectDocumented(doc: OpenApi, ops: readonly Operation[]): void {
  const listed = new Map(
    Object.entries(doc.paths).flatMap(([p, ms]) => Object.entries(ms).map(([m, o]) => [o['x-cx-op'], `${m.toUpperCase()} ${p}`] as const)),
  );
  for (const op of ops) expect(listed.get(op.name), op.name).toBe(`${op.rest!.method} ${op.rest!.path.replace(/:(\w+)/g, '{$1}')}`);
}

/** Rows of [path, method, operation, auth] are in the OpenAPI document. */
export function expectRoutes(doc: OpenApi, want: ReadonlyArray<readonly [string, string, string, string]>): void {
  for (const [path, method, op, auth] of want) {
    expect(doc.paths[path]?.[method], `${method} ${path}`).toMatchObject({ 'x-cx-op': op, 'x-cx-auth': auth });
  }
}

/** MCP lists a tool per operation (dots become underscores) with its readOnly annotation (defaults filled in); returns the annotations as sent. */
export async function expectTools(s: TestServer, ops: readonly Operation[]): Promise<Map<string, Record<string, unknown> | undefined>> {
  const c = await mcp(s, null, undefined, 'all');
  try {
    const tools = new Map((await c.tools()).map((t) => [t.name, t.annotations]));
    for (const op of ops) {
      const name = op.name.replace(/\./g, '_');
      expect(tools.has(name), op.name).toBe(true);
      expect(hints(tools.get(name)), op.name).toMatchObject({ readOnlyHint: op.readOnly });
    }
    return tools;
  } finally {
    await c.close();
  }
}

export type SkillResult = {
  status: { state: string; message?: { parts: { text?: string }[] } };
  artifacts?: { parts: { text?: string; data?: Record<string, unknown> }[] }[];
};

let n = 0;
/** One blocking A2A 0.3 message/send carrying a skill call, as `who` (or anonymous) from `net`. */
export async function skill(
  s: TestServer,
  who: Who | null,
  name: string,
  input: Record<string, unknown>,
  net = who?.net ?? '10.251.0.1',
): Promise<SkillResult> {
  const res = await fetch(`${s.url}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': net, ...(who ? { authorization: `Bearer ${who.token}` } : {}) },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++n,
      method: 'message/send',
      params: {
        message: { kind: 'message', messageId: `skill-${n}-${Math.random()}`, role: 'user', parts: [{ kind: 'data', data: { skill: name, input } }] },
        configuration: { blocking: true },
      },
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: SkillResult }).result;
}

/** The reply line of a skill: the first artifact's text, else the status message's. */
export const skillText = (r: SkillResult) => r.artifacts?.[0]?.parts[0]?.text ?? r.status.message?.parts[0]?.text;
