// tasks.watch, a streaming operation, on every face with no per-op face code: REST text/event-stream
// (resume with Last-Event-ID), MCP progress notifications on the tool call, A2A message/stream events.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client03, data03, msg03, serveBase, type Json } from '../a2a/helpers.js';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { id: string; token: string };
beforeAll(async () => {
  s = await start();
  serveBase(s.url);
  alice = await register(s.url, 'alice');
});
afterAll(async () => s.stop());

const open = async (title: string): Promise<string> => {
  const r = await fetch(`${s.url}/v1/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${alice.token}`, accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ title }),
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as { id: string }).id;
};

interface Sse {
  id: string;
  data: string;
}

/** An SSE reader over fetch: events as they arrive, and the raw comments seen. */
async function sse(path: string, headers: Record<string, string> = {}) {
  const ac = new AbortController();
  const res = await fetch(s.url + path, { headers, signal: ac.signal });
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  const comments: string[] = [];
  async function next(): Promise<Sse> {
    for (;;) {
      const cut = buf.indexOf('\n\n');
      if (cut >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const lines = block.split('\n');
        comments.push(...lines.filter((l) => l.startsWith(':')));
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
  return { res, next, comments, close: () => ac.abort() };
}

describe('REST: GET /v1/tasks/stream', () => {
  let lastId = '';
  it('streams a task opened over REST as an event with an id', async () => {
    const st = await sse('/v1/tasks/stream');
    expect(st.res.status).toBe(200);
    expect(st.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const id = await open('Watch me appear');
    const e = await st.next();
    expect(e.id).toMatch(/^\d+$/);
    expect(e.data).toMatch(new RegExp(`^task ${id} open n=\\d+ claimant=- tags=- at=\\S+ untrusted: Watch me appear$`));
    expect(st.comments[0]).toBe(': tasks.watch');
    lastId = e.id;
    st.close();
  });

  it('reconnecting with Last-Event-ID gets what was missed while away, in order, then live ones', async () => {
    const missed = [await open('Missed one'), await open('Missed two')];
    const st = await sse('/v1/tasks/stream', { 'last-event-id': lastId, accept: 'application/json' });
    const a = await st.next();
    const b = await st.next();
    expect([JSON.parse(a.data).id, JSON.parse(b.data).id]).toEqual(missed);
    expect(Number(a.id)).toBe(Number(lastId) + 1);
    expect(Number(b.id)).toBe(Number(lastId) + 2);
    const live = await open('Live again');
    expect(JSON.parse((await st.next()).data)).toMatchObject({ id: live, state: 'open', title: 'Live again', claimant: null });
    st.close();
    // ?last_event_id works the same (for clients that cannot set the header).
    const q = await sse(`/v1/tasks/stream?last_event_id=${b.id}`);
    expect((await q.next()).data).toContain(`task ${live} open`);
    q.close();
  });

  it('a client that goes away ends the op: its bus subscription is closed (nothing leaks)', async () => {
    const bus = s.core.store.events;
    const subscribe = bus.subscribe.bind(bus);
    const ended: boolean[] = [];
    bus.subscribe = (sel, opts) => {
      const i = ended.push(false) - 1;
      opts?.signal?.addEventListener('abort', () => (ended[i] = true), { once: true });
      return subscribe(sel, opts);
    };
    try {
      const st = await sse('/v1/tasks/stream');
      expect(ended).toEqual([false]);
      st.close();
      for (let i = 0; i < 100 && !ended[0]; i++) await new Promise((r) => setTimeout(r, 10));
      expect(ended).toEqual([true]);
    } finally {
      bus.subscribe = subscribe;
    }
  });

  it('a bad resume id is 400 err bad before any stream', async () => {
    const r = await fetch(`${s.url}/v1/tasks/stream?since=abc`);
    expect(r.status).toBe(400);
    expect(await r.text()).toMatch(/^err bad since: /);
  });
});

/** The newest event id of the tasks topic, read through the stream itself (resume from 0). */
async function head(): Promise<string> {
  const st = await sse('/v1/tasks/stream?since=0&f=json');
  let last = '0';
  // Everything so far is replayed at once; a quiet moment after it means we are at the head.
  for (;;) {
    const e = await Promise.race([st.next(), new Promise<null>((r) => setTimeout(() => r(null), 300))]);
    if (!e) break;
    last = e.id;
  }
  st.close();
  return last;
}

describe('MCP: the tasks_watch tool', () => {
  it('sends each change as a progress notification on the call, then ends with what it collected', async () => {
    const since = await head();
    const client = new Client({ name: 'watcher', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('tasks_watch');
      const progress: Array<{ progress: number; message?: string }> = [];
      const call = client.callTool({ name: 'tasks_watch', arguments: { since, max: 2, wait: 30 } }, undefined, { onprogress: (p) => void progress.push(p) });
      const ids = [await open('Seen over MCP one'), await open('Seen over MCP two')];
      const r = (await call) as Json;
      expect(r.isError).toBeFalsy();
      expect(progress.map((p) => p.progress)).toEqual([1, 2]);
      expect(progress[0]!.message).toMatch(new RegExp(`^id=${Number(since) + 1} task ${ids[0]} open `));
      expect(progress[1]!.message).toContain(`task ${ids[1]} open`);
      expect(r.structuredContent).toMatchObject({ ended: 'max', last_id: String(Number(since) + 2) });
      expect(r.structuredContent.items.map((i: Json) => i.item.id)).toEqual(ids);
      expect(r.content[0].text).toMatch(/^stream tasks\.watch items=2 last_id=\d+ ended=max\n/);
    } finally {
      await client.close();
    }
  });

  it('a call with nothing new ends after wait seconds', async () => {
    const client = new Client({ name: 'watcher', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
    try {
      const r = (await client.callTool({ name: 'tasks_watch', arguments: { wait: 1 } })) as Json;
      expect(r.structuredContent).toEqual({ items: [], last_id: null, ended: 'wait' });
    } finally {
      await client.close();
    }
  });
});

describe('A2A: the tasks.watch skill', () => {
  it('message/stream sends each change as an artifact event and completes within max', async () => {
    const since = await head();
    const a2a = await client03(`${s.url}/.well-known/agent-card.json`);
    const stream = a2a.sendMessageStream({ message: msg03([data03({ skill: 'tasks.watch', input: { since, max: 2, wait: 30 } })]) as never });
    const events: Json[] = [];
    const reading = (async () => {
      for await (const e of stream) events.push(e as Json);
    })();
    const ids = [await open('Seen over A2A one'), await open('Seen over A2A two')];
    await reading;
    const items = events.filter((e) => e.kind === 'artifact-update' && String(e.artifact.artifactId).startsWith('item-'));
    expect(items.map((e) => e.artifact.parts[1].data.item.id)).toEqual(ids);
    expect(items[0].artifact.parts[0].text).toMatch(new RegExp(`^task ${ids[0]} open `));
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' }, final: true });
  });

  it('message/send returns the collected items', async () => {
    const since = await head();
    const id = await open('Seen by message/send');
    const a2a = await client03(`${s.url}/.well-known/agent-card.json`);
    const r = (await a2a.sendMessage({
      message: msg03([data03({ skill: 'tasks.watch', input: { since, max: 1, wait: 10 } })]) as never,
      configuration: { blocking: true },
    })) as Json;
    const task = r.result;
    expect(task.status.state).toBe('completed');
    const result = task.artifacts.find((a: Json) => a.artifactId === 'result');
    expect(result.parts[1].data).toMatchObject({ ended: 'max', items: [{ item: { id } }] });
  });
});
