// Baseline for the MCP 2026-07-28 rows: the SDK 2.x's own stateless entry (createMcpHandler, a fresh
// low-level Server per request) with one trivial tool on bare node:http, the Node request turned
// into a web Request and the Response written back, as the SDK's Node adapter does.
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';

const handler = createMcpHandler(() => {
  const s = new Server({ name: 'minimal', version: '1.0.0' }, { capabilities: { tools: {} } });
  s.setRequestHandler('tools/list', async () => ({ tools: [{ name: 'ping', inputSchema: { type: 'object' } }] }));
  s.setRequestHandler('tools/call', async () => ({ content: [{ type: 'text', text: 'ok' }] }));
  return s;
});

createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', async () => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: req.method === 'POST' ? body : undefined });
    const response = await handler.fetch(request);
    const out = {};
    response.headers.forEach((v, k) => (out[k] = v));
    res.writeHead(response.status, out);
    if (!response.body) return res.end();
    Readable.fromWeb(response.body).pipe(res);
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
