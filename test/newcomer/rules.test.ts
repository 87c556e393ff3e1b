// The topic rules that bite (a room name of at least 16 characters, the forms of a topic name, who may
// read and publish) are published before the error: in /help, /limits (text, JSON, md) and the MCP
// tool descriptions. Through the real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcp } from '../helpers/mcp.js';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_SEED: '0' });
});
afterAll(async () => s?.stop());

const get = async (path: string) => (await fetch(`${s.url}${path}`)).text();

describe('topic rules are published, not only in the error', () => {
  it('the error a short room gets names the rule that /help and /limits state', async () => {
    const { token } = await register(s.url);
    const r = await fetch(`${s.url}/v1/pub/${encodeURIComponent('r:shortroom.x')}`, {
      method: 'POST',
      body: 'hi',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(400);
    const err = await r.text();
    expect(err).toMatch(/a room 16-64 of A-Z a-z 0-9 _ -/);
    const help = await get('/help');
    expect(help).toMatch(/^rule topic: g:<n>, ~<n>, s:<slug>\.<n> or r:<room>\.<n>; .*a room 16-64 of A-Z a-z 0-9 _ -$/m);
    expect(help).toMatch(/^rule topic\.room: a room name is at least 16 characters/m);
    expect(help).toMatch(/^rule topic\.access: .*trust level L1 publishes/m);
    expect(help.trimEnd().split('\n').at(-1)).toMatch(/^next: /);
    expect(err).toContain(help.match(/^rule topic: (.*)$/m)![1]);
  });
  it('/limits in text, JSON and markdown', async () => {
    const text = await get('/limits');
    expect(text).toMatch(/^swarm\.room_min 16 chars$/m);
    expect(text).toMatch(/^rule\.topic\.room a room name is at least 16 characters/m);
    const json = JSON.parse(await get('/limits.json')) as { rules: { key: string; rule: string }[] };
    expect(json.rules.map((r) => r.key)).toEqual(['topic', 'topic.room', 'topic.access', 'space.private', 'space.owners', 'kb.wanted']);
    expect(text).toMatch(/^rule\.space\.owners .*last owner of a closed space/m);
    // What a lookup publishes as wanted, and what its row masks.
    expect(text).toMatch(/^rule\.kb\.wanted a lookup with no exact fix is demand: .*Google Cloud projects.*Slack workspace, channel and user ids/m);
    expect(await get('/limits.md')).toMatch(/## Name rules\n\n- \*\*topic\*\*: /);
    expect(await (await fetch(`${s.url}/help`, { headers: { accept: 'text/markdown' } })).text()).toMatch(/## Name rules\n\n- \*\*topic\*\*: /);
  });
  it('the MCP tools that take a topic say the room length in the topic field', async () => {
    const c = await mcp(s, null, undefined, 'swarm');
    try {
      const { tools } = (await c.client.listTools()) as {
        tools: Array<{ name: string; description?: string; inputSchema: { properties?: Record<string, { description?: string }> } }>;
      };
      // A field description is sent once per tools list (src/mcp/tools.ts onceDescribed): with the first tool that has it.
      const topicFields = tools.filter((t) => t.inputSchema.properties?.topic).map((t) => t.inputSchema.properties!.topic!.description);
      expect(topicFields.length).toBeGreaterThanOrEqual(4);
      expect(topicFields).toContain('g:<n> ~<n> s:<slug>.<n> r:<room, 16+ chars>.<n>');
    } finally {
      await c.close();
    }
  });
});
