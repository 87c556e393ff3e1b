// The cached-result and blob operations on the generated faces: OpenAPI (the raw routes' parameters
// and body types) and the MCP tool list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobOps } from '../../src/core/blobs/ops.js';
import { cacheOps } from '../../src/core/cache/ops.js';
import { start, type TestServer } from '../helpers/server.js';
import { expectDocumented, expectTools, openapi } from '../helpers/faces.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
});
afterAll(async () => s.stop());

describe('OpenAPI', () => {
  it('documents every cache and blob operation, the custom routes included', async () => {
    const doc = await openapi(s);
    expectDocumented(doc, [...cacheOps, ...blobOps]);
    const c = doc.paths['/c/{key}']!;
    expect(Object.keys(c).sort()).toEqual(['get', 'head']);
    expect(c.get!.parameters!.map((p) => `${p.in}:${p.name}`).sort()).toEqual(['path:key', 'query:ns']);
    expect(Object.keys(doc.paths['/v1/b']!.put!.requestBody!.content)).toEqual(['application/octet-stream']);
    expect(doc.paths['/v1/b']!.put!.parameters ?? []).toEqual([]);
  });
});

describe('MCP', () => {
  it('lists a tool per cache and blob operation with annotations', async () => {
    await expectTools(s, [...cacheOps, ...blobOps]);
  });
});
