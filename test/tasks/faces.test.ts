// The task operations on the generated faces: OpenAPI paths and A2A skills (same pipeline).
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { agent, get, type Who } from '../helpers/http.js';
import { expectRoutes, openapi, skill, skillText } from '../helpers/faces.js';

let s: TestServer;
let alice: Who;
let bob: Who;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  [alice, bob] = await Promise.all([agent(s, 'alice'), agent(s, 'bob')]);
});
afterAll(async () => s.stop());

describe('OpenAPI', () => {
  it('documents every task route and the bounty operator route, and stays valid', async () => {
    const doc = await openapi(s);
    await SwaggerParser.validate(structuredClone(doc) as never);
    expectRoutes(doc, [
      ['/v1/tasks', 'post', 'task.create', 'token'],
      ['/v1/tasks', 'get', 'task.list', 'anon'],
      ['/v1/tasks/{id}', 'get', 'task.get', 'anon'],
      ['/v1/tasks/{id}/claim', 'post', 'task.claim', 'token'],
      ['/v1/tasks/{id}/release', 'post', 'task.release', 'token'],
      ['/v1/tasks/{id}/done', 'post', 'task.done', 'token'],
      ['/v1/tasks/{id}/accept', 'post', 'task.accept', 'token'],
      ['/v1/tasks/{id}/reject', 'post', 'task.reject', 'token'],
      ['/v1/tasks/{id}/cancel', 'post', 'task.cancel', 'token'],
      ['/admin/bounty/{id}/accept', 'post', 'admin.bounty_accept', 'ops'],
    ]);
  });
});

describe('A2A skills', () => {
  it('a bounty is posted, claimed, submitted and paid as skills; the credits show it', async () => {
    const c = await skill(s, alice, 'task.create', { title: 'A2A bounty', bounty: 9 });
    expect(c.status.state).toBe('completed');
    const id = /^ok (t[0-9a-z]{8}) open bounty=(b[0-9a-z]{8}) credits=9/.exec(skillText(c)!)![1]!;
    expect(skillText(await skill(s, bob, 'task.claim', { id }))).toMatch(new RegExp(`^ok ${id} claimed by ${bob.id}`));
    const foreign = await skill(s, alice, 'task.done', { id, result: 'not mine' });
    expect(foreign.status.state).toBe('failed');
    expect(skillText(foreign)).toBe('err auth only the claimant submits');
    await skill(s, bob, 'task.done', { id, result: 'shipped' });
    expect(skillText(await skill(s, alice, 'task.accept', { id }))).toMatch(new RegExp(`^ok ${id} accepted; b[0-9a-z]{8} paid 9 to ${bob.id}`));
    expect(skillText(await skill(s, bob, 'credits.show', {}))).toMatch(new RegExp(`^credits ${bob.id} balance=109 escrowed=0`));
    expect(skillText(await skill(s, null, 'profile.get', { id: bob.id }))).toMatch(/ tasks_done=1 /);
    expect(await (await get(s, `/b/t/${id}.json`)).json()).toMatchObject({ message: 'accepted | 9 credits' });
  });
});
