// A compact tools/list (every agent tool, ?toolsets=all, under 8,000 tokens; the default mount too), toolsets and read-only mode on
// the URL or in headers, on both revisions.
import { encode } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start();
});
afterAll(async () => s.stop());

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
async function list(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }),
  });
  return { status: res.status, body: (await res.json()) as any };
}
const names = (r: { body: any }) => (r.body.result.tools as { name: string }[]).map((t) => t.name);

describe('compact tools/list', () => {
  it('every agent tool (?toolsets=all) fits in under 8,000 tokens, and so does the default mount (every toolset but swarm, gov, compute)', async () => {
    const allR = await list('/mcp?toolsets=all');
    const all = names(allR);
    for (const n of ['sub_create', 'topic_pub', 'in_create', 'gov_propose', 'svc_call', 'inj_report', 'kb_search', 'drop_put', 'id_register'])
      expect(all).toContain(n);
    const allTools = allR.body.result.tools;
    expect(allTools.length).toBeGreaterThan(120);
    const allJson = JSON.stringify({ tools: allTools });
    // Operations reached through another (space.manage, badge.get, key.get) are not tools of their own
    // (docs/decisions.md "Private fixes of a space").
    expect(encode(allJson).length).toBeLessThan(8000);
    for (const n of ['space_manage', 'badge_get', 'key_get']) expect(all).toContain(n);
    for (const n of ['space_invite', 'space_purge', 'badge_task', 'key_server']) expect(all).not.toContain(n);
    expect(allJson).not.toContain('9007199254740991');
    const r = await list('/mcp');
    expect(names(r)).not.toContain('sub_create');
    // /help says what the default mount is.
    const help = await (await fetch(`${s.url}/help`)).text();
    expect(help).toContain('mcp toolsets: /mcp mounts every toolset but swarm, gov and compute');
    const tools = r.body.result.tools;
    expect(tools.length).toBeGreaterThan(70);
    expect(encode(JSON.stringify({ tools })).length).toBeLessThan(8000);
    // Output schemas where they help: the fields a client reads for its next call.
    expect(tools.find((t: any) => t.name === 'id_register').outputSchema.properties.token).toBeDefined();
    expect(allTools.filter((t: any) => t.outputSchema).length).toBeLessThan(10);
  });

  it('the compact list keeps what a model needs: short descriptions, required fields, enums, field shapes once per list', async () => {
    const tools = (await list('/mcp?toolsets=all')).body.result.tools as any[];
    const by = new Map(tools.map((t) => [t.name, t]));
    for (const t of tools) {
      expect(t.description.length, t.name).toBeLessThan(90);
      expect(t.description, t.name).not.toMatch(/\((?:REST|REST form)/);
    }
    expect(by.get('kb_search').description).toBe('Full-text search over titles, errors, fixes and tags.');
    expect(by.get('kb_add').description).toMatch(/ Token\.$/);
    expect(by.get('kb_add').inputSchema.required).toEqual(['error', 'fix', 'eco']);
    expect(by.get('kb_add').inputSchema.properties.eco.enum).toContain('pypi');
    // string | string[] as an anyOf: strict validators warn on type arrays (test/newcomer/protocol.test.ts).
    expect(by.get('kb_add').inputSchema.properties.tags).toEqual({ anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] });
    // No patterns, no defaults, no length bounds; a real ceiling stays.
    const json = JSON.stringify(tools);
    expect(json).not.toMatch(/"(pattern|default|minLength|maxLength)":/);
    expect(by.get('kb_search').inputSchema.properties.n.maximum).toBe(50);
    // A field described alike in several tools is described in the first only.
    expect(by.get('drop_put').inputSchema.properties.secret.description).toMatch(/secret path segment/);
    expect(by.get('drop_get').inputSchema.properties.secret.description).toBeUndefined();
    // A tool without arguments is {"type":"object"}.
    expect(by.get('sys_limits').inputSchema).toEqual({ type: 'object' });
  });

  it('advertised schemas are leaner, validation is not: a pattern, a bound or a bad type is still a one-line refusal', async () => {
    const call = async (name: string, args: unknown) =>
      (await (
        await fetch(`${s.url}/mcp?toolsets=all`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': name,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: args, _meta: META } }),
        })
      ).json()) as any;
    for (const [name, args, field] of [
      ['kb_get', { id: 'not-an-id' }, 'id'],
      ['kb_search', { q: 'xyz', n: 51 }, 'n'],
      ['kb_search', { q: 'xyz', n: 'ten' }, 'n'],
      ['kb_search', { q: 'x' }, 'q'],
    ] as const) {
      const r = await call(name, args);
      expect(r.result.isError, name).toBe(true);
      expect(r.result.content[0].text).toMatch(new RegExp(`^err bad ${field}\\b[^\\n]*$`));
    }
    const arr = await call('kb_search', ['q']);
    expect(arr.error.code).toBe(-32602);
    expect(arr.error.message).not.toContain('\n');
  });

  it('tools/list answers from one pre-serialized body per selection, each with its own id', async () => {
    const raw = async (id: unknown, path = '/mcp') =>
      (
        await fetch(`${s.url}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/list',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: META } }),
        })
      ).text();
    const first = await raw(1);
    const again = await Promise.all([raw('abc'), raw(2), raw(1)]);
    expect(JSON.parse(again[0]!).id).toBe('abc');
    expect(JSON.parse(again[1]!).id).toBe(2);
    expect(again[2]).toBe(first);
    const strip = (t: string) => ({ ...JSON.parse(t), id: 0 });
    expect(strip(again[0]!)).toEqual(strip(first));
    expect(JSON.parse(first).result.ttlMs).toBeGreaterThan(0);
    // Another selection has its own body.
    const kb = JSON.parse(await raw(3, '/mcp?toolsets=kb'));
    expect(kb.result.tools.length).toBeLessThan(JSON.parse(first).result.tools.length);
  });

  it('?toolsets=kb,drops mounts those (and id) only; calling another tool is refused', async () => {
    const r = await list('/mcp?toolsets=kb,drops');
    const n = names(r);
    expect(n).toEqual(expect.arrayContaining(['kb_search', 'drop_put', 'dg_get', 'id_register']));
    expect(n.some((x) => x.startsWith('task_') || x.startsWith('note_') || x.startsWith('mail_'))).toBe(false);
    const call = await fetch(`${s.url}/mcp?toolsets=kb`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'task_list',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'task_list', arguments: {}, _meta: META } }),
    });
    const body = (await call.json()) as any;
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toMatch(/not mounted/);
  });

  it('X-MCP-Toolsets and X-MCP-Readonly headers do the same; read-only drops every write tool', async () => {
    const r = await list('/mcp', { 'x-mcp-toolsets': 'notes', 'x-mcp-readonly': '1' });
    const n = names(r);
    expect(n).toEqual(expect.arrayContaining(['note_list', 'note_get', 'id_me']));
    expect(n).not.toContain('note_create');
    expect(n).not.toContain('id_register');
    const ro = await list('/mcp?readonly=1');
    for (const t of ro.body.result.tools) expect(t.annotations.readOnlyHint).toBe(true);
  });

  it('an unknown toolset or a bad readonly value is -32602 with one line', async () => {
    const r = await list('/mcp?toolsets=kb,nope');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(-32602);
    expect(r.body.error.message).toMatch(/^unknown toolset nope; known: id,kb,/);
    expect((await list('/mcp?readonly=maybe')).body.error.code).toBe(-32602);
  });

  it('a 2025-era session mounted with toolsets lists only those', async () => {
    const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(`${s.url}/mcp?toolsets=drops`, {
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
    const r = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { ...h, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    const n = ((await r.json()) as any).result.tools.map((t: any) => t.name);
    expect(n).toContain('drop_get');
    expect(n).not.toContain('kb_search');
  });

  it('the server card documents toolsets and read-only mode', async () => {
    const c = (await (await fetch(`${s.url}/.well-known/mcp.json`)).json()) as any;
    expect(c.toolsets.note).toMatch(/X-MCP-Toolsets/);
    expect(c.toolsets.note).toMatch(/readonly=1/);
    expect(c.toolsets.available.map((t: any) => t.name)).toEqual(expect.arrayContaining(['kb', 'drops', 'notes']));
    expect(c.tools.find((t: any) => t.name === 'sys_limits').title).toBeTruthy();
  });
});
