// The same drop operations over MCP (generated from the registry) and in the OpenAPI document.
import SwaggerParser from '@apidevtools/swagger-parser';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hints } from '../helpers/mcp.js';
import { start, type TestServer } from '../helpers/server.js';
import { get, proof, put, secret, wkey, xff } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
});
afterAll(async () => s.stop());

type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

async function connect() {
  const client = new Client({ name: 'drops-test', version: '1.0.0' });
  const net = xff();
  const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), ...net } }),
  });
  await client.connect(transport);
  return client;
}

describe('MCP tools', () => {
  it('lists drop_put, drop_get, drop_peek, drop_delete with honest annotations', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const by = new Map(tools.map((t) => [t.name, t]));
    for (const n of ['drop_put', 'drop_get', 'drop_peek', 'drop_delete']) expect(by.has(n), n).toBe(true);
    expect(hints(by.get('drop_peek')!.annotations).readOnlyHint).toBe(true);
    expect(hints(by.get('drop_get')!.annotations)).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(Object.keys((by.get('drop_put')!.inputSchema as { properties: object }).properties)).toEqual(
      expect.arrayContaining(['secret', 'body', 'ttl', 'reads', 'once', 'append', 'write_key', 'pow']),
    );
    await client.close();
  });

  it('anonymous round trip: put with a proof and write key, peek, get, append, delete', async () => {
    const client = await connect();
    const sec = secret();
    const k = wkey();
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;

    const noPow = await call('drop_put', { secret: sec, body: 'via mcp', write_key: k });
    expect(noPow.isError).toBe(true);
    expect(noPow.content[0]!.text).toMatch(/^err auth X-PoW proof or a token required/);

    const created = await call('drop_put', { secret: sec, body: 'via mcp', write_key: k, pow: await proof(s.url), reads: 4 });
    expect(created.isError).toBeFalsy();
    expect(created.content[0]!.text).toMatch(new RegExp(`^ok /d/${sec} exp=\\S+ once=0 reads=4 size=7 masked=0\nnext: GET, DELETE$`));
    expect(created.structuredContent).toMatchObject({ created: true, reads: 4, size: 7 });

    const peek = await call('drop_peek', { secret: sec });
    expect(peek.structuredContent).toMatchObject({ reads_left: 4, size: 7, once: false });

    const appended = await call('drop_put', { secret: sec, body: ' + more', write_key: k, append: true });
    expect(appended.structuredContent).toMatchObject({ created: false, size: 14 });

    const read = await call('drop_get', { secret: sec });
    expect(read.content[0]!.text).toBe('via mcp + more');
    expect(read.structuredContent).toMatchObject({ body: 'via mcp + more', reads_left: 3, burnt: false });

    // Same store as REST: the read above counted.
    expect((await get(s.url, sec, 'HEAD')).headers.get('x-drop-reads')).toBe('3');

    const wrong = await call('drop_delete', { secret: sec, write_key: wkey() });
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0]!.text).toBe('err notfound');
    expect((await call('drop_delete', { secret: sec, write_key: k })).content[0]!.text).toBe(
      'ok\nnext: the secret is gone; call drop_put {"secret":"<new secret>"} to share again',
    );
    expect((await call('drop_get', { secret: sec })).content[0]!.text).toBe('err notfound');
    await client.close();
  });

  it('a drop made over REST reads over MCP', async () => {
    const sec = secret();
    await put(s.url, sec, 'rest to mcp', { wk: wkey() });
    const client = await connect();
    const r = (await client.callTool({ name: 'drop_get', arguments: { secret: sec } })) as ToolResult;
    expect(r.content[0]!.text).toBe('rest to mcp');
    await client.close();
  });
});

describe('A2A skills', () => {
  let n = 0;
  const skill = async (name: string, input: Record<string, unknown>) => {
    const res = await fetch(`${s.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...xff() },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++n,
        method: 'message/send',
        params: {
          message: { kind: 'message', messageId: `drop-${n}`, role: 'user', parts: [{ kind: 'data', data: { skill: name, input } }] },
          configuration: { blocking: true },
        },
      }),
    });
    expect(res.status).toBe(200);
    return (
      (await res.json()) as {
        result: {
          status: { state: string; message?: { parts: { text: string }[] } };
          artifacts?: { parts: { text?: string; data?: Record<string, unknown> }[] }[];
        };
      }
    ).result;
  };

  it('drop.put, drop.get and drop.delete run as skills over the same pipeline', async () => {
    const sec = secret();
    const k = wkey();
    const put1 = await skill('drop.put', { secret: sec, body: 'via a2a', write_key: k, pow: await proof(s.url) });
    expect(put1.status.state).toBe('completed');
    expect(put1.artifacts![0]!.parts[0]!.text).toMatch(new RegExp(`^ok /d/${sec} exp=\\S+ once=0 reads=3 size=7 masked=0`));
    const read = await skill('drop.get', { secret: sec });
    expect(read.artifacts![0]!.parts[0]!.text).toBe('via a2a');
    expect((await get(s.url, sec, 'HEAD')).headers.get('x-drop-reads')).toBe('2');
    const foreign = await skill('drop.delete', { secret: sec, write_key: wkey() });
    expect(foreign.status.state).toBe('failed');
    expect(foreign.status.message!.parts[0]!.text).toBe('err notfound');
    expect((await skill('drop.delete', { secret: sec, write_key: k })).status.state).toBe('completed');
    expect((await get(s.url, sec, 'HEAD')).status).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('documents /d/{secret}: PUT with a raw text body, query parameters, X-Drop-Write and X-PoW headers; GET, HEAD, DELETE', async () => {
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, { 'x-cx-op': string; parameters?: { name: string; in: string }[]; requestBody?: { content: Record<string, unknown> } }>
      >;
    };
    await SwaggerParser.validate(structuredClone(doc) as never);
    const p = doc.paths['/d/{secret}']!;
    expect(Object.keys(p).sort()).toEqual(['delete', 'get', 'head', 'put']);
    expect(p.put!['x-cx-op']).toBe('drop.put');
    expect(Object.keys(p.put!.requestBody!.content)).toEqual(['text/plain']);
    const params = p.put!.parameters!.map((x) => `${x.in}:${x.name}`).sort();
    expect(params).toEqual(['header:x-drop-write', 'header:x-pow', 'path:secret', 'query:append', 'query:once', 'query:reads', 'query:ttl']);
    expect(p.delete!.parameters!.map((x) => `${x.in}:${x.name}`).sort()).toEqual(['header:x-drop-write', 'path:secret']);
    expect(p.head!['x-cx-op']).toBe('drop.peek');
  });
});
