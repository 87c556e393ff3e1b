// On MCP every `next:` line names tools, KB search results carry their fix text, and tools/call
// with non-object arguments is one -32602 line, on both revisions.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  token = (await register(s.url, 'nl', { 'x-forwarded-for': '10.88.0.1' })).token;
});
afterAll(async () => s.stop());

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
async function call(name: string, args: unknown, path = '/mcp') {
  const res = await fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: META } }),
  });
  return { status: res.status, body: (await res.json()) as any };
}
const text = (r: { body: any }) => r.body.result.content[0].text as string;
const nextOf = (t: string) => t.split('\n').filter((l) => l.startsWith('next:'));

describe('next lines on MCP', () => {
  it('name tools with their arguments, never REST routes', async () => {
    const fix = 'pin the pool size: set POOL_MAX=20 and retry with backoff';
    const add = await call('kb_add', {
      error: 'ZzqNextError: the widget frobnicator overflowed its buffer',
      fix,
      title: 'widget frobnicator overflow',
      eco: 'npm',
    });
    expect(add.body.result.isError, text(add)).toBeFalsy();
    const id = add.body.result.structuredContent.id as string;
    expect(nextOf(text(add))[0]).toMatch(new RegExp(`^next: call kb_get \\{"id":"${id}"\\}; others confirm it with call kb_confirm \\{"id":"${id}"\\}`));
    const texts = [
      text(add),
      text(await call('id_me', {})),
      text(await call('task_list', {})),
      text(await call('note_create', { body: 'x' })),
      text(await call('kb_get', { id })),
      text(await call('sys_limits', {})),
    ];
    for (const t of texts) {
      const lines = nextOf(t);
      expect(lines.length, t).toBeGreaterThan(0);
      for (const l of lines) expect(l, t).not.toMatch(/\b(GET|POST|PUT|DELETE) \//);
    }
    // Search results carry the fix text, not only the structured rows.
    const found = text(await call('kb_search', { q: 'frobnicator' }));
    expect(found).toContain(`k/${id} `);
    expect(found).toContain(`fix: ${fix}`);
    expect(nextOf(found)[0]).toBe(`next: call kb_get {"id":"${id}"}`);
    // REST keeps its routes and one line per hit.
    const rest = await (await fetch(`${s.url}/search?q=frobnicator`)).text();
    expect(rest).not.toContain('fix:');
    expect(rest).toMatch(/next: GET \/k\//);
  });

  it('tools/call with non-object arguments is -32602 in one line (2026-07-28 and a 2025 session)', async () => {
    for (const bad of ['text', 3, [1, 2], null]) {
      const r = await call('sys_health', bad);
      expect(r.body.error?.code, JSON.stringify(r.body)).toBe(-32602);
      expect(r.body.error.message).not.toContain('\n');
      expect(r.body.error.message.length).toBeLessThan(200);
    }
    const c = new Client({ name: 'old', version: '1' });
    const t = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`));
    await c.connect(t);
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': t.sessionId!,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'sys_health', arguments: 'text' } }),
    });
    const body = (await res.json()) as any;
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).not.toContain('\n');
    expect(body.error.message.length).toBeLessThan(200);
    await c.close();
  });
});
