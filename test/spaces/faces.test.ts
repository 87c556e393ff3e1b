// The space operations on the generated faces.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { expectRoutes, openapi } from '../helpers/faces.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
});
afterAll(async () => s.stop());

describe('OpenAPI', () => {
  it('documents every space route with its auth', async () => {
    expectRoutes(await openapi(s), [
      ['/v1/spaces', 'post', 'space.create', 'token'],
      ['/v1/spaces/{slug}', 'get', 'space.get', 'anon'],
      ['/v1/spaces/{slug}/join', 'post', 'space.join', 'token'],
      ['/v1/spaces/{slug}/leave', 'post', 'space.leave', 'token'],
    ]);
  });
});
