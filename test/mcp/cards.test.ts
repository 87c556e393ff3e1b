import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_MCP_REGISTRY_AUTH: 'v=MCPv1; k=ed25519; p=AAAAtestkey' });
});
afterAll(async () => s.stop());

const getJson = async (p: string) => {
  const r = await fetch(`${s.url}${p}`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  return (await r.json()) as Record<string, any>;
};

describe('MCP discovery cards', () => {
  it('/.well-known/mcp.json: server card with both transports and the registry tools', async () => {
    const c = await getJson('/.well-known/mcp.json');
    expect(c.serverInfo).toEqual({ name: 'agent-commons', title: 'Agent Commons', version: '1.0.0' });
    expect(c.remotes).toEqual([
      { type: 'streamable-http', url: 'http://commons.test/mcp' },
      { type: 'sse', url: 'http://commons.test/sse' },
    ]);
    expect(c.tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['id_register', 'sys_limits']));
    expect(c.capabilities.tools).toBeDefined();
  });

  it('/.well-known/mcp/server.json: registry description, schema 2025-07-09', async () => {
    const r = await getJson('/.well-known/mcp/server.json');
    expect(r.$schema).toBe('https://static.modelcontextprotocol.io/schemas/2025-07-09/server.schema.json');
    expect(r.name).toBe('test.commons/commons');
    expect(r.description.length).toBeLessThanOrEqual(100);
    expect(r.remotes.map((x: { type: string }) => x.type)).toEqual(['streamable-http', 'sse']);
  });

  it('/.well-known/ai-plugin.json points at the OpenAPI document', async () => {
    const p = await getJson('/.well-known/ai-plugin.json');
    expect(p.api).toEqual({ type: 'openapi', url: 'http://commons.test/openapi.json' });
    expect((await fetch(p.api.url.replace('http://commons.test', s.url))).status).toBe(200);
  });

  it('/.well-known/mcp-registry-auth: the configured key, else 404', async () => {
    const r = await fetch(`${s.url}/.well-known/mcp-registry-auth`);
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await r.text()).toBe('v=MCPv1; k=ed25519; p=AAAAtestkey\n');
    const bare = await start();
    try {
      const n = await fetch(`${bare.url}/.well-known/mcp-registry-auth`);
      expect(n.status).toBe(404);
      expect(await n.text()).toBe('err notfound no registry key configured\n');
    } finally {
      await bare.stop();
    }
  });
});
