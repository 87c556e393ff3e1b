import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solve } from '../../src/core/platform/identity/pow.js';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '1' }); // the sample KB
});
afterAll(async () => s.stop());

let netN = 0;
/** Each client comes from its own /24 so registration quotas don't interfere between tests. */
const fetchFromNet = (): typeof fetch => {
  const xff = `10.2.${++netN}.1`;
  return (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), 'x-forwarded-for': xff } });
};

async function connect(path = '/mcp', headers: Record<string, string> = {}) {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${s.url}${path}`), { requestInit: { headers }, fetch: fetchFromNet() });
  await client.connect(transport);
  return { client, transport };
}

type ToolText = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };
const text = (r: unknown) => (r as ToolText).content[0]!.text;

describe('MCP over Streamable HTTP (session)', () => {
  it('initializes and lists tools generated from the registry, with schemas and annotations', async () => {
    const { client, transport } = await connect();
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()?.name).toBe('agent-commons');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['id_challenge', 'id_register', 'id_me', 'id_url_token', 'sys_health', 'sys_limits']));
    expect(names).not.toContain('admin_stats');
    // Compact list (issue 15): hints only where they differ from the spec's defaults, output schemas
    // only where a client reads the result's fields, no top-level title.
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.description).toBeTruthy();
      expect(t.annotations).toBeDefined();
    }
    expect(tools.find((t) => t.name === 'sys_limits')!.annotations).toEqual({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'id_register')!.annotations!.readOnlyHint).toBeUndefined();
    expect(tools.find((t) => t.name === 'note_delete')!.annotations!.destructiveHint).toBeUndefined();
    expect(tools.find((t) => t.name === 'id_challenge')!.outputSchema?.type).toBe('object');
    await transport.terminateSession();
    await client.close();
  });

  it('calls a read tool anonymously: text content plus structuredContent', async () => {
    const { client } = await connect();
    const r = (await client.callTool({ name: 'sys_limits', arguments: {} })) as ToolText;
    expect(r.isError).toBeFalsy();
    expect(text(r)).toMatch(/^limits pow_reg_bits=8 /);
    expect((r.structuredContent as { pow: { reg_bits: number } }).pow.reg_bits).toBe(8);
    await client.close();
  });

  it('a write tool without a token answers err auth with how to register; registration works as tools', async () => {
    const { client } = await connect();
    const denied = (await client.callTool({ name: 'id_url_token', arguments: {} })) as ToolText;
    expect(denied.isError).toBe(true);
    expect(text(denied)).toMatch(/^err auth token required.*\nnext: call id_challenge/s);
    const ch = (await client.callTool({ name: 'id_challenge', arguments: { for: 'reg' } })) as ToolText;
    const { challenge, bits } = ch.structuredContent as { challenge: string; bits: number };
    const reg = (await client.callTool({ name: 'id_register', arguments: { pow: solve(challenge, bits), name: 'mcp-agent' } })) as ToolText;
    expect(reg.isError).toBeFalsy();
    expect(text(reg)).toMatch(/^ok a[0-9a-z]{6} token=cx_\S+ lvl=L0/);
    // The session now acts as the new identity.
    const me = (await client.callTool({ name: 'id_me', arguments: {} })) as ToolText;
    expect(text(me)).toMatch(/^me a[0-9a-z]{6} name=mcp-agent lvl=L0/);
    const url = (await client.callTool({ name: 'id_url_token', arguments: {} })) as ToolText;
    expect(url.isError).toBeFalsy();
    await client.close();
  });

  it('bad tool input is an isError result with err bad', async () => {
    const { client } = await connect();
    const r = (await client.callTool({ name: 'id_challenge', arguments: { for: 'nope' } })) as ToolText;
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^err bad for: /);
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/unknown tool/);
    await client.close();
  });

  it('a bearer token in the header authenticates the session', async () => {
    const { token, id } = await register(s.url, undefined, { 'x-forwarded-for': '10.3.0.1' });
    const { client } = await connect('/mcp', { authorization: `Bearer ${token}` });
    const me = (await client.callTool({ name: 'id_me', arguments: {} })) as ToolText;
    expect(text(me)).toMatch(new RegExp(`^me ${id} `));
    await client.close();
  });

  it('url-class tokens work in the path; unknown ones are refused', async () => {
    const { token, id } = await register(s.url, undefined, { 'x-forwarded-for': '10.3.0.2' });
    const res = await fetch(`${s.url}/v1/token/url`, { method: 'POST', headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    const { token: urlToken } = (await res.json()) as { token: string };
    const { client } = await connect(`/mcp/t/${urlToken}`);
    const me = (await client.callTool({ name: 'id_me', arguments: {} })) as ToolText;
    expect(text(me)).toMatch(new RegExp(`^me ${id} .* token=url`));
    await client.close();
    const bad = new Client({ name: 't', version: '1' });
    await expect(bad.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp/t/cxu_nope`)))).rejects.toThrow();
  });

  it('an ended or unknown session gets 404 so clients re-initialize', async () => {
    const { client, transport } = await connect();
    const sid = transport.sessionId!;
    await transport.terminateSession();
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sid,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32001);
    await client.close();
  });

  it('answers concurrent raw POSTs in one session each with its own result; bad headers answer as the SDK does', async () => {
    const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
    const init = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: H,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    const sid = init.headers.get('mcp-session-id')!;
    await init.text();
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${s.url}/mcp`, { method: 'POST', headers: { ...H, 'mcp-session-id': sid, ...headers }, body: JSON.stringify(body) });
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    // 40 calls at once, two different tools, string and number ids: each answer carries its own id.
    const calls = Array.from({ length: 40 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i % 2 ? i : `s${i}`,
      method: 'tools/call',
      params: { name: i % 2 ? 'sys_health' : 'sys_limits', arguments: {} },
    }));
    const answers = await Promise.all(
      calls.map(async (c) => {
        const r = await post(c);
        expect(r.status).toBe(200);
        expect(r.headers.get('mcp-session-id')).toBe(sid);
        return (await r.json()) as { id: unknown; result: ToolText };
      }),
    );
    answers.forEach((a, i) => {
      expect(a.id).toBe(calls[i]!.id);
      expect(a.result.content[0]!.text).toMatch(i % 2 ? /^ok version=/ : /^limits /);
    });
    // An unknown tool is a JSON-RPC error on this path too; an unsupported protocol version and a
    // missing Accept type are refused as the SDK transport refuses them.
    const unknown = (await (await post({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'nope', arguments: {} } })).json()) as {
      error: { code: number };
    };
    expect(unknown.error.code).toBe(-32602);
    expect((await post({ jsonrpc: '2.0', id: 100, method: 'ping' }, { 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
    expect((await post({ jsonrpc: '2.0', id: 101, method: 'ping' }, { accept: 'application/json' })).status).toBe(406);
    // A batch still goes through the SDK transport and gets an array back.
    const batch = (await (
      await post([
        { jsonrpc: '2.0', id: 102, method: 'ping' },
        { jsonrpc: '2.0', id: 103, method: 'tools/list' },
      ])
    ).json()) as { id: number }[];
    expect(batch.map((b) => b.id).sort()).toEqual([102, 103]);
    await fetch(`${s.url}/mcp`, { method: 'DELETE', headers: { ...H, 'mcp-session-id': sid } });
    expect((await post({ jsonrpc: '2.0', id: 104, method: 'ping' })).status).toBe(404);
  });

  it('malformed JSON gets a JSON-RPC parse error', async () => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('refuses a foreign Host or Origin (DNS rebinding)', async () => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: 'http://evil.example' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
    expect(res.status).toBe(403);
  });
});

describe('MCP stateless', () => {
  it('answers a client that sends no session (tools/list and tools/call)', async () => {
    const post = (body: object) =>
      fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify(body),
      });
    const list = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(list.status).toBe(200);
    expect(list.headers.get('mcp-session-id')).toBeNull();
    const tools = ((await list.json()) as { result: { tools: { name: string }[] } }).result.tools;
    expect(tools.some((t) => t.name === 'sys_health')).toBe(true);
    const call = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'sys_health', arguments: {} } });
    const r = ((await call.json()) as { result: ToolText }).result;
    expect(r.content[0]!.text).toMatch(/^ok version=1\.0\.0/);
  });
});

describe('MCP resources, prompts, logging, completions', () => {
  it('lists and reads guides and the error-code template', async () => {
    const { client } = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['cx://guide/llms.txt', 'cx://guide/AGENTS.md']));
    const llms = await client.readResource({ uri: 'cx://guide/llms.txt' });
    expect((llms.contents[0] as { text: string }).text).toMatch(/^# Agent Commons/);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['cx://k/{id}', 'cx://help/err/{code}']);
    // KB entries read through the same operation as GET /k/{id}; the next line names tools, not routes.
    const kid = /k\/(k[0-9a-z]{8})/.exec(await (await fetch(`${s.url}/eco/pypi`)).text())![1]!;
    const entry = (await client.readResource({ uri: `cx://k/${kid}` })).contents[0] as { text: string };
    const facts = (t: string) => t.split('\n').filter((l) => !l.startsWith('next: '));
    expect(facts(entry.text)).toEqual(facts(await (await fetch(`${s.url}/k/${kid}`)).text().then((t) => t.trimEnd())));
    expect(entry.text.split('\n').at(-1)).toBe(
      `next: call kb_confirm {"id":"${kid}"} if the fix worked, call kb_fail {"id":"${kid}"} if not, or call kb_outcome {"id":"${kid}"} with kind (worked, worked-with-changes, did-not-work) and a note; call kb_sig {"msg":"<error>"} for more`,
    );
    await expect(client.readResource({ uri: 'cx://k/kzzzzzzzz' })).rejects.toThrow(/not found/);
    const q = await client.readResource({ uri: 'cx://help/err/quota' });
    expect((q.contents[0] as { text: string }).text).toMatch(/^err quota\nstatus: 429/);
    await expect(client.readResource({ uri: 'cx://help/err/zzz' })).rejects.toThrow(/not found/);
    const done = await client.complete({ ref: { type: 'ref/resource', uri: 'cx://help/err/{code}' }, argument: { name: 'code', value: 'qu' } });
    expect(done.completion.values).toEqual(['quota']);
    await client.close();
  });

  it('serves prompts with argument completion', async () => {
    const { client } = await connect();
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['error_to_fix', 'get_identity']));
    const p = await client.getPrompt({ name: 'error_to_fix', arguments: { error: "ModuleNotFoundError: No module named 'requests'", lang: 'python' } });
    expect((p.messages[0]!.content as { text: string }).text).toContain("No module named 'requests'");
    const c = await client.complete({ ref: { type: 'ref/prompt', name: 'error_to_fix' }, argument: { name: 'lang', value: 'py' } });
    expect(c.completion.values).toEqual(['python']);
    await client.close();
  });

  it('sends log notifications only after logging/setLevel, at or above the level', async () => {
    const { client } = await connect();
    const logs: { level: string }[] = [];
    const { LoggingMessageNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params as { level: string });
    });
    await client.callTool({ name: 'sys_health', arguments: {} });
    await new Promise((r) => setTimeout(r, 100));
    expect(logs).toEqual([]);
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'sys_health', arguments: {} }); // debug: filtered
    await client.callTool({ name: 'id_challenge', arguments: { for: 'bad' } }); // failure: info
    await new Promise((r) => setTimeout(r, 100));
    expect(logs.map((l) => l.level)).toEqual(['info']);
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'sys_health', arguments: {} });
    await new Promise((r) => setTimeout(r, 100));
    expect(logs).toEqual(expect.arrayContaining([expect.objectContaining({ level: 'debug', logger: 'commons' })]));
    await client.close();
  });
});

describe('legacy HTTP+SSE', () => {
  it('GET /sse opens with an endpoint event; the client lists and calls tools over it', async () => {
    const client = new Client({ name: 'sse-test', version: '1.0.0' });
    const transport = new SSEClientTransport(new URL(`${s.url}/sse`), { fetch: fetchFromNet() } as never);
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(3);
    const r = (await client.callTool({ name: 'sys_health', arguments: {} })) as ToolText;
    expect(text(r)).toMatch(/^ok /);
    await client.close();
  });

  it('POST /messages answers inline and on the stream; 403 for a bad or missing s', async () => {
    const ac = new AbortController();
    const res = await fetch(`${s.url}/sse`, { headers: { accept: 'text/event-stream' }, signal: ac.signal });
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    while (!buf.includes('\n\n')) buf += dec.decode((await reader.read()).value);
    const m = /^event: endpoint\ndata: (\/messages\?s=[0-9a-f-]+)\n\n/.exec(buf);
    expect(m).not.toBeNull();
    const endpoint = m![1]!;
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const r = await fetch(`${s.url}${endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(init) });
    expect(r.status).toBe(200);
    const inline = (await r.json()) as { id: number; result: { serverInfo: { name: string } } };
    expect(inline.result.serverInfo.name).toBe('agent-commons');
    while (!buf.includes('event: message')) buf += dec.decode((await reader.read()).value);
    expect(buf).toMatch(/event: message\ndata: \{"result":\{.*"serverInfo"/s);
    ac.abort();
    for (const q of ['/messages', '/messages?s=nope']) {
      const bad = await fetch(`${s.url}${q}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(init) });
      expect(bad.status).toBe(403);
    }
  });
});

describe('resumability', () => {
  it('replays events missed on the GET stream after Last-Event-ID, scoped to the session', async () => {
    const { createParser } = await import('eventsource-parser');
    const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
    const init = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    const sid = init.headers.get('mcp-session-id')!;
    await init.text();
    const hs = { ...h, 'mcp-session-id': sid };
    await fetch(`${s.url}/mcp`, { method: 'POST', headers: hs, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    // Tool-call logs go to sessions that asked for them; they are the events replayed below.
    await (
      await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: hs,
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'logging/setLevel', params: { level: 'debug' } }),
      })
    ).text();
    const call = async (id: number) =>
      (
        await fetch(`${s.url}/mcp`, {
          method: 'POST',
          headers: hs,
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'sys_health', arguments: {} } }),
        })
      ).text();

    /** Opens the GET stream and collects events until `n` arrived. */
    const listen = async (n: number, lastEventId?: string) => {
      const ac = new AbortController();
      const res = await fetch(`${s.url}/mcp`, {
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': sid,
          'mcp-protocol-version': '2025-06-18',
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
        signal: ac.signal,
      });
      expect(res.status).toBe(200);
      const events: { id?: string; data: string }[] = [];
      const parser = createParser({ onEvent: (e) => events.push({ id: e.id, data: e.data }) });
      const reader = res.body!.getReader();
      const dec = new TextDecoder();
      return {
        events,
        async until() {
          while (events.length < n) parser.feed(dec.decode((await reader.read()).value));
          ac.abort();
        },
      };
    };

    const first = await listen(1);
    await new Promise((r) => setTimeout(r, 50));
    await call(2);
    await first.until();
    const firstId = first.events[0]!.id!;
    expect(JSON.parse(first.events[0]!.data).method).toBe('notifications/message');
    await new Promise((r) => setTimeout(r, 50));
    await call(3); // while no stream is open: stored for replay
    await call(4);
    const again = await listen(2, firstId);
    await again.until();
    expect(again.events.map((e) => JSON.parse(e.data).method)).toEqual(['notifications/message', 'notifications/message']);
    expect(again.events.every((e) => e.id !== firstId)).toBe(true);
    // Another session cannot replay this session's events.
    const other = await fetch(`${s.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': 'not-a-session', 'last-event-id': firstId } });
    expect(other.status).toBe(404);
  });
});
