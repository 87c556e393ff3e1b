// The task board publishes its transitions on the bus: REST writes through the real server show up
// on topic `tasks` (store.events) with the documented payload, and a live subscriber sees them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BusEvent } from '../../src/core/platform/events/ports.js';
import { TASKS_TOPIC, type TaskEvent } from '../../src/core/tasks/events.js';
import { register, start, type TestServer } from '../helpers/server.js';

type Who = { id: string; token: string; net: string };
const agent = async (s: TestServer, name: string, net: string): Promise<Who> => ({ ...(await register(s.url, name, { 'x-forwarded-for': net })), net });
const post = (s: TestServer, path: string, who: Who, body?: unknown, extra: Record<string, string> = {}) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: {
      'x-forwarded-for': who.net,
      authorization: `Bearer ${who.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...extra,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

let s: TestServer;
let alice: Who;
let bob: Who;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  [alice, bob] = await Promise.all([agent(s, 'alice', '10.71.0.9'), agent(s, 'bob', '10.71.1.9')]);
});
afterAll(async () => s.stop());

it('open, claim, done, accept over REST appear on topic tasks in order, with the payload', async () => {
  const bus = s.core.store.events;
  const head = await bus.head(TASKS_TOPIC);
  const ac = new AbortController();
  const live: BusEvent[] = [];
  const sub = (async () => {
    for await (const e of bus.subscribe({ topic: TASKS_TOPIC }, { signal: ac.signal })) live.push(e);
  })();

  const r = await post(s, '/v1/tasks', alice, { title: 'Write the bus docs', tags: 'docs, bus', bounty: 5 }, { accept: 'application/json' });
  expect(r.status).toBe(201);
  const { id } = (await r.json()) as { id: string };
  for (const [action, who, body] of [
    ['claim', bob, undefined],
    ['done', bob, { result: 'see docs/bus.md' }],
    ['accept', alice, undefined],
  ] as const) {
    const res = await post(s, `/v1/tasks/${id}/${action}`, who, body);
    expect(res.status, await res.clone().text()).toBe(200);
  }
  // A refused transition (already accepted) publishes nothing.
  expect((await post(s, `/v1/tasks/${id}/cancel`, alice)).status).toBe(409);

  const events = await bus.read(TASKS_TOPIC, head, 100);
  expect(events.map((e) => e.id)).toEqual([head + 1, head + 2, head + 3, head + 4]);
  const payloads = events.map((e) => e.payload as TaskEvent);
  expect(payloads.map((p) => [p.state, p.claimant])).toEqual([
    ['open', null],
    ['claimed', bob.id],
    ['done', bob.id],
    ['accepted', bob.id],
  ]);
  const task = (await (await fetch(`${s.url}/v1/tasks/${id}.json`)).json()) as { title: string };
  for (const p of payloads) {
    expect(Object.keys(p).sort()).toEqual(['claimant', 'id', 'n', 'state', 'tags', 'title', 'updated']);
    expect(p).toMatchObject({ id, title: task.title, tags: ['docs', 'bus'], n: payloads[0]!.n });
    expect(typeof p.updated).toBe('number');
  }
  for (const e of events) expect(e.time).toBeGreaterThanOrEqual(payloads[0]!.updated);

  await new Promise((res) => setTimeout(res, 50));
  expect(live).toEqual(events);
  ac.abort();
  await sub;
});

it('release, reject and cancel publish too; each event carries the state after the change', async () => {
  const bus = s.core.store.events;
  const head = await bus.head(TASKS_TOPIC);
  const mk = async (title: string) => ((await (await post(s, '/v1/tasks', alice, { title }, { accept: 'application/json' })).json()) as { id: string }).id;
  const a = await mk('Task to release and reject');
  const b = await mk('Task to cancel');
  for (const [id, action, who, body] of [
    [a, 'claim', bob, undefined],
    [a, 'release', bob, undefined],
    [a, 'claim', bob, undefined],
    [a, 'done', bob, { result: 'r' }],
    [a, 'reject', alice, { note: 'again' }],
    [b, 'cancel', alice, undefined],
  ] as const) {
    const res = await post(s, `/v1/tasks/${id}/${action}`, who, body);
    expect(res.status, await res.clone().text()).toBe(200);
  }
  const got = (await bus.read(TASKS_TOPIC, head, 100)).map((e) => e.payload as TaskEvent).map((p) => [p.id, p.state, p.claimant]);
  expect(got).toEqual([
    [a, 'open', null],
    [b, 'open', null],
    [a, 'claimed', bob.id],
    [a, 'open', null],
    [a, 'claimed', bob.id],
    [a, 'done', bob.id],
    [a, 'claimed', bob.id],
    [b, 'cancelled', null],
  ]);
});
