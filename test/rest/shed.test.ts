// Load shedding by event-loop delay (src/http/pressure.ts): a server that just started does not shed for
// its own start-up work. (Levels and an induced delay are in shed-levels.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_SHED: '1' });
});
afterAll(async () => s.stop());

/** Blocks this process's event loop (the test server runs in it) for `ms`. */
function block(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    /* busy */
  }
}

describe('shedding', () => {
  it('a fresh server answers at once, although its start-up blocked the loop', async () => {
    block(1500);
    const r = await fetch(`${s.url}/healthz`);
    expect(r.status).toBe(200);
  });
});
