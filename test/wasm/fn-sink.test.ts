// Swarm fn: sinks running a real service through the WASM runner: each line is the input of one
// call of text-stats@1 for the subscriber, the output lands on the target, the line is charged once
// (swarm.fn_credits, the call itself recorded with price 0); unknown or unserved versions are
// refused at SubCreate; a run that fails drops the line instead of retrying it forever.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { limit } from '../../src/core/kernel/limits.js';
import { sql } from '../helpers/db.js';
import { agent, call, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let bob: Who;
const room = 'Room_fn0123456789abcd';

beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '1' }); // the sample services
  bob = await agent(s, 'bob');
  // The sample services are served once their KATs pass (a background job at start).
  await vi.waitFor(async () => expect((await call(s, 'GET', '/v1/svc/text-stats')).text).toMatch(/served=1/), { timeout: 30_000, interval: 200 });
}, 60_000);
afterAll(() => s?.stop());

const subscribe = (who: Who, body: Record<string, unknown>) => call(s, 'POST', '/v1/subs', { as: who, json: body, headers: { accept: 'application/json' } });
const subOf = async (who: Who, id: string) =>
  (JSON.parse((await call(s, 'GET', '/v1/subs?f=json', { as: who })).text).subs as Array<Record<string, unknown>>).find((x) => x.id === id)!;
const balance = async (w: Who) => JSON.parse((await call(s, 'GET', '/v1/credits?f=json', { as: w })).text).balance as number;

describe('fn: sinks on the compute runner', () => {
  it('text-stats@1 turns each line into its stats on a kv entry, charged swarm.fn_credits per line', async () => {
    const t = `r:${room}.stats`;
    const before = await balance(bob);
    const r = await subscribe(bob, { topic: t, sink: 'fn:text-stats@1', to: 'kv:stats/last' });
    expect(r.status).toBe(201);
    const { id } = JSON.parse(r.text) as { id: string };
    expect((await call(s, 'POST', `/v1/pub/${t}`, { as: bob, text: 'hello brave new world' })).status).toBe(201);
    await vi.waitFor(
      async () => {
        const kv = await call(s, 'GET', '/v1/kv/stats/last?f=json', { as: bob });
        expect(kv.status).toBe(200);
        expect(JSON.parse(kv.text)).toMatchObject({
          value: 'stats lines=1 words=4 chars=21 bytes=21 longest=21 blank=0',
          by: 'fn:text-stats@1',
          hop: 1,
          seq: 1,
        });
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(await subOf(bob, id)).toMatchObject({ delivered: 1, dropped: 0 });
    expect(await balance(bob)).toBe(before - limit('swarm.fn_credits'));
  });

  it('output onto another topic carries the next hop and the service as author', async () => {
    const [from, to] = [`r:${room}.in`, `r:${room}.out`];
    expect((await subscribe(bob, { topic: from, sink: 'fn:text-stats@1', to: `topic:${to}` })).status).toBe(201);
    await call(s, 'POST', `/v1/pub/${from}`, { as: bob, text: 'one two' });
    await vi.waitFor(
      async () => {
        const lines = JSON.parse((await call(s, 'GET', `/v1/topics/${to}?f=json`, { as: bob })).text).lines as Array<{ text: string; by: string; hop: number }>;
        expect(lines).toEqual([expect.objectContaining({ text: 'stats lines=1 words=2 chars=7 bytes=7 longest=7 blank=0', by: 'fn:text-stats@1', hop: 1 })]);
      },
      { timeout: 15_000, interval: 100 },
    );
  });

  it('unknown services, unknown versions and non-integer versions are refused with one line', async () => {
    for (const [sink, msg] of [
      ['fn:nope@1', 'err bad sink fn:nope@1: no such service version'],
      ['fn:text-stats@9', 'err bad sink fn:text-stats@9: no such service version'],
      ['fn:text-stats@1.0.0', 'err bad sink fn:text-stats@1.0.0: ver is the integer version of a service'],
    ]) {
      const r = await call(s, 'POST', '/v1/subs', { as: bob, json: { topic: `r:${room}.x`, sink, to: 'mail:me' } });
      expect(r.status).toBe(400);
      expect(r.text).toBe(`${msg}\n`);
    }
  });

  it('a run that fails (here: the version was withdrawn after subscribing) drops the line once, not retried', async () => {
    const t = `r:${room}.gone`;
    const r = await subscribe(bob, { topic: t, sink: 'fn:json-check@1', to: 'mail:me' });
    expect(r.status).toBe(201);
    const { id } = JSON.parse(r.text) as { id: string };
    sql(s, "UPDATE svc_versions SET state = 'failed' WHERE name = 'json-check' AND ver = 1");
    await call(s, 'POST', `/v1/pub/${t}`, { as: bob, text: '{"a":1}' });
    await vi.waitFor(async () => expect(await subOf(bob, id)).toMatchObject({ cursor: 1, delivered: 0, dropped: 1 }), { timeout: 15_000, interval: 100 });
    sql(s, "UPDATE svc_versions SET state = 'ok' WHERE name = 'json-check' AND ver = 1");
  });
});
