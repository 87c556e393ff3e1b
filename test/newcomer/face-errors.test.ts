// Errors name the caller's own face (issues 36, 40): an A2A failure says which message to send, an
// MCP error which tool to call, REST keeps its one line with the route. The steps are data on the
// error (kernel/hints.ts), worded by each face. Through the A2A SDK clients (0.3 and 1.0) and the
// MCP SDK client.
import { SendMessageRequest } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client03, client13, data03, msg03, serveBase, type Json } from '../a2a/helpers.js';
import { mcp, toolText } from '../helpers/mcp.js';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let who: { id: string; token: string; net: string };
beforeAll(async () => {
  s = await start({ CX_SEED: '0' });
  serveBase(s.url);
  who = { ...(await register(s.url, 'erring')), net: '10.78.0.1' };
});
afterAll(async () => s?.stop());

const NO_BLOB = 'f'.repeat(64);
/** Cache keys are 64 hex (a hash of what the result was computed from). */
const KEY = (c: string) => c.repeat(64);
const REST_ROUTE = /\b(GET|POST|PUT|DELETE) \//;
const MCP_WORDS = /\b(call [a-z]+_[a-z_]+|[a-z]+_[a-z_]+ \{)/;
const REG_NEXT = 'next: send {"skill":"id.challenge","input":{"for":"reg"}}, solve it, then send {"skill":"id.register","input":{"pow":"<challenge>:<nonce>"}}';

describe('A2A errors name the messages to send', () => {
  it('1.0 client, no token: the refusal says how to register, in skill messages', async () => {
    const c = await client13(s.url);
    const sent = c.sendMessage(
      SendMessageRequest.fromJSON({
        message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ data: { skill: 'note.create', input: { body: 'x' } } }] },
        configuration: {},
      }),
    );
    const err = (await sent.then(
      () => null,
      (e: unknown) => e,
    )) as Error | null;
    expect(err?.message).toContain(
      'err auth note.create needs a token: send {"skill":"id.challenge","input":{"for":"reg"}}, solve it, send {"skill":"id.register","input":{}}',
    );
    expect(err?.message).not.toMatch(REST_ROUTE);
    expect(err?.message).not.toMatch(MCP_WORDS);
  });

  it('0.3 client, no token: a skill that needs one inside the task (a blob-backed cache read) fails with the register steps', async () => {
    const c = await client03(`${s.url}/.well-known/agent.json`, who.token);
    const blob = await fetch(`${s.url}/v1/b`, { method: 'PUT', headers: { authorization: `Bearer ${who.token}` }, body: Buffer.from('bytes of a blob') });
    const hash = /^ok blob ([0-9a-f]{64}) /.exec(await blob.text())![1]!;
    await c.sendMessage({ message: msg03([data03({ skill: 'cache.put', input: { key: KEY('b'), blob: hash } })]) as never, configuration: { blocking: true } });
    const anon = await client03(`${s.url}/.well-known/agent.json`);
    const r = (await anon.sendMessage({
      message: msg03([data03({ skill: 'cache.get', input: { key: KEY('b') } })]) as never,
      configuration: { blocking: true },
    })) as Json;
    expect(r.result.status.state).toBe('failed');
    const text = r.result.status.message.parts[0].text as string;
    expect(text.split('\n')[0]).toBe('err auth token required to read a blob-backed result');
    expect(text.split('\n')[1]).toMatch(new RegExp(`^${REG_NEXT.replace(/[{}.*()[\]|?+^$]/g, '\\$&')}`));
    expect(text).not.toMatch(REST_ROUTE);
    expect(text).not.toMatch(MCP_WORDS);
  });

  it('0.3 client with a token: a missing blob names the blob.put message', async () => {
    const c = await client03(`${s.url}/.well-known/agent.json`, who.token);
    const r = (await c.sendMessage({
      message: msg03([data03({ skill: 'cache.put', input: { key: KEY('1'), blob: NO_BLOB } })]) as never,
      configuration: { blocking: true },
    })) as Json;
    const task = r.result;
    expect(task.status.state).toBe('failed');
    const text = task.status.message.parts[0].text as string;
    expect(text).toBe(`err notfound no blob ${NO_BLOB}: send {"skill":"blob.put","input":{}} first`);
    expect(text).not.toMatch(MCP_WORDS);
  });
});

describe('MCP errors name tools; REST keeps its route', () => {
  it('MCP without a token, then with one; REST the same errors byte for byte as before', async () => {
    const anon = await mcp(s, null, undefined, 'all');
    try {
      const r = await anon.call('note_create', { body: 'x' });
      expect(r.isError).toBe(true);
      const [line, next] = toolText(r).split('\n');
      expect(line).toBe('err auth token required: call id_challenge {"for":"reg"}, solve it, call id_register');
      expect(next).toBe('next: call id_challenge {"for":"reg"}, solve it, then call id_register {"pow":"<challenge>:<nonce>"}');
    } finally {
      await anon.close();
    }
    const c = await mcp(s, who, undefined, 'all');
    try {
      const r = await c.call('cache_put', { key: KEY('2'), blob: NO_BLOB });
      expect(r.isError).toBe(true);
      expect(toolText(r)).toBe(`err notfound no blob ${NO_BLOB}: call blob_put first`);
    } finally {
      await c.close();
    }
    const rest = await fetch(`${s.url}/v1/c/${KEY('3')}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ blob: NO_BLOB }),
    });
    expect(await rest.text()).toBe(`err notfound no blob ${NO_BLOB}: PUT /v1/b first\n`);
    const anonRest = await fetch(`${s.url}/v1/notes`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(anonRest.status).toBe(401);
    expect(await anonRest.text()).toBe('err auth token required: POST /v1/challenge?for=reg, solve it, POST /v1/register\n');
  });
});
