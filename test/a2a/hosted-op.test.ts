// A message to a hosted agent runs the agent.message operation through the one pipeline (invoke):
// the scrub refuses a secret and nothing reaches the owner's inbox; a clean message lands there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';
import { msg03, raiseToL1, rpc, serveBase, text03, type Json } from './helpers.js';

let s: TestServer;
let owner: { id: string; token: string };
let sender: { id: string; token: string };
beforeAll(async () => {
  s = await start();
  serveBase(s.url);
  owner = await register(s.url, 'owner');
  sender = await register(s.url, 'sender');
  raiseToL1(s.dir, owner.id);
  const r = await fetch(`${s.url}/v1/agent`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${owner.token}` },
    body: new URLSearchParams({ name: 'Fixer', description: 'Answers questions.' }),
  });
  expect(r.status).toBe(200);
});
afterAll(async () => s.stop());

const send = (text: string) =>
  rpc(
    `${s.url}/a2a/${owner.id}`,
    { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: msg03([text03(text)]) } },
    { authorization: `Bearer ${sender.token}` },
  );
const inbox = async () =>
  (await (await fetch(`${s.url}/v1/agent/inbox?all=1`, { headers: { authorization: `Bearer ${owner.token}`, accept: 'application/json' } })).json()) as Json;

describe('hosted messages go through invoke', () => {
  it('a secret in the message fails the task with err scrub and never reaches the inbox', async () => {
    const r = await send('my key is AKIAIOSFODNN7EXAMPLE, help');
    expect(r.status).toBe(200);
    expect(r.body.result.status.state).toBe('failed');
    expect(r.body.result.status.message.parts[0].text).toMatch(/^err scrub aws body@\d+/);
    expect((await inbox()).rows).toEqual([]);
  });

  it('a clean message is delivered and listed in the owner inbox', async () => {
    const r = await send('How do I fix ERESOLVE?');
    expect(r.body.result.status.state).toBe('working');
    const rows = (await inbox()).rows as Json[];
    expect(rows.map((x) => [x.from, x.text])).toEqual([[sender.id, 'How do I fix ERESOLVE?']]);
  });
});
