// The credit operations on the generated faces (the bounty flow over A2A is in test/tasks/faces.test.ts).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { expectRoutes, openapi } from '../helpers/faces.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
});
afterAll(async () => s.stop());

describe('OpenAPI', () => {
  it('documents the credit and operator ledger routes with their auth', async () => {
    expectRoutes(await openapi(s), [
      ['/v1/credits', 'get', 'credits.show', 'token'],
      ['/admin/credits', 'post', 'admin.credits', 'admin'],
      ['/admin/audit', 'get', 'admin.audit', 'poll'],
    ]);
  });
});
