// The checkpoint operations on the generated faces: OpenAPI, the MCP tool list, an A2A skill.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointOps } from '../../src/core/checkpoints/ops.js';
import { start, type TestServer } from '../helpers/server.js';
import { agent, type Who } from '../helpers/http.js';
import { expectDocumented, expectTools, openapi, skill } from '../helpers/faces.js';

let s: TestServer;
let alice: Who;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  alice = await agent(s);
});
afterAll(async () => s.stop());

describe('OpenAPI', () => {
  it('documents every checkpoint operation, the public read included', async () => {
    const doc = await openapi(s);
    expectDocumented(doc, checkpointOps);
    expect(doc.paths['/cp/{id}']!.get!['x-cx-op']).toBe('cp.read');
  });
});

describe('MCP', () => {
  it('lists a tool per checkpoint operation with annotations', async () => {
    await expectTools(s, checkpointOps);
  });
});

describe('A2A 0.3', () => {
  it('cp.read runs as a skill; an unknown checkpoint fails with err notfound', async () => {
    const missing = await skill(s, null, 'cp.read', { id: 'c00000000' }, alice.net);
    expect(missing.status.state).toBe('failed');
    expect(missing.status.message!.parts[0]!.text).toBe('err notfound');
  });
});
