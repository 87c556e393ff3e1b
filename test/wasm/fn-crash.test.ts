// An fn: sink whose run kills its runner process is paused with a reason its owner reads, not tried
// again on every line. The runner is swapped, after the sample services were served, for one whose
// every run dies the way a runner killed by a module does.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { ComputeRunner } from '../../src/core/compute/ports.js';
import { agent, call, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let bob: Who;
let runs = 0;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '1' }); // the sample services
  bob = await agent(s, 'bob');
  await vi.waitFor(async () => expect((await call(s, 'GET', '/v1/svc/text-stats')).text).toMatch(/served=1/), { timeout: 30_000, interval: 200 });
  const dead: ComputeRunner = {
    run: async () => (runs++, { ok: false, code: 'crash', detail: 'runner process died (signal SIGABRT)', ms: 3 }),
    stats: () => ({ workers: 1, busy: 0, queued: 0, started: 1, replaced: 0 }),
    close: async () => {},
  };
  (s.core as { compute: ComputeRunner }).compute = dead;
}, 60_000);
afterAll(() => s?.stop());

it('drops the line, pauses the subscription with the reason, and runs no further line', async () => {
  const t = 'r:Room_fncrash0123456789.in';
  const r = await call(s, 'POST', '/v1/subs', {
    as: bob,
    json: { topic: t, sink: 'fn:text-stats@1', to: 'kv:stats/last' },
    headers: { accept: 'application/json' },
  });
  expect(r.status).toBe(201);
  const { id } = JSON.parse(r.text) as { id: string };
  for (const text of ['one', 'two', 'three']) expect((await call(s, 'POST', `/v1/pub/${t}`, { as: bob, text })).status).toBe(201);
  const sub = async () =>
    (JSON.parse((await call(s, 'GET', '/v1/subs?f=json', { as: bob })).text).subs as Array<Record<string, unknown>>).find((x) => x.id === id)!;
  await vi.waitFor(
    async () =>
      expect(await sub()).toMatchObject({
        dropped: 1,
        paused: expect.stringMatching(/^fn:text-stats@1 killed its runner on line 1 \(crash runner process died \(signal SIGABRT\)/),
      }),
    { timeout: 15_000, interval: 100 },
  );
  await new Promise((res) => setTimeout(res, 500));
  expect(runs).toBe(1);
  expect(await sub()).toMatchObject({ cursor: 1, delivered: 0, dropped: 1 });
  expect((await call(s, 'GET', '/v1/subs', { as: bob })).text).toContain('paused="fn:text-stats@1 killed its runner on line 1');
}, 30_000);
