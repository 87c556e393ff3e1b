// MCP revision 2026-07-28 (stateless) on /mcp and /mcp/t/{token}, beside the 2025-era sessions:
// the revision is chosen per request, answers never cross between callers, and identity comes from
// the bearer or URL token of each request.
import { Client as Client2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solve } from '../../src/core/platform/identity/pow.js';
import { countTokenLookups, register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
});
afterAll(async () => s.stop());

let netN = 0;
const newNet = () => `10.77.${++netN}.1`;
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One raw 2026-07-28 request: no initialize, no session; the envelope in _meta and the standard headers. */
async function rpc(
  path: string,
  method: string,
  params: Record<string, unknown> = {},
  opts: { id?: number | string; headers?: Record<string, string>; name?: string } = {},
) {
  const res = await fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(opts.name ? { 'mcp-name': opts.name } : {}),
      'x-forwarded-for': '10.77.0.1',
      ...opts.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: opts.id ?? 1, method, params: { ...params, _meta: { ...META, ...((params._meta as object) ?? {}) } } }),
  });
  const body = (await res.json()) as any;
  if (process.env.DBG) console.log(JSON.stringify(body).slice(0, 300));
  return { status: res.status, session: res.headers.get('mcp-session-id'), body };
}
const call = (path: string, name: string, args: unknown, opts: { id?: number | string; headers?: Record<string, string> } = {}) =>
  rpc(path, 'tools/call', { name, arguments: args }, { ...opts, name });

describe('MCP 2026-07-28', () => {
  it('server/discover names the revision; no initialize, no session id', async () => {
    const r = await rpc('/mcp', 'server/discover');
    expect(r.status).toBe(200);
    expect(r.session).toBeNull();
    expect(r.body.result.supportedVersions).toContain('2026-07-28');
    expect(r.body.result.capabilities.tools).toBeDefined();
    const t = await call('/mcp', 'sys_limits', {});
    expect(t.body.result.content[0].text).toMatch(/^limits pow_reg_bits=8 /);
    expect(t.session).toBeNull();
  });

  it('list results carry cache hints', async () => {
    const r = await rpc('/mcp', 'tools/list');
    expect(r.body.result.tools.length).toBeGreaterThan(10);
    expect(r.body.result.ttlMs).toBeGreaterThan(0);
    expect(r.body.result.cacheScope).toBe('public');
  });

  it('interleaved requests from two callers with the same JSON-RPC ids each get their own answer', async () => {
    const a = await register(s.url, 'alice', { 'x-forwarded-for': newNet() });
    const b = await register(s.url, 'bob', { 'x-forwarded-for': newNet() });
    const asA = { authorization: `Bearer ${a.token}` };
    // B comes through the URL-token path.
    const bUrl = (await call('/mcp', 'id_url_token', {}, { headers: { authorization: `Bearer ${b.token}` } })).body.result.structuredContent.token;
    const jobs: Promise<{ who: string; text: string; id: unknown }>[] = [];
    for (let i = 0; i < 20; i++) {
      // Same id for both callers, alternating, all in flight at once.
      jobs.push(call('/mcp', 'id_me', {}, { id: i, headers: asA }).then((r) => ({ who: a.id, text: r.body.result.content[0].text, id: r.body.id })));
      jobs.push(call(`/mcp/t/${bUrl}`, 'id_me', {}, { id: i }).then((r) => ({ who: b.id, text: r.body.result.content[0].text, id: r.body.id })));
    }
    const answers = await Promise.all(jobs);
    answers.forEach((x, k) => {
      expect(x.text).toMatch(new RegExp(`^me ${x.who} `));
      expect(x.id).toBe(k >> 1);
    });
  });

  it('a 2025-era session and 2026-07-28 requests on the same URL at once: each is served at its own revision', async () => {
    const client = new Client({ name: 'old', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`));
    await client.connect(transport);
    expect(transport.sessionId).toBeTruthy();
    const [old, modern] = await Promise.all([client.callTool({ name: 'sys_health', arguments: {} }), call('/mcp', 'sys_health', {})]);
    expect((old as any).content[0].text).toMatch(/^ok /);
    expect(modern.body.result.content[0].text).toMatch(/^ok /);
    expect(modern.body.result.resultType).toBe('complete');
    await transport.terminateSession();
    await client.close();
  });

  it('a token is looked up once per 2026-07-28 call (the transport resolves it, the guards reuse that), and again on the next call', async () => {
    const a = await register(s.url, 'once', { 'x-forwarded-for': newNet() });
    const lookups = countTokenLookups(s);
    try {
      for (let i = 1; i <= 3; i++) {
        const me = await call('/mcp', 'id_me', {}, { headers: { authorization: `Bearer ${a.token}` } });
        expect(me.body.result.content[0].text).toMatch(new RegExp(`^me ${a.id} `));
        expect(lookups.count()).toBe(i);
      }
      // An unknown token is still refused before the call, with one lookup.
      const bad = await call('/mcp', 'id_me', {}, { headers: { authorization: `Bearer cx_${'z'.repeat(40)}` } });
      expect(bad.status).toBe(401);
      expect(lookups.count()).toBe(4);
    } finally {
      lookups.restore();
    }
  });

  it('id_register inside MCP: the token it returns is the identity of later calls (bearer or URL), no session', async () => {
    const net = { 'x-forwarded-for': newNet() };
    const ch = await call('/mcp', 'id_challenge', { for: 'reg' }, { headers: net });
    const { challenge, bits } = ch.body.result.structuredContent;
    const reg = await call('/mcp', 'id_register', { pow: solve(challenge, bits), name: 'stateless' }, { headers: net });
    const { token, id } = reg.body.result.structuredContent;
    expect(token).toMatch(/^cx_/);
    // Anonymous again without the token: nothing was kept between requests.
    const anon = await call('/mcp', 'id_me', {}, { headers: net });
    expect(anon.body.result.isError).toBe(true);
    const me = await call('/mcp', 'id_me', {}, { headers: { ...net, authorization: `Bearer ${token}` } });
    expect(me.body.result.content[0].text).toMatch(new RegExp(`^me ${id} name=stateless`));
    const url = (await call('/mcp', 'id_url_token', {}, { headers: { ...net, authorization: `Bearer ${token}` } })).body.result.structuredContent.token;
    const viaUrl = await call(`/mcp/t/${url}`, 'id_me', {}, { headers: net });
    expect(viaUrl.body.result.content[0].text).toMatch(new RegExp(`^me ${id} `));
  });

  it('a plain tools/call (served without the SDK per-request objects) answers exactly as the SDK path does', async () => {
    const plain = await call('/mcp', 'sys_limits', {}, { id: 'p1' });
    // A progressToken makes the same call take the SDK path.
    const sdk = await rpc('/mcp', 'tools/call', { name: 'sys_limits', arguments: {}, _meta: { progressToken: 'x' } }, { id: 'p1', name: 'sys_limits' });
    expect(plain.body).toEqual(sdk.body);
    expect(plain.body.result.resultType).toBe('complete');
    expect(plain.body.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('agent-commons');
    // Errors of the op are tool results on both paths.
    const denied = await call('/mcp', 'id_url_token', {});
    expect(denied.body.result.isError).toBe(true);
    expect(denied.body.result.content[0].text).toMatch(/^err auth /);
  });

  it('an unknown token is refused with 401 before anything runs', async () => {
    const r = await call('/mcp/t/cx_nope', 'sys_health', {});
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe(-32001);
  });

  it('a header that names 2026-07-28 without the envelope, or a mismatched Mcp-Method, is refused by the ladder', async () => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe(-32602);
    const mism = await rpc('/mcp', 'tools/list', {}, { headers: { 'mcp-method': 'prompts/list' } });
    expect(mism.status).toBe(400);
  });

  it('the SDK 2.x client negotiates 2026-07-28 and lists and calls tools; the 1.x client still gets a session', async () => {
    const c2 = new Client2({ name: 'sdk2', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await c2.connect(new Transport2(new URL(`${s.url}/mcp`)));
    expect(c2.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await c2.listTools();
    expect(tools.map((t) => t.name)).toContain('kb_search');
    const r = (await c2.callTool({ name: 'sys_limits', arguments: {} })) as any;
    expect(r.content[0].text).toMatch(/^limits /);
    await c2.close();
    const c1 = new Client({ name: 'sdk1', version: '1' });
    const t1 = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`));
    await c1.connect(t1);
    expect(t1.sessionId).toBeTruthy();
    expect((await c1.listTools()).tools.map((t) => t.name)).toContain('kb_search');
    expect(((await c1.callTool({ name: 'sys_limits', arguments: {} })) as any).content[0].text).toMatch(/^limits /);
    await c1.close();
  });
});
