// Protocol details a strict client notices (issue 40): MCP input schemas without `type` arrays, A2A
// subscribe streams that carry one Task, and cancel answered per wire (1.0 idempotent, 0.3 table).
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { A2AClient } from 'a2a-sdk-03/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcp } from '../helpers/mcp.js';
import { start, type TestServer } from '../helpers/server.js';
import { client03, client13, collect, msg03, rpc, serveBase, subscribed, text03, type Json } from '../a2a/helpers.js';

let s: TestServer;
let c03: A2AClient;
beforeAll(async () => {
  // Measured shedding off: these tests are about protocol shapes, not load (the machine is shared).
  s = await start({ CX_SHED: '0' });
  serveBase(s.url);
  c03 = await client03(`${s.url}/.well-known/agent.json`);
}, 120_000);
afterAll(async () => s.stop());

/** Paths of every `type` that is an array, anywhere in a schema. */
function typeArrays(node: unknown, path = '$'): string[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => typeArrays(n, `${path}[${i}]`));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([k, v]) => [...(k === 'type' && Array.isArray(v) ? [`${path}.type`] : []), ...typeArrays(v, `${path}.${k}`)]);
}

describe('MCP: every tool schema passes a strict validator (no type arrays)', () => {
  it('listTools over a real client, every toolset', async () => {
    const c = await mcp(s, null, undefined, 'all');
    try {
      const tools = (await c.client.listTools()).tools as Array<{ name: string; inputSchema: unknown; outputSchema?: unknown }>;
      expect(tools.length).toBeGreaterThan(70);
      const names = tools.map((t) => t.name);
      for (const n of ['id_register', 'kb_add', 'task_create', 'inj_report']) expect(names).toContain(n);
      const bad = tools.flatMap((t) => [...typeArrays(t.inputSchema), ...typeArrays(t.outputSchema ?? {})].map((p) => `${t.name} ${p}`));
      expect(bad).toEqual([]);
      // string | string[] is still offered as both.
      const kbAdd = tools.find((t) => t.name === 'kb_add')!.inputSchema as Json;
      expect(kbAdd.properties.tags.anyOf).toEqual(expect.arrayContaining([{ type: 'string' }, { type: 'array', items: { type: 'string' } }]));
    } finally {
      await c.close();
    }
  });

  it('the 2026-07-28 stateless face sends the same schemas', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const res = await fetch(`${s.url}/mcp?toolsets=all`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }),
    });
    const body = (await res.json()) as Json;
    const tools = body.result.tools as Array<{ name: string; inputSchema: unknown }>;
    expect(tools.length).toBeGreaterThan(70);
    expect(tools.flatMap((t) => typeArrays(t.inputSchema).map((p) => `${t.name} ${p}`))).toEqual([]);
  });
});

const send10 = (client: Awaited<ReturnType<typeof client13>>, text: string, taskId = '') =>
  client.sendMessage(
    SendMessageRequest.fromJSON({ message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }], ...(taskId ? { taskId } : {}) } }),
  ) as Promise<Json>;

describe('A2A 1.0: a subscriber gets one Task, then only status and artifact updates', () => {
  it('1.0 wire: continuations by SendMessage and by SendStreamingMessage reach subscribers as updates', async () => {
    const client = await client13(s.url);
    const t = await send10(client, 'npm ERESOLVE could not resolve');
    expect(t.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    // A continuation by SendMessage; the subscribe stream ends when the task waits for input again.
    const sub = await subscribed(client.resubscribeTask({ tenant: '', id: t.id }));
    expect(sub.first.payload).toMatchObject({ $case: 'task', value: { id: t.id } });
    expect(await send10(client, 'more words ModuleNotFoundError', t.id)).toMatchObject({ id: t.id, status: { state: TaskState.TASK_STATE_INPUT_REQUIRED } });
    const rest = await sub.rest;
    expect(rest.map((e) => e.payload?.$case)).not.toContain('task');
    const states = (evs: typeof rest) => evs.filter((e) => e.payload?.$case === 'statusUpdate').map((e) => (e.payload!.value as Json).status.state);
    expect(states(rest)).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_INPUT_REQUIRED]);
    expect(rest.some((e) => e.payload?.$case === 'artifactUpdate')).toBe(true);

    // A continuation by SendStreamingMessage: its own stream still begins with the Task (§3.1.2).
    const sub2 = await subscribed(client.resubscribeTask({ tenant: '', id: t.id }));
    const own = await collect(
      client.sendMessageStream(
        SendMessageRequest.fromJSON({ message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text: 'yet more words' }], taskId: t.id } }),
      ),
    );
    expect(own[0]!.payload?.$case).toBe('task');
    expect(own.slice(1).map((e) => e.payload?.$case)).not.toContain('task');
    const rest2 = await sub2.rest;
    expect(rest2.map((e) => e.payload?.$case)).not.toContain('task');
    expect(states(rest2)).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_INPUT_REQUIRED]);
    await client.cancelTask({ tenant: '', id: t.id, metadata: {} });
  });

  it('0.3 wire: the same for tasks/resubscribe', async () => {
    const t = (await c03.sendMessage({ message: msg03([text03('npm ERESOLVE could not resolve')]) as never })) as Json;
    const task = t.result as Json;
    expect(task.status.state).toBe('input-required');
    const sub = await subscribed(c03.resubscribeTask({ id: task.id }));
    expect(sub.first).toMatchObject({ kind: 'task', id: task.id });
    const f = (await c03.sendMessage({ message: msg03([text03('more words')], { taskId: task.id }) as never, configuration: { blocking: true } })) as Json;
    expect(f.result).toMatchObject({ id: task.id, status: { state: 'input-required' } });
    const rest = (await sub.rest) as Json[];
    expect(rest.map((e) => e.kind)).not.toContain('task');
    expect(rest.filter((e) => e.kind === 'status-update').map((e) => e.status.state)).toEqual(['working', 'input-required']);
    await c03.cancelTask({ id: task.id });
  });
});

describe('A2A cancel: idempotent on the 1.0 wire, the 0.3 table on the 0.3 wire', () => {
  const a2a = () => `${s.url}/a2a`;
  const V1 = { 'a2a-version': '1.0' };
  const call = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: 7, method, params });
  const open03 = async () => (await rpc(a2a(), call('message/send', { message: msg03([text03('npm ERESOLVE could not resolve')]) }))).body.result as Json;

  it('1.0: a second cancel answers the canceled task; a completed task is -32002', async () => {
    const t = await open03();
    const first = await rpc(a2a(), call('CancelTask', { id: t.id }), V1);
    expect(first.body.result).toMatchObject({ id: t.id, status: { state: 'TASK_STATE_CANCELED' } });
    const again = await rpc(a2a(), call('CancelTask', { id: t.id }), V1);
    expect(again.body.error).toBeUndefined();
    expect(again.body.result).toMatchObject({ id: t.id, status: { state: 'TASK_STATE_CANCELED' } });
    const done = (await rpc(a2a(), call('message/send', { message: msg03([text03('healthz')]) }))).body.result as Json;
    expect(done.status.state).toBe('completed');
    expect((await rpc(a2a(), call('CancelTask', { id: done.id }), V1)).body.error).toMatchObject({ code: -32002 });
  });

  it('0.3: a canceled task, like a completed one, is -32002 TaskNotCancelableError', async () => {
    const t = await open03();
    expect((await rpc(a2a(), call('tasks/cancel', { id: t.id }))).body.result).toMatchObject({ id: t.id, status: { state: 'canceled' } });
    const again = await rpc(a2a(), call('tasks/cancel', { id: t.id }));
    expect(again.body.error).toMatchObject({ code: -32002 });
    expect((await rpc(a2a(), call('tasks/get', { id: t.id }))).body.result.status.state).toBe('canceled');
    const done = (await rpc(a2a(), call('message/send', { message: msg03([text03('healthz')]) }))).body.result as Json;
    expect((await rpc(a2a(), call('tasks/cancel', { id: done.id }))).body.error).toMatchObject({ code: -32002 });
  });
});
