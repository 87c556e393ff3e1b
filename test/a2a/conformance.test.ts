// A2A conformance details (issue 15): malformed params are -32602 before anything runs, on both
// wires; refusals are JSON-RPC bodies; POST /a2a/; card validators; tasks that wait stay working
// (cancel and resubscribe with both SDK clients); anonymous tasks belong to their creator's network.
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { A2AClient } from 'a2a-sdk-03/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';
import { authedFetch, client03, client13, data03, msg03, raiseToL1, rpc, serveBase, subscribed, text03, type Json } from './helpers.js';

let s: TestServer;
let c03: A2AClient;
beforeAll(async () => {
  // Behind a proxy, so that a test can speak from another network (X-Forwarded-For).
  s = await start({ CX_TRUST_PROXY: '1' });
  serveBase(s.url);
  c03 = await client03(`${s.url}/.well-known/agent.json`);
});
afterAll(async () => s.stop());

const a2a = () => `${s.url}/a2a`;
const V1 = { 'a2a-version': '1.0' };
const call = (method: string, params: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params });
const ok = <T>(r: any): T => {
  if ('error' in r) throw new Error(`JSON-RPC error ${JSON.stringify(r.error)}`);
  return r.result as T;
};
const msg10 = (parts: unknown[], extra: Json = {}) => ({ messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts, ...extra });

/** Every answer: HTTP 200, the caller's id, -32602, one line that names the field. */
async function invalid(body: Json, field: RegExp, headers: Record<string, string> = {}) {
  const r = await rpc(a2a(), body, headers);
  expect(r.status, JSON.stringify(body)).toBe(200);
  expect(r.body, JSON.stringify(body)).toMatchObject({ jsonrpc: '2.0', id: body.id, error: { code: -32602 } });
  expect(r.body.error.message).toMatch(field);
  expect(r.body.error.message).not.toMatch(/\n/);
}

describe('malformed params are -32602 on both wires', () => {
  it('0.3: empty parts, a part without kind, no role, negative historyLength, non-string task ids', async () => {
    await invalid(call('message/send', { message: msg03([]) }), /parts: want a non-empty array/);
    await invalid(call('message/send', { message: msg03([{ text: 'healthz' }]) }), /parts\[0\]\.kind/);
    await invalid(call('message/stream', { message: msg03([{ kind: 'text', text: 7 }]) }), /parts\[0\]\.text/);
    const noRole = msg03([text03('healthz')]);
    delete (noRole as Json).role;
    await invalid(call('message/send', { message: noRole }), /role/);
    await invalid(call('message/send', { message: msg03([text03('healthz')]), configuration: { historyLength: -1 } }), /historyLength/);
    await invalid(call('tasks/get', { id: 'x', historyLength: -1 }), /historyLength/);
    await invalid(call('tasks/get', { id: 5 }), /id: want a string/);
    await invalid(call('tasks/cancel', { id: ['a'] }), /id: want a string/);
    await invalid(call('tasks/resubscribe', { id: { a: 1 } }), /id: want a string/);
    await invalid(call('tasks/get', {}), /id: want a task id/);
    await invalid(call('tasks/pushNotificationConfig/get', { id: 12 }), /id: want a string/);
    await invalid(call('message/send', { message: msg03([text03('healthz')], { taskId: 42 }) }), /message\.taskId/);
    await invalid(call('message/send', 'text'), /params: want an object/);
    await invalid(call('message/send', { message: msg03([text03('healthz')]), configuration: { acceptedOutputModes: 5 } }), /acceptedOutputModes/);
    await invalid(call('message/send', { message: msg03([text03('healthz')]), configuration: { blocking: 'yes' } }), /blocking/);
    await invalid(
      call('message/send', { message: msg03([text03('healthz')]), configuration: { pushNotificationConfig: { url: 5 } } }),
      /pushNotificationConfig/,
    );
    await invalid(call('message/send', { message: msg03([text03('healthz')], { extensions: 5 }) }), /message\.extensions/);
    await invalid(call('message/send', { message: msg03([text03('healthz')], { referenceTaskIds: { a: 1 } }) }), /message\.referenceTaskIds/);
    await invalid(
      call('tasks/pushNotificationConfig/set', { taskId: 'x', pushNotificationConfig: { url: 'https://93.184.216.34/h', id: 3 } }),
      /pushNotificationConfig\.id/,
    );
    await invalid(call('tasks/pushNotificationConfig/set', { taskId: 'x', pushNotificationConfig: { url: 7 } }), /url/);
    await invalid(call('tasks/pushNotificationConfig/set', { taskId: 9, pushNotificationConfig: { url: 'https://93.184.216.34/h' } }), /taskId/);
    // A string id, an integer id and no params where none are needed still work.
    expect((await rpc(a2a(), call('tasks/get', { id: 'nope' }, 'abc'))).body).toMatchObject({ id: 'abc', error: { code: -32001 } });
  });

  it('1.0: the same, plus ListTasks filters', async () => {
    await invalid(call('SendMessage', { message: msg10([]) }), /parts/, V1);
    await invalid(call('SendMessage', { message: msg10([{}]) }), /parts\[0\]/, V1);
    await invalid(call('SendMessage', { message: { messageId: 'm1', parts: [{ text: 'healthz' }] } }), /role/, V1);
    await invalid(call('GetTask', { id: 'x', historyLength: -1 }), /historyLength/, V1);
    await invalid(call('GetTask', { id: 5 }), /id: want a string/, V1);
    await invalid(call('CancelTask', { id: [1] }), /id: want a string/, V1);
    await invalid(call('SendMessage', { '': 'not_a_dict' }), /message: want an object/, V1);
    await invalid(call('CreateTaskPushNotificationConfig', { taskId: 'x', url: ['https://93.184.216.34/h'] }), /url/, V1);
    const me = await register(s.url);
    const auth = { ...V1, authorization: `Bearer ${me.token}` };
    await invalid(call('ListTasks', { historyLength: -1 }), /historyLength/, auth);
    await invalid(call('ListTasks', { statusTimestampAfter: '-1' }), /statusTimestampAfter/, auth);
    await invalid(call('ListTasks', { statusTimestampAfter: 'yesterday' }), /statusTimestampAfter/, auth);
    await invalid(call('ListTasks', { pageSize: 0 }), /pageSize/, auth);
    await invalid(call('ListTasks', { includeArtifacts: 'x' }), /includeArtifacts/, auth);
    const fine = await rpc(a2a(), call('ListTasks', { statusTimestampAfter: '2020-01-01T00:00:00Z', pageSize: 10 }), auth);
    expect(fine.body.result.tasks).toEqual([]);
  });

  it('an id that is an array or an object is an Invalid Request (-32600, JSON-RPC 2.0 section 5.1) and reaches nothing', async () => {
    for (const id of [[1], { a: 1 }, 1.5]) {
      for (const h of [{}, V1]) {
        const r = await rpc(a2a(), call(h === V1 ? 'GetTask' : 'tasks/get', { id: 'x' }, id), h);
        expect(r.body).toMatchObject({ id: null, error: { code: -32600 } });
      }
    }
  });

  it('-32004 names the state of a finished task, not its number', async () => {
    const done = ok<Json>(await c03.sendMessage({ message: msg03([text03('healthz')]) as never, configuration: { blocking: true } }));
    expect(done.status.state).toBe('completed');
    const again = await rpc(a2a(), call('message/send', { message: msg03([text03('healthz')], { taskId: done.id }) }));
    expect(again.body.error.code).toBe(-32004);
    expect(again.body.error.message).toMatch(/terminal state \(completed\)/);
    const again10 = await rpc(a2a(), call('SendMessage', { message: msg10([{ text: 'healthz' }], { taskId: done.id }) }), V1);
    expect(again10.body.error.code).toBe(-32004);
    expect(again10.body.error.message).toMatch(/terminal state \(TASK_STATE_COMPLETED\)/);
    expect(again10.body.error.message).not.toMatch(/\(\d+\)/);
  });
});

describe('HTTP edges', () => {
  it('an anonymous write is 401 with WWW-Authenticate and a JSON-RPC error body, on both wires', async () => {
    for (const [h, m, params] of [
      [{}, 'message/send', { message: msg03([text03('me')]) }],
      [V1, 'SendMessage', { message: msg10([{ text: 'me' }]) }],
    ] as const) {
      const r = await rpc(a2a(), call(m, params, 9), h);
      expect(r.status).toBe(401);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer realm="commons", PoW realm="commons" challenge="[^"]+" bits="\d+" for="reg"/);
      expect(r.body).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32000, message: expect.stringMatching(/^err auth id\.me needs a token/) } });
    }
    // Without an Accept header too (no plain text).
    const plain = await fetch(a2a(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(call('message/send', { message: msg03([text03('me')]) })),
    });
    expect(plain.status).toBe(401);
    expect(((await plain.json()) as Json).error.code).toBe(-32000);
  });

  it('1.0: a body that is not application/json is -32005 (0.3 stays lenient)', async () => {
    const body = JSON.stringify(call('GetTask', { id: 'nope' }));
    const plain = await fetch(a2a(), { method: 'POST', headers: { 'content-type': 'text/plain', ...V1 }, body });
    expect(plain.status).toBe(200);
    expect(((await plain.json()) as Json).error.code).toBe(-32005);
    const json = await rpc(a2a(), body, { ...V1, 'content-type': 'application/json; charset=utf-8' });
    expect(json.body.error.code).toBe(-32001);
    const lenient = await fetch(a2a(), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(call('tasks/get', { id: 'nope' })) });
    expect(((await lenient.json()) as Json).error.code).toBe(-32001);
  });

  it('POST /a2a/ (trailing slash) works like /a2a', async () => {
    const r = await rpc(`${s.url}/a2a/`, call('message/send', { message: msg03([text03('healthz')]), configuration: { blocking: true } }));
    expect(r.status).toBe(200);
    expect(r.body.result.status.state).toBe('completed');
    expect((await rpc(`${s.url}/a2a/`, call('GetTask', { id: 'nope' }), V1)).body.error.code).toBe(-32001);
  });

  it('the agent card has ETag and Last-Modified, and answers 304 to If-None-Match and If-Modified-Since', async () => {
    for (const h of [{}, V1]) {
      const r = await fetch(`${s.url}/.well-known/agent-card.json`, { headers: h });
      expect(r.status).toBe(200);
      const etag = r.headers.get('etag')!;
      const lm = r.headers.get('last-modified')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(Number.isFinite(Date.parse(lm))).toBe(true);
      const again = await fetch(`${s.url}/.well-known/agent-card.json`, { headers: { ...h, 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe('');
      expect((await fetch(`${s.url}/.well-known/agent-card.json`, { headers: { ...h, 'if-modified-since': lm } })).status).toBe(304);
      expect((await fetch(`${s.url}/.well-known/agent-card.json`, { headers: { ...h, 'if-none-match': '"other"' } })).status).toBe(200);
      expect(
        (await fetch(`${s.url}/.well-known/agent-card.json`, { headers: { ...h, 'if-modified-since': new Date(Date.parse(lm) - 1000).toUTCString() } })).status,
      ).toBe(200);
    }
    const e03 = (await fetch(`${s.url}/.well-known/agent.json`)).headers.get('etag');
    const e10 = (await fetch(`${s.url}/.well-known/agent.json`, { headers: V1 })).headers.get('etag');
    expect(e03).not.toBe(e10);
  });
});

describe('a skill that waits keeps its task working: cancel and resubscribe', () => {
  const watch = { skill: 'tasks.watch', input: { wait: 60, max: 5 } };

  it('0.3 client: non-blocking send, the task is working, a resubscriber sees the cancel', async () => {
    const t = ok<Json>(await c03.sendMessage({ message: msg03([data03(watch)]) as never, configuration: { blocking: false } }));
    expect(t.status.state).toBe('working');
    expect(ok<Json>(await c03.getTask({ id: t.id })).status.state).toBe('working');
    const sub = await subscribed(c03.resubscribeTask({ id: t.id }));
    expect(sub.first).toMatchObject({ kind: 'task', id: t.id, status: { state: 'working' } });
    const c = ok<Json>(await c03.cancelTask({ id: t.id }));
    expect(c.status.state).toBe('canceled');
    const events = (await sub.rest) as Json[];
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'canceled' }, final: true });
    // It stays canceled: the ended watch does not complete it afterwards.
    await new Promise((r) => setTimeout(r, 200));
    expect(ok<Json>(await c03.getTask({ id: t.id })).status.state).toBe('canceled');
  });

  it('1.3 client (1.0 wire): the same', async () => {
    const client = await client13(s.url);
    const req = SendMessageRequest.fromJSON({
      message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ data: watch }] },
      configuration: { returnImmediately: true },
    });
    const t = (await client.sendMessage(req)) as Json;
    expect(t.status.state).toBe(TaskState.TASK_STATE_WORKING);
    const sub = await subscribed(client.resubscribeTask({ tenant: '', id: t.id }));
    expect(sub.first.payload).toMatchObject({ $case: 'task', value: { id: t.id, status: { state: TaskState.TASK_STATE_WORKING } } });
    const c = await client.cancelTask({ tenant: '', id: t.id, metadata: {} });
    expect(c.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const events = await sub.rest;
    expect(events.at(-1)!.payload).toMatchObject({ $case: 'statusUpdate', value: { status: { state: TaskState.TASK_STATE_CANCELED } } });
    expect((await client.getTask({ tenant: '', id: t.id, historyLength: undefined })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('a watch that ends by itself completes with the items it saw (resubscribers get the end)', async () => {
    const t = ok<Json>(
      await c03.sendMessage({ message: msg03([data03({ skill: 'tasks.watch', input: { wait: 1, max: 5 } })]) as never, configuration: { blocking: false } }),
    );
    expect(t.status.state).toBe('working');
    const sub = await subscribed(c03.resubscribeTask({ id: t.id }));
    const events = (await sub.rest) as Json[];
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' }, final: true });
    const got = ok<Json>(await c03.getTask({ id: t.id }));
    expect(got.artifacts.at(-1).parts[1].data).toMatchObject({ items: [], ended: 'wait' });
  });
});

describe('free text is a conversation: continue, history and cancel (what the TCK does with "Hello from TCK!")', () => {
  it('0.3: follow-ups search again in the same task; historyLength trims; cancel ends it; a command in it completes it', async () => {
    const t = ok<Json>(await c03.sendMessage({ message: msg03([text03('Initial message for history test')]) as never }));
    expect(t.status.state).toBe('input-required');
    for (let i = 1; i <= 3; i++) {
      const f = ok<Json>(
        await c03.sendMessage({
          message: msg03([text03(`Follow-up message ${i} npm ERESOLVE`)], { taskId: t.id }) as never,
          configuration: { blocking: true },
        }),
      );
      expect(f).toMatchObject({ id: t.id, status: { state: 'input-required' } });
      expect(f.artifacts.filter((a: Json) => a.artifactId === 'result')).toHaveLength(1);
    }
    const full = ok<Json>(await c03.getTask({ id: t.id }));
    expect(full.history.length).toBeGreaterThan(2);
    expect(ok<Json>(await c03.getTask({ id: t.id, historyLength: 2 })).history).toHaveLength(2);
    expect(ok<Json>(await c03.cancelTask({ id: t.id }))).toMatchObject({ id: t.id, status: { state: 'canceled' } });

    const u = ok<Json>(await c03.sendMessage({ message: msg03([text03('Hello from TCK!')]) as never }));
    const cmd = ok<Json>(await c03.sendMessage({ message: msg03([text03('healthz')], { taskId: u.id }) as never, configuration: { blocking: true } }));
    expect(cmd.status.state).toBe('completed');
    expect(cmd.artifacts.find((a: Json) => a.artifactId === 'result').name).toBe('sys.health');
  });

  it('1.0: the same conversation with the 1.3 client', async () => {
    const client = await client13(s.url);
    const send = (text: string, taskId = '') =>
      client.sendMessage(
        SendMessageRequest.fromJSON({ message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }], ...(taskId ? { taskId } : {}) } }),
      ) as Promise<Json>;
    const t = await send('Hello from TCK!');
    expect(t.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const f = await send('more words', t.id);
    expect(f).toMatchObject({ id: t.id, status: { state: TaskState.TASK_STATE_INPUT_REQUIRED } });
    expect((await client.cancelTask({ tenant: '', id: t.id, metadata: {} })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });
});

describe("a hosted agent's task is working until the owner answers: cancel and resubscribe with both clients", () => {
  it('0.3 and 1.3 clients', async () => {
    const owner = await register(s.url, 'owner');
    const sender = await register(s.url, 'sender');
    raiseToL1(s.dir, owner.id);
    const put = await fetch(`${s.url}/v1/agent`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${owner.token}` },
      body: new URLSearchParams({ name: 'Slow', description: 'answers later' }),
    });
    expect(put.status).toBe(200);
    // A hosted card has validators too.
    const card = await fetch(`${s.url}/a/${owner.id}/agent.json`);
    expect(card.headers.get('last-modified')).toBeTruthy();
    expect((await fetch(`${s.url}/a/${owner.id}/agent.json`, { headers: { 'if-none-match': card.headers.get('etag')! } })).status).toBe(304);

    const h03 = await client03(`${s.url}/a/${owner.id}/agent.json`, sender.token);
    const t = ok<Json>(await h03.sendMessage({ message: msg03([text03('question one')]) as never }));
    expect(t.status.state).toBe('working');
    const sub = await subscribed(h03.resubscribeTask({ id: t.id }));
    expect(sub.first).toMatchObject({ kind: 'task', id: t.id, status: { state: 'working' } });
    expect(ok<Json>(await h03.cancelTask({ id: t.id })).status.state).toBe('canceled');
    expect(((await sub.rest) as Json[]).at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'canceled' }, final: true });

    const h13 = await client13(s.url, sender.token, `/a/${owner.id}/agent.json`);
    const t2 = (await h13.sendMessage(
      SendMessageRequest.fromJSON({ message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text: 'question two' }] } }),
    )) as Json;
    expect(t2.status.state).toBe(TaskState.TASK_STATE_WORKING);
    const sub2 = await subscribed(h13.resubscribeTask({ tenant: '', id: t2.id }));
    expect(sub2.first.payload).toMatchObject({ $case: 'task', value: { id: t2.id, status: { state: TaskState.TASK_STATE_WORKING } } });
    expect((await h13.cancelTask({ tenant: '', id: t2.id, metadata: {} })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await sub2.rest).at(-1)!.payload).toMatchObject({ $case: 'statusUpdate', value: { status: { state: TaskState.TASK_STATE_CANCELED } } });
    const inbox = (await (
      await fetch(`${s.url}/v1/agent/inbox?all=1`, { headers: { authorization: `Bearer ${owner.token}`, accept: 'application/json' } })
    ).json()) as Json;
    expect(inbox.rows.filter((r: Json) => [t.id, t2.id].includes(r.task)).map((r: Json) => r.state)).toEqual(['canceled', 'canceled']);
  });
});

describe('anonymous tasks belong to the network that made them', () => {
  const from = (ip: string) => authedFetch(undefined, { 'x-forwarded-for': ip });

  it('another anonymous caller, on another network, gets not-found for get, cancel, resubscribe and push', async () => {
    const mine03 = await A2AClient.fromCardUrl(`${s.url}/.well-known/agent.json`, { fetchImpl: from('203.0.113.5') });
    const t = ok<Json>(await mine03.sendMessage({ message: msg03([text03('register')]) as never }));
    expect(t.status.state).toBe('input-required');
    // The same network (same /24) still reaches it.
    const sameNet = await A2AClient.fromCardUrl(`${s.url}/.well-known/agent.json`, { fetchImpl: from('203.0.113.77') });
    expect(ok<Json>(await sameNet.getTask({ id: t.id })).status.state).toBe('input-required');

    const other03 = await A2AClient.fromCardUrl(`${s.url}/.well-known/agent.json`, { fetchImpl: from('198.51.100.9') });
    expect(((await other03.getTask({ id: t.id })) as Json).error.code).toBe(-32001);
    expect(((await other03.cancelTask({ id: t.id })) as Json).error.code).toBe(-32001);
    expect(
      ((await other03.setTaskPushNotificationConfig({ taskId: t.id, pushNotificationConfig: { url: 'https://93.184.216.34/hook' } })) as Json).error.code,
    ).toBe(-32001);
    expect(((await other03.sendMessage({ message: msg03([text03('x')], { taskId: t.id }) as never })) as Json).error.code).toBe(-32001);
    const resub = await rpc(a2a(), call('tasks/resubscribe', { id: t.id }), { 'x-forwarded-for': '198.51.100.9' });
    expect(resub.text).toMatch(/-32001/);

    const fetchImpl = from('2001:4860:1234::5');
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      }),
    );
    const other13 = await factory.createFromUrl(s.url);
    await expect(other13.getTask({ tenant: '', id: t.id, historyLength: undefined })).rejects.toThrow(/not found/i);
    await expect(other13.cancelTask({ tenant: '', id: t.id, metadata: {} })).rejects.toThrow(/not found/i);
    // Still open for its creator.
    expect(ok<Json>(await mine03.getTask({ id: t.id })).status.state).toBe('input-required');
    expect(ok<Json>(await mine03.cancelTask({ id: t.id })).status.state).toBe('canceled');
  });
});
