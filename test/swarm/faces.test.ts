// The swarm operations on every face: REST SSE of topic.follow resumed with Last-Event-ID, MCP tools
// (publish, subscribe, follow with progress notifications), A2A skills (message/send and
// message/stream), OpenAPI routes as the table lists them.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { client03, data03, msg03, serveBase, type Json } from '../a2a/helpers.js';
import { expectRoutes, openapi, skill, skillText } from '../helpers/faces.js';
import { agent, call, type Who } from '../helpers/http.js';
import { mcp, toolText } from '../helpers/mcp.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: Who;
const room = 'FacesRoom_0123456789';
const topic = `r:${room}.live`;

beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  serveBase(s.url);
  alice = await agent(s, 'alice');
});
afterAll(async () => s.stop());

const pub = async (text: string, t = topic) => {
  const r = await call(s, 'POST', `/v1/pub/${t}`, { as: alice, text });
  expect(r.status).toBe(201);
  return Number(/seq=(\d+)/.exec(r.text)![1]);
};

/** An SSE reader over fetch. */
async function sse(path: string, headers: Record<string, string> = {}) {
  const ac = new AbortController();
  const res = await fetch(s.url + path, { headers, signal: ac.signal });
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  async function next(): Promise<{ id: string; data: string }> {
    for (;;) {
      const cut = buf.indexOf('\n\n');
      if (cut >= 0) {
        const lines = buf.slice(0, cut).split('\n');
        buf = buf.slice(cut + 2);
        const id = lines.find((l) => l.startsWith('id: '));
        if (!id) continue;
        return {
          id: id.slice(4),
          data: lines
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n'),
        };
      }
      const r = await reader.read();
      if (r.done) throw new Error('stream ended');
      buf += dec.decode(r.value, { stream: true });
    }
  }
  return { res, next, close: () => ac.abort() };
}

describe('REST', () => {
  it('lists the routes of the issue table', async () => {
    expectRoutes(await openapi(s), [
      ['/v1/pub/{topic}', 'post', 'topic.pub', 'token'],
      ['/v1/topics/{topic}', 'get', 'topic.read', 'anon'],
      ['/v1/topics/{topic}/stream', 'get', 'topic.follow', 'anon'],
      ['/v1/subs', 'post', 'sub.create', 'token'],
      ['/v1/subs', 'get', 'sub.list', 'token'],
      ['/v1/subs/{id}', 'delete', 'sub.cancel', 'token'],
      ['/v1/wq/{name}/claim', 'post', 'wq.claim', 'token'],
      ['/v1/wq/{name}/ack/{item}', 'post', 'wq.ack', 'token'],
      ['/v1/wq/{name}', 'get', 'wq.show', 'token'],
      ['/v1/kv/{ns}/{k}', 'get', 'kv.get', 'token'],
    ]);
  });

  it('GET /v1/topics/{topic}/stream: live lines as SSE; Last-Event-ID resumes with what was missed, in order', async () => {
    const st = await sse(`/v1/topics/${topic}/stream`);
    expect(st.res.status).toBe(200);
    expect(st.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const seq = await pub('first live line');
    const e = await st.next();
    expect(e.id).toBe(String(seq));
    expect(e.data).toMatch(new RegExp(`^line ${topic} seq=${seq} by=${alice.id} hop=0 at=\\S+ missed=0 \\| first live line$`));
    st.close();
    const missed = [await pub('while away 1'), await pub('while away 2')];
    const back = await sse(`/v1/topics/${topic}/stream`, { 'last-event-id': e.id, accept: 'application/json' });
    const a = await back.next();
    const b = await back.next();
    expect([Number(a.id), Number(b.id)]).toEqual(missed);
    expect(JSON.parse(a.data)).toMatchObject({ topic, seq: missed[0], text: 'while away 1', missed: 0 });
    const live = await pub('live again');
    expect(JSON.parse((await back.next()).data)).toMatchObject({ seq: live, text: 'live again' });
    back.close();
  });

  it('a private topic cannot be followed by others; a bad since is 400', async () => {
    expect((await fetch(`${s.url}/v1/topics/~${alice.id}.own/stream`)).status).toBe(404);
    expect((await fetch(`${s.url}/v1/topics/${topic}/stream?since=x`)).status).toBe(400);
  });
});

describe('MCP', () => {
  it('topic_pub, sub_create, kv_get and topic_follow (progress per line) as tools', async () => {
    const c = await mcp(s, alice, undefined, 'all');
    try {
      const t = `r:${room}.mcp`;
      expect(toolText(await c.call('sub_create', { topic: t, sink: 'kv:mcp/last' }))).toMatch(/^ok sub u[0-9a-z]{9} topic=r:/);
      // The next line in the face's own terms: the tool to call.
      expect(toolText(await c.call('topic_pub', { topic: t, text: 'over mcp' }))).toBe(
        `ok ${t} seq=1\nnext: call topic_read ${JSON.stringify({ topic: t, since: 1 })} for the lines after it`,
      );
      await vi.waitFor(
        async () =>
          expect(toolText(await c.call('kv_get', { ns: 'mcp', k: 'last' }))).toMatch(
            /^kv mcp\/last seq=1 .* \| over mcp\nnext: call kv_get \{"ns":"mcp","k":"last"\} again/,
          ),
        { timeout: 10_000 },
      );
      const progress: Array<{ message?: string }> = [];
      const follow = c.client.callTool({ name: 'topic_follow', arguments: { topic: t, since: '1', max: 2, wait: 30 } }, undefined, {
        onprogress: (p) => void progress.push(p),
      });
      await pub('mcp two', t);
      await pub('mcp three', t);
      const r = (await follow) as Json;
      expect(r.structuredContent).toMatchObject({ ended: 'max', last_id: '3' });
      expect(progress.map((p) => p.message)).toEqual([
        expect.stringMatching(/^id=2 line r:\S+ seq=2 .* \| mcp two$/),
        expect.stringMatching(/^id=3 line .* \| mcp three$/),
      ]);
      const bad = await c.call('sub_create', { topic: t, sink: 'mb:me', filter: `re:${'x'.repeat(65)}` });
      expect(bad.isError).toBe(true);
      expect(toolText(bad)).toMatch(/^err bad filter /);
    } finally {
      await c.close();
    }
  });
});

describe('A2A', () => {
  it('skills: topic.pub and topic.read by message/send; topic.follow by message/stream', async () => {
    const t = `r:${room}.a2a`;
    // The next line in A2A's own terms: the message that runs the skill.
    expect(skillText(await skill(s, alice, 'topic.pub', { topic: t, text: 'over a2a' }))).toBe(
      `ok ${t} seq=1\nnext: send ${JSON.stringify({ skill: 'topic.read', input: { topic: t, since: 1 } })} for the lines after it`,
    );
    expect(skillText(await skill(s, null, 'topic.read', { topic: t }))).toContain('| over a2a');
    const a2a = await client03(`${s.url}/.well-known/agent-card.json`);
    const stream = a2a.sendMessageStream({ message: msg03([data03({ skill: 'topic.follow', input: { topic: t, since: '1', max: 2, wait: 30 } })]) as never });
    const events: Json[] = [];
    const reading = (async () => {
      for await (const e of stream) events.push(e as Json);
    })();
    await pub('a2a two', t);
    await pub('a2a three', t);
    await reading;
    const items = events.filter((e) => e.kind === 'artifact-update' && String(e.artifact.artifactId).startsWith('item-'));
    expect(items.map((e) => e.artifact.parts[1].data.item.text)).toEqual(['a2a two', 'a2a three']);
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' }, final: true });
  });
});
