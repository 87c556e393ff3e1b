// Baseline for the MCP rows: the MCP SDK's own server with one trivial tool on bare node:http,
// sessions and stateless like ours, started in the same bench run.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

function build() {
  const s = new Server({ name: 'minimal', version: '1.0.0' }, { capabilities: { tools: {} } });
  s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'ping', inputSchema: { type: 'object' } }] }));
  s.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
  return s;
}

const sessions = new Map();
createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', async () => {
    const parsed = body ? JSON.parse(body) : undefined;
    const sid = req.headers['mcp-session-id'];
    if (sid) return sessions.get(sid).handleRequest(req, res, parsed);
    if (isInitializeRequest(parsed)) {
      const t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, t) });
      await build().connect(t);
      return t.handleRequest(req, res, parsed);
    }
    const t = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const s = build();
    res.on('close', () => {
      t.close();
      s.close();
    });
    await s.connect(t);
    return t.handleRequest(req, res, parsed);
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
