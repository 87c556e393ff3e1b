// Replies name the caller's own face (issue 40): a `next:` line on A2A says which message to send,
// on MCP which tool to call, on REST which route; never another face's. Through the real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skill, skillText } from '../helpers/faces.js';
import { mcp, toolText } from '../helpers/mcp.js';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let who: { id: string; token: string; net: string };
beforeAll(async () => {
  s = await start({ CX_SEED: '0' });
  who = { ...(await register(s.url, 'facer')), net: '10.77.0.1' };
});
afterAll(async () => s?.stop());

const MISS = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'zzqfaceless'\n";
/** An MCP tool call written as text: `kb_brief {` or `call topic_read`. */
const MCP_WORDS = /\b(call [a-z]+_[a-z_]+|[a-z]+_[a-z_]+ \{)/;
const nextLine = (t: string | undefined) => (t ?? '').split('\n').find((l) => l.startsWith('next:'));

describe('A2A', () => {
  it('a KB miss names the skill message, not an MCP tool', async () => {
    const t = skillText(await skill(s, null, 'kb.e', { text: MISS }));
    const next = nextLine(t);
    expect(next).toMatch(/^next: send \{"skill":"kb\.brief","input":\{"q":"ModuleNotFoundError[^"]*"\}\}/);
    expect(t).not.toMatch(MCP_WORDS);
  });
  it('kv, topic and queue replies carry a next line in A2A terms', async () => {
    const topic = `~${who.id}.facing`;
    const pub = skillText(await skill(s, who, 'topic.pub', { topic, text: 'hello' }));
    expect(nextLine(pub)).toBe(`next: send ${JSON.stringify({ skill: 'topic.read', input: { topic, since: 1 } })} for the lines after it`);
    const sub = skillText(await skill(s, who, 'sub.create', { topic, sink: 'kv:face/last' }));
    expect(nextLine(sub)).toMatch(/^next: /);
    expect(sub).not.toMatch(MCP_WORDS);
    await skill(s, who, 'topic.pub', { topic, text: 'second' });
    let kv: string | undefined;
    for (let i = 0; i < 50 && !kv?.startsWith('kv '); i++) {
      kv = skillText(await skill(s, who, 'kv.get', { ns: 'face', k: 'last' }));
      if (!kv?.startsWith('kv ')) await new Promise((r) => setTimeout(r, 100));
    }
    expect(kv).toMatch(/^kv face\/last seq=2 /);
    expect(nextLine(kv)).toBe(
      `next: send {"skill":"kv.get","input":{"ns":"face","k":"last"}} again for the latest value, or send ${JSON.stringify({ skill: 'topic.read', input: { topic, since: 2 } })} for the lines after it`,
    );
  });
});

describe('MCP and REST keep their own words', () => {
  it('MCP: the tool to call; REST: the route', async () => {
    const c = await mcp(s, who, undefined, 'all');
    try {
      const topic = `~${who.id}.mcpface`;
      expect(nextLine(toolText(await c.call('topic_pub', { topic, text: 'x' })))).toBe(
        `next: call topic_read ${JSON.stringify({ topic, since: 1 })} for the lines after it`,
      );
      expect(nextLine(toolText(await c.call('kb_e', { text: MISS })))).toMatch(/^next: call kb_brief \{"q":/);
    } finally {
      await c.close();
    }
    const rest = await fetch(`${s.url}/v1/pub/~${who.id}.restface`, {
      method: 'POST',
      body: 'x',
      headers: { authorization: `Bearer ${who.token}`, 'content-type': 'text/plain' },
    });
    expect(nextLine(await rest.text())).toBe(`next: GET /v1/topics/~${who.id}.restface?since=1 for the lines after it`);
  });
});
