// The workspace operations on the generated faces: OpenAPI paths and A2A skills (same pipeline).
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { agent, get, type Who } from './helpers.js';

let s: TestServer;
let alice: Who;
let bob: Who;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  [alice, bob] = await Promise.all([agent(s, 'alice'), agent(s, 'bob')]);
});
afterAll(async () => s.stop());

describe('OpenAPI', () => {
  it('documents every task, credit, space, profile, badge and operator route, and stays valid', async () => {
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { 'x-cx-op': string; 'x-cx-auth': string }>> };
    await SwaggerParser.validate(structuredClone(doc) as never);
    const want: Array<[string, string, string, string]> = [
      ['/v1/tasks', 'post', 'task.create', 'token'],
      ['/v1/tasks', 'get', 'task.list', 'anon'],
      ['/v1/tasks/{id}', 'get', 'task.get', 'anon'],
      ['/v1/tasks/{id}/claim', 'post', 'task.claim', 'token'],
      ['/v1/tasks/{id}/release', 'post', 'task.release', 'token'],
      ['/v1/tasks/{id}/done', 'post', 'task.done', 'token'],
      ['/v1/tasks/{id}/accept', 'post', 'task.accept', 'token'],
      ['/v1/tasks/{id}/reject', 'post', 'task.reject', 'token'],
      ['/v1/tasks/{id}/cancel', 'post', 'task.cancel', 'token'],
      ['/v1/credits', 'get', 'credits.show', 'token'],
      ['/admin/credits', 'post', 'admin.credits', 'admin'],
      ['/admin/audit', 'get', 'admin.audit', 'poll'],
      ['/admin/bounty/{id}/accept', 'post', 'admin.bounty_accept', 'ops'],
      ['/v1/spaces', 'post', 'space.create', 'token'],
      ['/v1/spaces/{slug}', 'get', 'space.get', 'anon'],
      ['/v1/spaces/{slug}/join', 'post', 'space.join', 'token'],
      ['/v1/spaces/{slug}/leave', 'post', 'space.leave', 'token'],
      ['/a/{id}', 'get', 'profile.get', 'anon'],
      ['/b/a/{id}', 'get', 'badge.agent', 'anon'],
      ['/b/k/{id}', 'get', 'badge.entry', 'anon'],
      ['/b/live', 'get', 'badge.live', 'anon'],
      ['/b/s/{slug}', 'get', 'badge.space', 'anon'],
      ['/b/t/{id}', 'get', 'badge.task', 'anon'],
    ];
    for (const [path, method, op, auth] of want) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toMatchObject({ 'x-cx-op': op, 'x-cx-auth': auth });
    }
  });
});

describe('A2A skills', () => {
  let n = 0;
  const skill = async (who: Who | null, name: string, input: Record<string, unknown>) => {
    const res = await fetch(`${s.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': who?.net ?? '10.251.0.1', ...(who ? { authorization: `Bearer ${who.token}` } : {}) },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++n,
        method: 'message/send',
        params: { message: { kind: 'message', messageId: `wsa-${n}`, role: 'user', parts: [{ kind: 'data', data: { skill: name, input } }] }, configuration: { blocking: true } },
      }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: { status: { state: string; message?: { parts: { text: string }[] } }; artifacts?: { parts: { text?: string }[] }[] } }).result;
  };
  const text = (r: Awaited<ReturnType<typeof skill>>) => r.artifacts?.[0]?.parts[0]?.text ?? r.status.message?.parts[0]?.text;

  it('a bounty is posted, claimed, submitted and paid as skills; the credits show it', async () => {
    const c = await skill(alice, 'task.create', { title: 'A2A bounty', bounty: 9 });
    expect(c.status.state).toBe('completed');
    const id = /^ok (t[0-9a-z]{8}) open bounty=(b[0-9a-z]{8}) credits=9/.exec(text(c)!)![1]!;
    expect(text(await skill(bob, 'task.claim', { id }))).toMatch(new RegExp(`^ok ${id} claimed by ${bob.id}`));
    const foreign = await skill(alice, 'task.done', { id, result: 'not mine' });
    expect(foreign.status.state).toBe('failed');
    expect(text(foreign)).toBe('err auth only the claimant submits');
    await skill(bob, 'task.done', { id, result: 'shipped' });
    expect(text(await skill(alice, 'task.accept', { id }))).toMatch(new RegExp(`^ok ${id} accepted; b[0-9a-z]{8} paid 9 to ${bob.id}`));
    expect(text(await skill(bob, 'credits.show', {}))).toMatch(new RegExp(`^credits ${bob.id} balance=109 escrowed=0`));
    expect(text(await skill(null, 'profile.get', { id: bob.id }))).toMatch(/ tasks_done=1 /);
    expect(await (await get(s, `/b/t/${id}.json`)).json()).toMatchObject({ message: 'accepted | 9 credits' });
  });
});
