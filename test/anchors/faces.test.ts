// The anchor operations on the generated faces: OpenAPI and the MCP tool list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anchorOps } from '../../src/core/anchors/ops.js';
import { start, type TestServer } from '../helpers/server.js';
import { expectDocumented, expectTools, openapi } from '../helpers/faces.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
});
afterAll(async () => s.stop());

describe('OpenAPI', () => {
  it('documents every anchor operation, the custom read route included', async () => {
    const doc = await openapi(s);
    expectDocumented(doc, anchorOps);
    expect(doc.paths['/anchor/{key}']!.get!['x-cx-op']).toBe('anchor.get');
  });
});

describe('MCP', () => {
  it('lists a tool per anchor operation with annotations', async () => {
    await expectTools(s, anchorOps);
  });
});
