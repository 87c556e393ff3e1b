// Hosted agents: an L1 identity publishes a card, another identity sends it a task over
// POST /a2a/{id}, the owner lists and answers it (REST, MCP and A2A faces), the sender's task completes.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { A2AClient } from 'a2a-sdk-03/client';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';
import { client03, client13, data03, subscribed, msg03, raiseToL1, rpc, serveBase, text03, type Json } from './helpers.js';

let s: TestServer;
let owner: { id: string; token: string };
let sender: { id: string; token: string };
let toOwner: A2AClient;
beforeAll(async () => {
  s = await start();
  serveBase(s.url);
  owner = await register(s.url, 'owner');
  sender = await register(s.url, 'sender');
  raiseToL1(s.dir, owner.id);
});
afterAll(async () => s.stop());

const form = (token: string, body: Record<string, string>, method = 'POST', path = '/v1/agent') =>
  fetch(s.url + path, { method, headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, body: new URLSearchParams(body) });
const ok = <T>(r: any): T => {
  if ('error' in r) throw new Error(`JSON-RPC error ${JSON.stringify(r.error)}`);
  return r.result as T;
};
const inbox = async (token: string, all = false) =>
  (await (
    await fetch(`${s.url}/v1/agent/inbox${all ? '?all=1' : ''}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } })
  ).json()) as Json;

describe('publishing a card', () => {
  it('needs L1: an L0 identity is refused', async () => {
    const r = await form(sender.token, { name: 'S', description: 'sender' }, 'PUT');
    expect(r.status).toBe(403);
    expect(((await r.json()) as Json).line).toBe('err auth level L1 needed to publish an agent card, you are L0: see /limits for the thresholds');
  });

  it('an L1 identity publishes; the card is served at /a/{id}/agent.json and listed at /agents', async () => {
    const r = await form(owner.token, { name: 'Fixer', description: 'Answers questions about npm errors.', tags: 'npm, Node' }, 'PUT');
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ id: owner.id, inbound: 'open', tags: ['npm', 'node'], a2a: `http://commons.test/a2a/${owner.id}` });
    const card = (await (await fetch(`${s.url}/a/${owner.id}/agent.json`)).json()) as Json;
    expect(card).toMatchObject({
      name: 'Fixer',
      description: 'Answers questions about npm errors.',
      url: `http://commons.test/a2a/${owner.id}`,
      protocolVersion: '0.3.0',
      version: expect.any(String),
    });
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: false });
    expect(card.security).toEqual([{ bearer: [] }]);
    expect(card.skills[0]).toMatchObject({ id: 'message', tags: ['npm', 'node'] });
    expect((await fetch(`${s.url}/a/${sender.id}/agent.json`)).status).toBe(404);
    expect((await fetch(`${s.url}/a/zzz/agent.json`)).status).toBe(404);

    const dir = await (await fetch(`${s.url}/agents`)).text();
    expect(dir).toMatch(/^agents total=1 page=1\/1\n/);
    expect(dir).toContain(`${owner.id} tags=npm,node`);
    expect(((await (await fetch(`${s.url}/agents?tag=Node&f=json`)).json()) as Json).rows.map((x: Json) => x.id)).toEqual([owner.id]);
    expect(((await (await fetch(`${s.url}/agents?tag=python&f=json`)).json()) as Json).total).toBe(0);
    expect(((await (await fetch(`${s.url}/agents?page=2&f=json`)).json()) as Json).rows).toEqual([]);
    toOwner = await client03(`${s.url}/a/${owner.id}/agent.json`, sender.token);
  });
});

describe('a task between two identities', () => {
  it('message/send needs a bearer token and text parts only', async () => {
    const url = `${s.url}/a2a/${owner.id}`;
    const anon = await rpc(url, { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: msg03([text03('hi')]) } });
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toMatch(/^Bearer realm="commons", PoW /);
    // The refusal names what to send over A2A (the commons' registration skills), not REST routes.
    const refused = anon.body as Json;
    expect(refused.error.message).toContain('at the commons endpoint /a2a: send {"skill":"id.challenge","input":{"for":"reg"}}');
    expect(refused.error.message).not.toMatch(/\b(GET|POST|PUT|DELETE) \//);
    const data = (await toOwner.sendMessage({ message: msg03([data03({ q: 1 })]) as never })) as Json;
    expect(data.error.code).toBe(-32005);
    const stream = await rpc(
      url,
      { jsonrpc: '2.0', id: 2, method: 'message/stream', params: { message: msg03([text03('hi')]) } },
      { authorization: `Bearer ${sender.token}` },
    );
    expect(stream.body.error.code).toBe(-32601);
    const push = (await toOwner.sendMessage({
      message: msg03([text03('hi')]) as never,
      configuration: { pushNotificationConfig: { url: 'https://example.com/hook' } },
    })) as Json;
    expect(push.error.code).toBe(-32003);
    expect((await rpc(`${s.url}/a2a/${sender.id}`, { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x' } })).status).toBe(404);
  });

  it('round trip: the sender waits on a stream, the owner lists and answers, the task completes', async () => {
    const sent = ok<Json>(
      await toOwner.sendMessage({ message: msg03([text03('How do I fix ERESOLVE in npm 10?')]) as never, configuration: { blocking: true } }),
    );
    expect(sent.status.state).toBe('working');
    expect(sent.status.message.parts[0].text).toMatch(new RegExp(`^delivered to ${owner.id}`));
    const watching = await subscribed(toOwner.resubscribeTask({ id: sent.id }));
    expect(watching.first).toMatchObject({ kind: 'task', id: sent.id, status: { state: 'working' } });

    const box = await inbox(owner.token);
    expect(box.open).toBe(1);
    expect(box.rows[0]).toMatchObject({ task: sent.id, from: sender.id, state: 'open', text: 'How do I fix ERESOLVE in npm 10?' });
    const txt = await (await fetch(`${s.url}/v1/agent/inbox`, { headers: { authorization: `Bearer ${owner.token}` } })).text();
    expect(txt).toContain(`in ${sent.id} from=${sender.id} state=open`);
    expect(txt).toContain('untrusted: How do I fix ERESOLVE');

    // The owner answers through its own A2A face, with the registry operation as a skill.
    const own = await client03(`${s.url}/.well-known/agent.json`, owner.token);
    const ans = ok<Json>(
      await own.sendMessage({
        message: msg03([data03({ skill: 'agent.answer', input: { task: sent.id, text: 'Use --legacy-peer-deps.' } })]) as never,
        configuration: { blocking: true },
      }),
    );
    expect(ans.status.state).toBe('completed');
    expect(ans.artifacts[0].parts[1].data).toEqual({ task: sent.id, state: 'completed', to: sender.id, delivered: true });

    const events = (await watching.rest) as Json[];
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' }, final: true });
    const done = ok<Json>(await toOwner.getTask({ id: sent.id }));
    expect(done.status.state).toBe('completed');
    expect(done.artifacts[0].parts[0].text).toBe('Use --legacy-peer-deps.');

    const again = await form(owner.token, { text: 'twice' }, 'POST', `/v1/agent/inbox/${sent.id}`);
    expect(again.status).toBe(409);
    expect(((await again.json()) as Json).line).toBe('err dup task already completed');
    expect((await form(sender.token, { text: 'not mine' }, 'POST', `/v1/agent/inbox/${sent.id}`)).status).toBe(404);
  });

  it('the sender cancels; the owner sees it canceled and cannot answer; tasks are scoped to their endpoint', async () => {
    const sent = ok<Json>(await toOwner.sendMessage({ message: msg03([text03('second question')]) as never }));
    const c = ok<Json>(await toOwner.cancelTask({ id: sent.id }));
    expect(c.status.state).toBe('canceled');
    expect((await inbox(owner.token, true)).rows.find((r: Json) => r.task === sent.id).state).toBe('canceled');
    expect((await form(owner.token, { text: 'late' }, 'POST', `/v1/agent/inbox/${sent.id}`)).status).toBe(409);
    const commons = await client03(`${s.url}/.well-known/agent.json`, sender.token);
    expect(((await commons.getTask({ id: sent.id })) as Json).error.code).toBe(-32001);
  });

  it('the 1.3 client sends; the owner answers over MCP and declines; the sender sees rejected', async () => {
    const c = await client13(s.url, sender.token, `/a/${owner.id}/agent.json`);
    expect(c.protocolVersion).toBe('1.0');
    const t = (await c.sendMessage(
      SendMessageRequest.fromJSON({ message: { messageId: 'm-13', role: 'ROLE_USER', parts: [{ text: 'please do my homework' }] } }),
    )) as Json;
    expect(t.status.state).toBe(TaskState.TASK_STATE_WORKING);

    const mcp = new Client({ name: 'owner', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${owner.token}` } } }));
    const listed = (await mcp.callTool({ name: 'agent_inbox', arguments: {} })) as Json;
    expect(listed.structuredContent.rows[0]).toMatchObject({ task: t.id, text: 'please do my homework' });
    const r = (await mcp.callTool({ name: 'agent_answer', arguments: { task: t.id, text: 'No.', state: 'rejected' } })) as Json;
    expect(r.content[0].text).toMatch(/^ok rejected /);
    await mcp.close();

    const got = await c.getTask({ tenant: '', id: t.id, historyLength: undefined });
    expect(got.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(got.status?.message?.parts[0]?.content).toEqual({ $case: 'text', value: 'No.' });
  });

  it('closed inbound refuses new tasks with -32004 and leaves the directory', async () => {
    expect((await form(owner.token, { name: 'Fixer', description: 'Answers questions about npm errors.', inbound: 'closed' }, 'PUT')).status).toBe(200);
    const r = (await toOwner.sendMessage({ message: msg03([text03('anyone?')]) as never })) as Json;
    expect(r.error.code).toBe(-32004);
    expect(((await (await fetch(`${s.url}/agents?f=json`)).json()) as Json).total).toBe(0);
    expect(((await (await fetch(`${s.url}/a/${owner.id}/agent.json`)).json()) as Json).skills[0].description).toMatch(/^Inbound is closed/);
  });
});

describe('the directory', () => {
  it('pages by 50, newest first, and lists only L1+ owners with inbound open', async () => {
    const db = new Database(join(s.dir, 'commons.db'));
    const now = Date.now();
    const ins = db.prepare('INSERT INTO identities (id, name, created, rep, confirmed, frozen) VALUES (?, NULL, ?, ?, ?, 0)');
    const card = db.prepare("INSERT INTO agent_cards (id, name, description, tags, inbound, created, updated) VALUES (?, ?, 'bulk', 'bulk', 1, ?, ?)");
    db.transaction(() => {
      for (let i = 0; i < 55; i++) {
        ins.run(`ab${String(i).padStart(3, '0')}`, now - 3 * 86_400_000, 5, 1);
        card.run(`ab${String(i).padStart(3, '0')}`, `bulk ${i}`, now + i, now + i);
      }
      // An L0 owner's card is not listed.
      ins.run('al0card', now, 0, 0);
      card.run('al0card', 'new', now + 100, now + 100);
    })();
    db.close();
    const page = async (q: string) => (await (await fetch(`${s.url}/agents?f=json&${q}`)).json()) as Json;
    const p1 = await page('tag=bulk');
    expect(p1).toMatchObject({ total: 55, page: 1, pages: 2 });
    expect(p1.rows).toHaveLength(50);
    expect(p1.rows[0].id).toBe('ab054');
    const p2 = await page('tag=bulk&page=2');
    expect(p2.rows.map((r: Json) => r.id)).toEqual(['ab004', 'ab003', 'ab002', 'ab001', 'ab000']);
    expect((await page('')).rows.map((r: Json) => r.id)).not.toContain('al0card');
    expect((await fetch(`${s.url}/agents?tag=a%20b`)).status).toBe(400);
    expect(await (await fetch(`${s.url}/agents?tag=bulk`)).text()).toMatch(/\nnext: GET \/agents\?tag=bulk&page=2\n?$/);
  });
});
