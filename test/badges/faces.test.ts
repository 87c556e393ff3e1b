// The badge operations on the generated faces.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { expectRoutes, openapi } from '../helpers/faces.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
});
afterAll(async () => s.stop());

describe('OpenAPI', () => {
  it('documents every badge route, anonymous', async () => {
    expectRoutes(await openapi(s), [
      ['/b/a/{id}', 'get', 'badge.agent', 'anon'],
      ['/b/k/{id}', 'get', 'badge.entry', 'anon'],
      ['/b/live', 'get', 'badge.live', 'anon'],
      ['/b/s/{slug}', 'get', 'badge.space', 'anon'],
      ['/b/t/{id}', 'get', 'badge.task', 'anon'],
    ]);
  });
});
