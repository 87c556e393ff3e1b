// The A2A face on POST /a2a: cards, both wires (0.3 client 0.3.14, 1.3 client on 1.0), skills from
// the registry, tasks, streams, push notifications, batches and limits.
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { A2AClient } from 'a2a-sdk-03/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solve } from '../../src/core/platform/identity/pow.js';
import { countTokenLookups, register, start, type TestServer } from '../helpers/server.js';
import { client03, client13, collect, serveBase, subscribed, data03, msg03, receiver, rpc, text03, type Json, type Receiver } from './helpers.js';

let s: TestServer;
let hook: Receiver;
let c03: A2AClient;
beforeAll(async () => {
  s = await start({ CX_A2A_PUSH_ALLOW_LOOPBACK: '1' });
  serveBase(s.url);
  hook = await receiver();
  c03 = await client03(`${s.url}/.well-known/agent.json`);
});
afterAll(async () => {
  await hook.close();
  await s.stop();
});

const a2a = () => `${s.url}/a2a`;
const send03 = (parts: Json[], configuration: Json = { blocking: true }, extra: Json = {}) =>
  c03.sendMessage({ message: msg03(parts, extra) as never, configuration });
const ok = <T>(r: any): T => {
  if ('error' in r) throw new Error(`JSON-RPC error ${JSON.stringify(r.error)}`);
  return r.result as T;
};

describe('agent card', () => {
  it('serves an A2A 0.3 card with every required field, skills from the registry, bearer and provider', async () => {
    for (const path of ['/.well-known/agent.json', '/.well-known/agent-card.json']) {
      const res = await fetch(s.url + path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const card = (await res.json()) as Json;
      for (const f of ['name', 'description', 'url', 'version', 'protocolVersion', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills'])
        expect(card[f], f).toBeTruthy();
      expect(card.protocolVersion).toBe('0.3.0');
      expect(card.url).toBe('http://commons.test/a2a');
      expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
      expect(card.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(card.provider).toEqual({ organization: 'Agent Commons', url: 'http://commons.test/' });
      expect(card.documentationUrl).toBe('http://commons.test/AGENTS.md');
      const ids = card.skills.map((k: Json) => k.id);
      expect(ids).toEqual(expect.arrayContaining(['sys.health', 'sys.limits', 'id.register', 'agent.publish', 'agents.list', 'agent.inbox', 'agent.answer']));
      expect(ids).not.toContain('admin.stats');
      for (const k of card.skills) {
        expect(k.name && k.description && Array.isArray(k.tags) && k.tags.length > 0, k.id).toBeTruthy();
      }
      const publish = card.skills.find((k: Json) => k.id === 'agent.publish');
      expect(publish.security).toEqual([{ bearer: [] }]);
      expect(card.skills.find((k: Json) => k.id === 'sys.health').examples).toContain('healthz');
    }
  });

  it('gives a 1.0 client (A2A-Version: 1.0) the same card in 1.0 form', async () => {
    const card = (await (await fetch(`${s.url}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })).json()) as Json;
    expect(card.supportedInterfaces).toEqual(
      expect.arrayContaining([
        { url: 'http://commons.test/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'http://commons.test/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ]),
    );
    expect(card.securitySchemes.bearer.httpAuthSecurityScheme.scheme).toBe('bearer');
    expect(card.skills.length).toBeGreaterThan(5);
  });
});

describe('A2A 0.3 client (@a2a-js/sdk 0.3.14)', () => {
  it('message/send with a data part runs the skill: completed task, text and data parts', async () => {
    const task = ok<Json>(await send03([data03({ skill: 'sys.health', input: { v: 2 } })]));
    expect(task.kind).toBe('task');
    expect(task.status.state).toBe('completed');
    expect(task.metadata.skill).toBe('sys.health');
    const [text, data] = task.artifacts[0].parts;
    expect(text.text).toMatch(/^ok version=\S+ uptime=\d+s db=ok\nshed: 0/);
    expect(data.data).toMatchObject({ ok: true, db: true, shed: 0 });
  });

  it('text commands follow the REST paths; tool names work as skills; help lists the skills', async () => {
    const t1 = ok<Json>(await send03([text03('limits')]));
    expect(t1.artifacts[0].name).toBe('sys.limits');
    expect(t1.artifacts[0].parts[0].text).toMatch(/^limits pow_reg_bits=8 /);
    const t2 = ok<Json>(await send03([data03({ skill: 'sys_health' })]));
    expect(t2.status.state).toBe('completed');
    const t3 = ok<Json>(await send03([text03('challenge for=w')]));
    expect(t3.artifacts[0].parts[1].data).toMatchObject({ for: 'w', bits: 4 });
    const help = ok<Json>(await send03([text03('help')]));
    expect(help.artifacts[0].parts[0].text).toMatch(/sys\.health "healthz" Liveness/);
  });

  it('free text falls back to the KB search; the task stays open for more words', async () => {
    const t = ok<Json>(await send03([text03('cannot find module express')]));
    expect(t.status.state).toBe('input-required');
    expect(t.status.message.parts[0].text).toMatch(/^searched: reply in this task with more words/);
    expect(t.artifacts[0].name).toBe('kb.search');
    expect(t.artifacts[0].parts[0].text).toMatch(/^search hits=\d+/);
  });

  it('operation errors are failed tasks carrying the one-line error', async () => {
    const unknown = ok<Json>(await send03([data03({ skill: 'no.such' })]));
    expect(unknown.status.state).toBe('failed');
    expect(unknown.status.message.parts[0].text).toMatch(/^err bad unknown skill "no\.such"/);
    const bad = ok<Json>(await send03([data03({ skill: 'sys.health', input: { v: 9 } })]));
    expect(bad.status.state).toBe('failed');
    expect(bad.status.message.parts[0].text).toMatch(/^err bad v: /);
    expect(bad.status.message.parts[1].data).toMatchObject({ error: 'bad', status: 400 });
  });

  it('message/stream: task, artifact, final status over SSE', async () => {
    const events = await collect(c03.sendMessageStream({ message: msg03([text03('healthz')]) as never }));
    expect(events.map((e: Json) => e.kind)).toEqual(['task', 'artifact-update', 'status-update']);
    const last = events.at(-1) as Json;
    expect(last.status.state).toBe('completed');
    expect(last.final).toBe(true);
    const got = ok<Json>(await c03.getTask({ id: (events[0] as Json).id }));
    expect(got.status.state).toBe('completed');
  });

  it('non-blocking send returns at once; tasks/get finds the task', async () => {
    const t = ok<Json>(await send03([text03('healthz')], { blocking: false }));
    expect(['working', 'completed']).toContain(t.status.state);
    let got: Json;
    for (let i = 0; ; i++) {
      got = ok<Json>(await c03.getTask({ id: t.id }));
      if (got.status.state === 'completed' || i > 40) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(got.status.state).toBe('completed');
    expect(got.artifacts[0].parts[1].data.ok).toBe(true);
  });

  it('input-required, history and historyLength, resubscribe and cancel', async () => {
    const t = ok<Json>(await send03([data03({ skill: 'id.register', input: {} })]));
    expect(t.status.state).toBe('input-required');
    expect(t.status.message.parts[0].text).toMatch(/^need pow for id\.register/);
    // A resubscriber sees the task now and the cancel when it comes.
    const sub = await subscribed(c03.resubscribeTask({ id: t.id }));
    expect(sub.first).toMatchObject({ kind: 'task', id: t.id, status: { state: 'input-required' } });
    const canceled = ok<Json>(await c03.cancelTask({ id: t.id }));
    expect(canceled.status.state).toBe('canceled');
    const events = (await sub.rest) as Json[];
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'canceled' }, final: true });
    // On the 0.3 wire a canceled task, like a finished one, cannot be canceled (0.3's -32002 row;
    // the 1.0 wire answers the task again: test/newcomer/protocol.test.ts).
    expect(((await c03.cancelTask({ id: t.id })) as Json).error.code).toBe(-32002);
    const done = ok<Json>(await send03([text03('healthz')]));
    const no = (await c03.cancelTask({ id: done.id })) as Json;
    expect(no.error.code).toBe(-32002);
    const full = ok<Json>(await c03.getTask({ id: t.id }));
    expect(full.history.length).toBeGreaterThanOrEqual(3);
    const one = ok<Json>(await c03.getTask({ id: t.id, historyLength: 1 }));
    expect(one.history).toHaveLength(1);
    expect(one.history[0]).toEqual(full.history.at(-1));
  });

  it('a follow-up message completes an input-required task (registration over A2A)', async () => {
    const t = ok<Json>(await send03([text03('register')]));
    expect(t.status.state).toBe('input-required');
    const ch = ok<Json>(await send03([text03('challenge')])).artifacts[0].parts[1].data;
    const done = ok<Json>(await send03([text03(solve(ch.challenge, ch.bits))], { blocking: true }, { taskId: t.id, contextId: t.contextId }));
    expect(done.status.state).toBe('completed');
    expect(done.artifacts[0].parts[1].data.token).toMatch(/^cx_/);
    expect(done.artifacts[0].parts[0].text).toMatch(/^ok a[0-9a-z]{6} token=cx_/);
  });

  it('a task takes a bounded number of messages', async () => {
    const t = ok<Json>(await send03([text03('register')]));
    let last: Json = t;
    for (let i = 0; i < 15 && last.status.state === 'input-required'; i++) {
      last = ok<Json>(await send03([data03({ input: {} })], { blocking: true }, { taskId: t.id, contextId: t.contextId }));
    }
    expect(last.status.state).toBe('failed');
    expect(last.status.message.parts[0].text).toBe('err bad task has more than 20 messages: start a new task');
  });

  it('JSON-RPC faults and A2A error codes', async () => {
    const notFound = (await c03.getTask({ id: 'nope' })) as Json;
    expect(notFound.error.code).toBe(-32001);
    expect((await rpc(a2a(), '{"jsonrpc":')).body.error.code).toBe(-32700);
    expect((await rpc(a2a(), { jsonrpc: '1.0', id: 1, method: 'tasks/get' })).body.error.code).toBe(-32600);
    expect((await rpc(a2a(), { jsonrpc: '2.0', id: 1, method: 'tasks/nope', params: {} })).body.error.code).toBe(-32601);
    expect(
      (await rpc(a2a(), { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', role: 'user', parts: [] } } })).body.error.code,
    ).toBe(-32602);
    const file = await rpc(a2a(), {
      jsonrpc: '2.0',
      id: 7,
      method: 'message/send',
      params: { message: msg03([{ kind: 'file', file: { uri: 'https://example.com/x.txt' } }]) },
    });
    expect(file.body).toMatchObject({ id: 7, error: { code: -32005 } });
    const v = await rpc(a2a(), { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x' } }, { 'a2a-version': '2.0' });
    expect(v.body.error.code).toBe(-32009);
  });

  it('an anonymous write is a 401 with bearer and PoW challenges; reads stay anonymous', async () => {
    const r = await rpc(
      a2a(),
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: { message: msg03([data03({ skill: 'agent.publish', input: { name: 'x', description: 'y' } })]) },
      },
      { accept: 'application/json' },
    );
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer realm="commons", PoW realm="commons" challenge="[^"]+" bits="8" for="reg"/);
    // The body is a JSON-RPC error carrying the one-line error.
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: expect.stringMatching(/^err auth agent\.publish needs a token/) } });
    expect(r.body.error.data.line).toMatch(/^err auth agent\.publish needs a token/);
    // The 0.3 client reads the JSON-RPC error of the 401 as the call's answer.
    const viaClient = (await send03([text03('me')])) as Json;
    expect(viaClient.error).toMatchObject({ code: -32000, message: expect.stringMatching(/^err auth id\.me needs a token/) });
    const bad = await rpc(a2a(), { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x' } }, { authorization: 'Bearer cx_unknown' });
    expect(bad.status).toBe(401);
  });

  it('a token is looked up once per request: the guards of its calls reuse the caller A2A resolved', async () => {
    const me = await register(s.url, 'a2aonce', { 'x-forwarded-for': '10.55.0.1' });
    const lookups = countTokenLookups(s);
    try {
      for (let i = 1; i <= 2; i++) {
        const r = await rpc(
          a2a(),
          {
            jsonrpc: '2.0',
            id: i,
            method: 'message/send',
            params: { message: msg03([data03({ skill: 'id.me', input: {} })]), configuration: { blocking: true } },
          },
          { authorization: `Bearer ${me.token}` },
        );
        expect(r.status).toBe(200);
        expect(JSON.stringify(r.body)).toContain(me.id);
        expect(lookups.count()).toBe(i);
      }
    } finally {
      lookups.restore();
    }
  });

  it('batches of 1 to 10 answer an array; 11 is -32600; streams and a second blocking call are refused inside', async () => {
    const call = (i: number, extra: Json = {}) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'message/send',
      params: { message: msg03([text03('healthz')]), configuration: { blocking: false }, ...extra },
    });
    const ten = await rpc(
      a2a(),
      Array.from({ length: 10 }, (_, i) => call(i)),
    );
    expect(ten.status).toBe(200);
    expect(ten.body).toHaveLength(10);
    expect(ten.body.map((r: Json) => r.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const r of ten.body) expect(r.result.kind).toBe('task');
    const eleven = await rpc(
      a2a(),
      Array.from({ length: 11 }, (_, i) => call(i)),
    );
    expect(eleven.body).toMatchObject({ id: null, error: { code: -32600 } });
    expect(eleven.body.error.message).toMatch(/at most 10/);
    expect((await rpc(a2a(), [])).body.error.code).toBe(-32600);
    const mixed = await rpc(a2a(), [
      call(1, { configuration: { blocking: true } }),
      call(2, { configuration: { blocking: true } }),
      { jsonrpc: '2.0', id: 3, method: 'message/stream', params: { message: msg03([text03('healthz')]) } },
      { jsonrpc: '2.0', method: 'tasks/get', params: { id: 'x' } },
      { jsonrpc: '2.0', id: 5, method: 'tasks/get', params: { id: 'x' } },
    ]);
    expect(mixed.body).toHaveLength(4);
    expect(mixed.body[0].result.status.state).toBe('completed');
    expect(mixed.body[1].error).toMatchObject({ code: -32600, message: expect.stringMatching(/blocking/) });
    expect(mixed.body[2].error).toMatchObject({ code: -32600, message: expect.stringMatching(/batched/) });
    expect(mixed.body[3]).toMatchObject({ id: 5, error: { code: -32001 } });
  });

  it('a body of exactly 256 KiB is served; one byte more is 413 err size', async () => {
    const shape = (pad: string) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: { message: { ...msg03([data03({ skill: 'sys.health' })]), metadata: { pad } } },
      });
    const filler = 256 * 1024 - shape('').length;
    const edge = shape('x'.repeat(filler));
    expect(Buffer.byteLength(edge)).toBe(256 * 1024);
    const r = await rpc(a2a(), edge);
    expect(r.status).toBe(200);
    expect(r.body.result.status.state).toBe('completed');
    const over = await rpc(a2a(), shape('x'.repeat(filler + 1)));
    expect(over.status).toBe(413);
    expect(over.text).toMatch(/^err size /);
  });

  it('push notifications go to the webhook with the token; get with only the task id returns the config', async () => {
    hook.hits.length = 0;
    const t = ok<Json>(await send03([text03('healthz')], { blocking: true, pushNotificationConfig: { url: hook.url, token: 'tok-03' } }));
    // 0.3 webhooks get the task as it stands after each event.
    await hook.waitFor((h) => h.some((x) => x.body.kind === 'task' && x.body.id === t.id && x.body.status.state === 'completed'));
    expect(hook.hits.at(-1)!.body.artifacts[0].parts[1].data.ok).toBe(true);
    for (const h of hook.hits) expect(h.headers['x-a2a-notification-token']).toBe('tok-03');

    const wait = ok<Json>(await send03([text03('register')]));
    expect(wait.status.state).toBe('input-required');
    const set = ok<Json>(await c03.setTaskPushNotificationConfig({ taskId: wait.id, pushNotificationConfig: { url: hook.url, token: 'tok-set' } }));
    expect(set.pushNotificationConfig.id).toBeTruthy();
    const got = ok<Json>(await c03.getTaskPushNotificationConfig({ id: wait.id }));
    expect(got).toMatchObject({ taskId: wait.id, pushNotificationConfig: { url: hook.url, token: 'tok-set' } });
    hook.hits.length = 0;
    await c03.cancelTask({ id: wait.id });
    await hook.waitFor((h) => h.some((x) => x.body.id === wait.id && x.body.status.state === 'canceled'));
    expect(hook.hits.find((x) => x.body.id === wait.id)!.headers['x-a2a-notification-token']).toBe('tok-set');
  });

  it('push targets must be public http(s): private, link-local and odd schemes are refused', async () => {
    const wait = ok<Json>(await send03([text03('register')]));
    for (const url of [
      'http://10.1.2.3/x',
      'http://169.254.169.254/latest',
      'http://192.168.1.1/',
      'http://[fe80::1]/',
      'ftp://example.com/',
      'http://user:pw@127.0.0.1/',
    ]) {
      const r = (await c03.setTaskPushNotificationConfig({ taskId: wait.id, pushNotificationConfig: { url } })) as Json;
      expect(r.error?.code, url).toBe(-32602);
    }
  });

  it('push delivery retries a failing webhook', async () => {
    hook.hits.length = 0;
    hook.failFirst = [503];
    const wait = ok<Json>(await send03([text03('register')]));
    ok(await c03.setTaskPushNotificationConfig({ taskId: wait.id, pushNotificationConfig: { url: hook.url } }));
    await c03.cancelTask({ id: wait.id });
    await hook.waitFor((h) => h.some((x) => x.body.status?.state === 'canceled'), 8000);
    expect(hook.failFirst).toEqual([]);
  });
});

describe('A2A 1.3 client (1.0 wire)', () => {
  const req = (text: string, configuration: Json = {}, extra: Json = {}) =>
    SendMessageRequest.fromJSON({ message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }], ...extra }, configuration });

  const listAll = {
    tenant: '',
    contextId: '',
    status: TaskState.TASK_STATE_UNSPECIFIED,
    pageSize: 100,
    pageToken: '',
    statusTimestampAfter: undefined,
    includeArtifacts: false,
  };

  it('discovers the 1.0 interface and sends, streams and gets', async () => {
    const client = await client13(s.url);
    expect(client.protocolVersion).toBe('1.0');
    const r = (await client.sendMessage(req('healthz'))) as Json;
    expect(r.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(r.artifacts[0].parts[0].content.value).toMatch(/^ok version=/);
    expect(r.artifacts[0].parts[1].content).toMatchObject({ $case: 'data', value: { ok: true } });

    const events = await collect(client.sendMessageStream(req('limits')));
    expect(events.map((e) => e.payload?.$case)).toEqual(['task', 'artifactUpdate', 'statusUpdate']);
    const taskId = (events[0]!.payload as Json).value.id;
    const got = await client.getTask({ tenant: '', id: taskId, historyLength: 0 });
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(got.history).toEqual([]);
    // Anonymous tasks are reachable by id only: listing them needs a token.
    await expect(client.listTasks(listAll)).rejects.toThrow(/err auth ListTasks needs a token/);
  });

  it('input-required, resubscribe, cancel; push notifications in 1.0 form', async () => {
    const client = await client13(s.url);
    const t = (await client.sendMessage(req('register'))) as Json;
    expect(t.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    hook.hits.length = 0;
    const cfg = await client.createTaskPushNotificationConfig({ tenant: '', id: '', taskId: t.id, url: hook.url, token: 'tok-10', authentication: undefined });
    expect(cfg.id).toBeTruthy();
    const sub = await subscribed(client.resubscribeTask({ tenant: '', id: t.id }));
    expect(sub.first.payload?.$case).toBe('task');
    const c = await client.cancelTask({ tenant: '', id: t.id, metadata: {} });
    expect(c.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const events = await sub.rest;
    expect(events.at(-1)!.payload).toMatchObject({ $case: 'statusUpdate', value: { status: { state: TaskState.TASK_STATE_CANCELED } } });
    await hook.waitFor((h) => h.some((x) => x.body.statusUpdate?.status?.state === 'TASK_STATE_CANCELED'));
    expect(hook.hits[0]!.headers['x-a2a-notification-token']).toBe('tok-10');
    const err = await client.cancelTask({ tenant: '', id: t.id + 'x', metadata: {} }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.constructor.name).toMatch(/TaskNotFound/);
  });

  it('writes with a token; anonymous writes are refused with 401', async () => {
    const me = await register(s.url);
    const authed = await client13(s.url, me.token);
    const r = (await authed.sendMessage(req('me'))) as Json;
    expect(r.artifacts[0].parts[1].content.value.id).toBe(me.id);
    // Tasks belong to their creator: listed for it, invisible to anyone else.
    expect((await authed.listTasks(listAll)).tasks.map((t) => t.id)).toEqual([r.id]);
    const other = await client13(s.url, (await register(s.url)).token);
    expect((await other.listTasks(listAll)).tasks).toEqual([]);
    await expect(other.getTask({ tenant: '', id: r.id, historyLength: undefined })).rejects.toThrow(/not found/i);
    const anon = await client13(s.url);
    await expect(anon.sendMessage(req('me'))).rejects.toThrow(/err auth id\.me needs a token/);
  });
});
