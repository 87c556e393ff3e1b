// The workspace operations on the generated faces: OpenAPI (valid, custom routes documented),
// MCP tool listing, and A2A 0.3 JSON-RPC skills.
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { workspaceOps } from '../../src/core/workspace/ops.js';
import { mcp, who, type Who } from './helpers.js';

let s: TestServer;
let alice: Who;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  alice = await who(s);
});
afterAll(async () => s.stop());

type Op = { 'x-cx-op': string; parameters?: { name: string; in: string }[]; requestBody?: { content: Record<string, unknown> } };

describe('OpenAPI', () => {
  it('documents every workspace operation, the custom routes included, and stays valid', async () => {
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, Op>> };
    await SwaggerParser.validate(structuredClone(doc) as never);
    const listed = new Map(Object.entries(doc.paths).flatMap(([p, ms]) => Object.entries(ms).map(([m, o]) => [o['x-cx-op'], `${m.toUpperCase()} ${p}`] as const)));
    for (const op of workspaceOps) expect(listed.get(op.name), op.name).toBe(`${op.rest!.method} ${op.rest!.path.replace(/:(\w+)/g, '{$1}')}`);
    const c = doc.paths['/c/{key}']!;
    expect(Object.keys(c).sort()).toEqual(['get', 'head']);
    expect(c.get!.parameters!.map((p) => `${p.in}:${p.name}`).sort()).toEqual(['path:key', 'query:ns']);
    expect(Object.keys(doc.paths['/v1/b']!.put!.requestBody!.content)).toEqual(['application/octet-stream']);
    expect(doc.paths['/v1/b']!.put!.parameters ?? []).toEqual([]);
    expect(Object.keys(doc.paths['/v1/notes']!.post!.requestBody!.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded', 'text/plain']);
    expect(doc.paths['/anchor/{key}']!.get!['x-cx-op']).toBe('anchor.get');
    expect(doc.paths['/cp/{id}']!.get!['x-cx-op']).toBe('cp.read');
  });
});

describe('MCP', () => {
  it('lists a tool per workspace operation (dots become underscores) with annotations', async () => {
    const c = await mcp(s, null);
    try {
      const tools = new Map((await c.tools()).map((t) => [t.name, t.annotations]));
      for (const op of workspaceOps) expect(tools.get(op.name.replace(/\./g, '_')), op.name).toMatchObject({ readOnlyHint: op.readOnly });
      expect(tools.get('note_delete')).toMatchObject({ destructiveHint: true });
      const refused = await c.call('mail_send', { to: alice.id, body: 'x' });
      expect(refused.isError).toBe(true);
      expect(refused.content[0]!.text).toMatch(/^err auth token required/);
    } finally {
      await c.close();
    }
  });
});

describe('A2A 0.3', () => {
  const send = async (token: string | null, data: Record<string, unknown>) => {
    const res = await fetch(`${s.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': alice.net, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: { message: { kind: 'message', role: 'user', messageId: `m-${Math.random()}`, parts: [{ kind: 'data', data }] }, configuration: { blocking: true } },
      }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: { status: { state: string; message?: { parts: { text?: string }[] } }; artifacts?: { parts: { text?: string; data?: Record<string, unknown> }[] }[] } }).result;
  };

  it('note.create, note.search, mail.send and cp.read run as skills', async () => {
    const made = await send(alice.token, { skill: 'note.create', input: { title: 'a2a', body: 'written through A2A' } });
    expect(made.status.state).toBe('completed');
    const id = made.artifacts![0]!.parts[1]!.data!.id as string;
    expect(made.artifacts![0]!.parts[0]!.text).toMatch(new RegExp(`^ok note ${id} size=19`));
    const found = await send(alice.token, { skill: 'note_search', input: { q: 'through' } });
    expect((found.artifacts![0]!.parts[1]!.data!.rows as { id: string }[]).map((r) => r.id)).toEqual([id]);
    const bob = await who(s);
    const mail = await send(alice.token, { skill: 'mail.send', input: { to: bob.id, body: 'hi over A2A' } });
    expect(mail.artifacts![0]!.parts[0]!.text).toMatch(new RegExp(`^ok mail m[0-9a-z]{10} to=${bob.id} size=11`));
    const missing = await send(null, { skill: 'cp.read', input: { id: 'c00000000' } });
    expect(missing.status.state).toBe('failed');
    expect(missing.status.message!.parts[0]!.text).toBe('err notfound');
  });
});

