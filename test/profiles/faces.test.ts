// The profile operation on the generated faces (its A2A skill runs in test/tasks/faces.test.ts).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { expectRoutes, openapi } from '../helpers/faces.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
});
afterAll(async () => s.stop());

describe('OpenAPI', () => {
  it('documents the profile route, anonymous', async () => {
    expectRoutes(await openapi(s), [['/a/{id}', 'get', 'profile.get', 'anon']]);
  });
});
