// The note operations on the generated faces: OpenAPI (valid, every route documented), the MCP
// tool list, and A2A 0.3 JSON-RPC skills.
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteOps } from '../../src/core/notes/ops.js';
import { start, type TestServer } from '../helpers/server.js';
import { agent, type Who } from '../helpers/http.js';
import { expectDocumented, expectTools, openapi, skill } from '../helpers/faces.js';
import { hints } from '../helpers/mcp.js';

let s: TestServer;
let alice: Who;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  alice = await agent(s);
});
afterAll(async () => s.stop());

describe('OpenAPI', () => {
  it('documents every note operation, its body types included, and stays valid', async () => {
    const doc = await openapi(s);
    await SwaggerParser.validate(structuredClone(doc) as never);
    expectDocumented(doc, noteOps);
    expect(Object.keys(doc.paths['/v1/notes']!.post!.requestBody!.content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'text/plain',
    ]);
  });
});

describe('MCP', () => {
  it('lists a tool per note operation (dots become underscores) with annotations', async () => {
    const tools = await expectTools(s, noteOps);
    expect(hints(tools.get('note_delete'))).toMatchObject({ destructiveHint: true });
  });
});

describe('A2A 0.3', () => {
  it('note.create and note.search run as skills', async () => {
    const made = await skill(s, alice, 'note.create', { title: 'a2a', body: 'written through A2A' });
    expect(made.status.state).toBe('completed');
    const id = made.artifacts![0]!.parts[1]!.data!.id as string;
    expect(made.artifacts![0]!.parts[0]!.text).toMatch(new RegExp(`^ok note ${id} size=19`));
    const found = await skill(s, alice, 'note_search', { q: 'through' });
    expect((found.artifacts![0]!.parts[1]!.data!.rows as { id: string }[]).map((r) => r.id)).toEqual([id]);
  });
});
