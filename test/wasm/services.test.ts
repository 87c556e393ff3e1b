// Compute through the real server: the sample services are served on a fresh install; operator
// blobs and versions; KATs gate a version; hostile services end in one `err compute` line while
// /healthz keeps answering; calls are charged through the ledger (audit: zero drift); L2
// publication and signed ok reports; /mcp/svc/{name} with the MCP SDK client.
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedL2, okSig } from '../helpers/keys.js';
import { agent, call, req, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let admin: Record<string, string>;
let alice: Who;
const DOMAIN = 'commons.test';
const fx = (n: string) => readFileSync(join(import.meta.dirname, 'fixtures', `${n}.wasm`));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Polls until `fn` is true (KAT jobs run in the background). */
async function until(fn: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}
const svc = async (name: string) =>
  (await req(s, 'GET', `/v1/svc/${name}`, { headers: { accept: 'application/json' } })).json() as Promise<{
    served: number | null;
    stable: number | null;
    versions: Array<{ ver: number; state: string; log: string | null; oks: number }>;
  }>;
const settled = (name: string, ver: number) => until(async () => (await svc(name)).versions.find((v) => v.ver === ver)?.state !== 'pending');
const balance = async (w: Who) =>
  ((await (await req(s, 'GET', '/v1/credits', { as: w, headers: { accept: 'application/json' } })).json()) as { balance: number }).balance;
const audit = async () =>
  (await (
    await req(s, 'GET', '/admin/audit', { headers: { authorization: `Bearer ${s.config.operatorTokens.poll}`, accept: 'application/json' } })
  ).json()) as { ok: boolean; problems: string[] };

async function putBlob(bytes: Buffer, q = ''): Promise<{ status: number; text: string }> {
  return call(s, 'PUT', `/admin/blob${q}`, { body: bytes, headers: admin });
}
async function publishAdmin(name: string, ver: number, wasm: Buffer, manifest: object, extra: object = {}) {
  expect((await putBlob(wasm)).status).toBe(200);
  return call(s, 'POST', '/admin/svc', { json: { name, ver, wasm: sha(wasm), manifest, ...extra }, headers: admin });
}

beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '1' }); // the sample KB and services
  admin = { authorization: `Bearer ${s.config.operatorTokens.admin}` };
  alice = await agent(s, 'alice');
}, 60_000);
afterAll(() => s?.stop());

describe('sample services on a fresh install', () => {
  it('are published by the operator, pass their KATs, get the server ok and are served', async () => {
    for (const name of ['json-check', 'text-diff', 'text-stats']) await until(async () => (await svc(name)).served === 1);
    const list = await call(s, 'GET', '/v1/svc');
    expect(list.text).toContain('json-check stable=1 served owner=admin');
    const one = await call(s, 'GET', '/v1/svc/text-diff');
    expect(one.text).toMatch(/^svc text-diff owner=admin stable=1 served=1 untrusted\n/);
    expect(one.text).toMatch(/text-diff@1 ok kats=4 oks=1 stable by admin/);
  });

  it('a call runs the stable version, is charged 1 credit, and its record is readable', async () => {
    const before = await balance(alice);
    const r = await call(s, 'POST', '/v1/svc/json-check/call', { as: alice, text: '{"a":[1,2]}' });
    expect(r.status).toBe(200);
    expect(r.text).toMatch(
      /^run r[0-9a-z]{10} json-check@1 ok ms=\d+ charged=1 donor=asystem out=[0-9a-f]{64}\noutput \(untrusted data\):\nok json type=object depth=2 bytes=11\n/,
    );
    const id = /^run (r[0-9a-z]{10})/.exec(r.text)![1]!;
    expect(await balance(alice)).toBe(before - 1);
    const rec = await (await req(s, 'GET', `/v1/run/${id}`, { as: alice, headers: { accept: 'application/json' } })).json();
    expect(rec).toMatchObject({ id, svc: 'json-check@1', status: 'ok', output: 'ok json type=object depth=2 bytes=11', charged: 1, donor: 'asystem' });
    // Another identity's call is not found.
    const bob = await agent(s, 'bob');
    expect((await call(s, 'GET', `/v1/run/${id}`, { as: bob })).status).toBe(404);
    // Anonymous calls need a token.
    expect((await call(s, 'POST', '/v1/svc/json-check/call', { text: '1' })).status).toBe(401);
    expect((await audit()).problems).toEqual([]);
  });

  it('a caller whose balance cannot cover the price gets 409 and nothing runs', async () => {
    await until(async () => (await svc('text-stats')).served === 1);
    const poor = await agent(s, 'poor');
    // Every credit goes into a bounty's escrow.
    expect((await call(s, 'POST', '/v1/tasks', { as: poor, json: { title: 'hold my credits', body: 'escrow', bounty: await balance(poor) } })).status).toBe(
      201,
    );
    expect(await balance(poor)).toBe(0);
    const r = await call(s, 'POST', '/v1/svc/text-stats/call', { as: poor, text: 'x' });
    expect(r.status).toBe(409);
    expect(r.text).toBe('err dup balance 0: 1 credits not possible\n');
    expect((await audit()).problems).toEqual([]);
  });

  it('an unknown or unserved name is 404', async () => {
    expect((await call(s, 'POST', '/v1/svc/nope-nope/call', { as: alice, text: 'x' })).text).toBe('err notfound no served service nope-nope\n');
  });
});

describe('PUT /admin/blob', () => {
  const wasmOf = (n: number) => {
    const b = Buffer.alloc(n);
    Buffer.from('0061736d01000000', 'hex').copy(b);
    return b;
  };

  it('answers the spec line, with and without a pin', async () => {
    const b = fx('echo');
    expect((await putBlob(b, '?name=echo&ver=1&note=test%20fixture')).text).toBe(
      `ok blob ${sha(b)} size=${b.length} kind=wasm owner=asystem pinned_by=admin pin=echo@1\nnext: POST /admin/svc with wasm=${sha(b)} to publish it as a service\n`,
    );
    const c = fx('trap');
    expect((await putBlob(c)).text).toBe(
      `ok blob ${sha(c)} size=${c.length} kind=wasm owner=asystem pinned_by=admin\nnext: POST /admin/svc with wasm=${sha(c)} to publish it as a service\n`,
    );
  });

  it('needs the admin token: none, a user token, another operator token are 401 err auth', async () => {
    const b = fx('echo');
    for (const h of [{}, { authorization: `Bearer ${alice.token}` }, { authorization: `Bearer ${s.config.operatorTokens.ops}` }] as Array<
      Record<string, string>
    >) {
      const r = await call(s, 'PUT', '/admin/blob', { body: b, headers: h });
      expect(r.status).toBe(401);
      expect(r.text).toMatch(/^err auth/);
    }
  });

  it('takes modules above the public cap, up to exactly the operator cap; one byte more is 413 err size', async () => {
    const limits = (await (await fetch(`${s.url}/limits.json`)).json()) as
      | { limits?: Array<{ key: string; value: number }> }
      | Array<{ key: string; value: number }>;
    const rows = Array.isArray(limits) ? limits : (limits.limits ?? []);
    const pub = rows.find((l) => l.key === 'blob.public')!.value;
    const cap = rows.find((l) => l.key === 'blob.admin')!.value;
    expect(cap).toBeGreaterThan(pub);
    const above = wasmOf(pub + 1);
    expect((await putBlob(above)).text).toBe(
      `ok blob ${sha(above)} size=${pub + 1} kind=wasm owner=asystem pinned_by=admin\nnext: POST /admin/svc with wasm=${sha(above)} to publish it as a service\n`,
    );
    const edge = wasmOf(cap);
    expect((await putBlob(edge)).text).toBe(
      `ok blob ${sha(edge)} size=${cap} kind=wasm owner=asystem pinned_by=admin\nnext: POST /admin/svc with wasm=${sha(edge)} to publish it as a service\n`,
    );
    const over = await putBlob(wasmOf(cap + 1));
    expect(over.status).toBe(413);
    expect(over.text).toMatch(/^err size/);
  }, 60_000);

  it('refuses bytes that are not a module, and a half pin', async () => {
    expect((await putBlob(Buffer.from('hello'))).text).toMatch(/^err bad body: not a WebAssembly module/);
    expect((await putBlob(fx('echo'), '?name=echo')).text).toMatch(/^err bad name and ver/);
  });
});

describe('KATs gate a version', () => {
  it('a version whose KAT fails is not served; a later version that passes is', async () => {
    const wasm = fx('echo');
    const bad = await publishAdmin('echo-gate', 1, wasm, { desc: 'echo', kats: [{ in: 'a', out: 'b' }] });
    expect(bad.status).toBe(201);
    expect(bad.text).toBe('ok echo-gate@1 pending kats=1 stable\nnext: GET /v1/svc/echo-gate for the KAT result\n');
    await settled('echo-gate', 1);
    const v1 = (await svc('echo-gate')).versions[0]!;
    expect(v1).toMatchObject({ ver: 1, state: 'failed', oks: 0 });
    expect(v1.log).toBe('kat 1: got "a" want "b"');
    expect((await svc('echo-gate')).served).toBeNull();
    expect((await call(s, 'POST', '/v1/svc/echo-gate/call', { as: alice, text: 'x' })).status).toBe(404);
    expect((await call(s, 'POST', '/mcp/svc/echo-gate', { json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } })).status).toBe(404);
    // The same version again is a conflict; a higher one made stable passes and is served.
    expect(
      (
        await call(s, 'POST', '/admin/svc', {
          json: { name: 'echo-gate', ver: 1, wasm: sha(wasm), manifest: { desc: 'echo', kats: [{ in: 'a', out: 'a' }] } },
          headers: admin,
        })
      ).status,
    ).toBe(409);
    const good = await call(s, 'POST', '/admin/svc', {
      json: { name: 'echo-gate', ver: 2, wasm: sha(wasm), manifest: { desc: 'echo', kats: [{ in: 'a', out: 'a' }] }, stable: true },
      headers: admin,
    });
    expect(good.text).toMatch(/^ok echo-gate@2 pending kats=1 stable/);
    await until(async () => (await svc('echo-gate')).served === 2);
    const r = await call(s, 'POST', '/v1/svc/echo-gate/call', { as: alice, text: 'ping' });
    expect(r.text).toContain('\nping\n');
  });

  it('a module that loops or exhausts memory fails its KATs with the runner code', async () => {
    await publishAdmin('loop-gate', 1, fx('loop'), { desc: 'loops', kats: [{ in: 'a', out: 'a' }], limits: { time_ms: 300 } });
    await publishAdmin('bomb-gate', 1, fx('bomb'), { desc: 'bombs', kats: [{ in: 'a', out: 'a' }], limits: { mem_pages: 64 } });
    await settled('loop-gate', 1);
    await settled('bomb-gate', 1);
    expect((await svc('loop-gate')).versions[0]!.log).toBe('kat 1: err compute timeout stopped after 300 ms');
    expect((await svc('bomb-gate')).versions[0]!.log).toMatch(/^kat 1: err compute memory memory cap of 64 pages reached/);
  });

  it('refuses a manifest without KATs, a missing blob, a module with the wrong entry', async () => {
    const wasm = fx('echo');
    const h = sha(wasm);
    expect((await call(s, 'POST', '/admin/svc', { json: { name: 'nokat', ver: 1, wasm: h, manifest: { desc: 'x', kats: [] } }, headers: admin })).text).toMatch(
      /^err bad manifest\.kats/,
    );
    expect(
      (
        await call(s, 'POST', '/admin/svc', {
          json: { name: 'noblob', ver: 1, wasm: 'ab'.repeat(32), manifest: { desc: 'x', kats: [{ in: '', out: '' }] } },
          headers: admin,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(s, 'POST', '/admin/svc', {
          json: { name: 'noentry', ver: 1, wasm: h, manifest: { entry: 'main', desc: 'x', kats: [{ in: '', out: '' }] } },
          headers: admin,
        })
      ).text,
    ).toBe('err bad wasm: no exported function main\n');
    expect(
      (await call(s, 'POST', '/admin/svc', { json: { name: 'noentry', ver: 1, wasm: h, manifest: { desc: 'x', kats: [{ in: '', out: '' }] } } })).status,
    ).toBe(401);
  });
});

describe('hostile services', () => {
  beforeAll(async () => {
    const r = await publishAdmin('moody', 1, fx('moody'), {
      desc: 'echo with moods',
      kats: [{ in: 'hi', out: 'hi' }],
      limits: { time_ms: 600, mem_pages: 64, out_bytes: 4096 },
    });
    expect(r.status).toBe(201);
    await until(async () => (await svc('moody')).served === 1);
  });

  /** Polls /healthz every 50 ms while `fn` runs; returns the statuses and the longest wait. */
  async function withHealth<T>(fn: () => Promise<T>): Promise<{ out: T; health: number[]; worst: number }> {
    const health: number[] = [];
    let worst = 0;
    let stop = false;
    const poll = (async () => {
      while (!stop) {
        const t0 = Date.now();
        health.push((await fetch(`${s.url}/healthz`)).status);
        worst = Math.max(worst, Date.now() - t0);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const out = await fn();
    stop = true;
    await poll;
    return { out, health, worst };
  }

  it('an infinite loop is stopped at its limit and charged (the module caused it), while /healthz keeps answering', async () => {
    const before = await balance(alice);
    const { out: r, health } = await withHealth(() => call(s, 'POST', '/v1/svc/moody/call', { as: alice, text: 'loop forever' }));
    expect(r.status).toBe(422);
    expect(r.text).toMatch(/^err compute timeout stopped after 600 ms \(call r[0-9a-z]{10}, charged 1\)\n$/);
    expect(health.length).toBeGreaterThan(1);
    expect(health.every((h) => h === 200)).toBe(true);
    expect(await balance(alice)).toBe(before - 1);
    const id = /call (r[0-9a-z]{10})/.exec(r.text)![1]!;
    expect(await (await req(s, 'GET', `/v1/run/${id}`, { as: alice, headers: { accept: 'application/json' } })).json()).toMatchObject({
      status: 'failed',
      code: 'timeout',
      charged: 1,
    });
  });

  it('a memory bomb is capped; a flood is cut at the output cap; a trap is one line', async () => {
    expect((await call(s, 'POST', '/v1/svc/moody/call', { as: alice, text: 'bomb' })).text).toMatch(/^err compute memory memory cap of 64 pages reached/);
    expect((await call(s, 'POST', '/v1/svc/moody/call', { as: alice, text: 'flood' })).text).toMatch(/^err compute output /);
    expect((await call(s, 'POST', '/v1/svc/moody/call', { as: alice, text: 'trap' })).text).toMatch(/^err compute trap /);
  });

  it('100 hostile calls in a row: every one answers one err line, /healthz answers throughout, each is charged, credits are conserved', async () => {
    // Two fresh callers of credits.start each: every failed call costs its caller one credit now.
    const callers = [await agent(s, 'mallory'), await agent(s, 'trudy')];
    const before = (await balance(callers[0]!)) + (await balance(callers[1]!));
    // Every tenth loops (each of those waits out its limit); the others cycle bomb, flood, trap.
    const mood = (i: number) => (i % 10 === 0 ? 'loop' : ['bomb', 'flood', 'trap'][i % 3]!);
    const code: Record<string, string> = { loop: 'timeout', bomb: 'memory', flood: 'output', trap: 'trap' };
    const { out, health } = await withHealth(async () => {
      const lines: string[] = [];
      for (let i = 0; i < 100; i++) lines.push((await call(s, 'POST', '/v1/svc/moody/call', { as: callers[i % 2]!, text: `${mood(i)} ${i}` })).text);
      return lines;
    });
    for (const [i, l] of out.entries()) expect(`${i} ${l}`).toMatch(new RegExp(`^${i} err compute ${code[mood(i)]} [^\\n]*\\n$`));
    expect(health.length).toBeGreaterThan(10);
    expect(health.every((h) => h === 200)).toBe(true);
    // Each failure was the module's own doing: charged one credit, none refunded.
    expect((await balance(callers[0]!)) + (await balance(callers[1]!))).toBe(before - 100);
    // The service still works afterwards.
    expect((await call(s, 'POST', '/v1/svc/moody/call', { as: alice, text: 'calm' })).text).toContain('\ncalm\n');
    expect((await audit()).problems).toEqual([]);
  }, 120_000);
});

describe('L2 publication and ok reports', () => {
  const keyed = (name: string) => keyedL2(s, name, DOMAIN);

  it('an L2 identity publishes its own service; it is served once another L2 identity signs an ok', async () => {
    const pubr = await keyed('publisher');
    const rev = await keyed('reviewer');
    const wasm = fx('echo');
    const up = await call(s, 'PUT', '/v1/b', { as: pubr, body: wasm });
    expect(up.status).toBe(201);
    const h = sha(wasm);
    const manifest = { desc: 'echo of an agent', kats: [{ in: 'x', out: 'x' }] };
    // L0 may not publish; reserved names are the operator's.
    expect((await call(s, 'POST', '/v1/svc', { as: alice, json: { name: 'my-echo', ver: 1, wasm: h, manifest } })).status).toBe(403);
    expect((await call(s, 'POST', '/v1/svc', { as: pubr, json: { name: 'cx-echo', ver: 1, wasm: h, manifest } })).text).toMatch(
      /^err auth name cx-echo is reserved/,
    );
    expect((await call(s, 'POST', '/v1/svc', { as: pubr, json: { name: 'json-check', ver: 9, wasm: h, manifest } })).status).toBe(403);
    const r = await call(s, 'POST', '/v1/svc', { as: pubr, json: { name: 'my-echo', ver: 1, wasm: h, manifest } });
    expect(r.text).toMatch(/^ok my-echo@1 pending kats=1 stable/);
    await settled('my-echo', 1);
    const info = await svc('my-echo');
    expect(info.versions[0]).toMatchObject({ state: 'ok', oks: 0 });
    expect(info.served).toBeNull();
    // Another identity cannot take the name.
    expect((await call(s, 'POST', '/v1/svc', { as: rev, json: { name: 'my-echo', ver: 2, wasm: h, manifest } })).status).toBe(409);
    // Refused: the publisher itself, a signature of another type, an L0 reporter.
    expect((await call(s, 'POST', '/v1/svc/my-echo/1/ok', { as: pubr, json: { sig: await okSig(pubr, 'my-echo', 1, h) } })).status).toBe(409);
    const forged = await call(s, 'POST', '/v1/svc/my-echo/1/ok', { as: rev, json: { sig: await okSig(rev, 'my-echo', 1, h, 'conf1') } });
    expect(forged.text).toMatch(/^err bad sig: does not verify as svcok1/);
    expect((await call(s, 'POST', '/v1/svc/my-echo/1/ok', { as: alice, json: { sig: await okSig(rev, 'my-echo', 1, h) } })).status).toBe(403);
    const ok = await call(s, 'POST', '/v1/svc/my-echo/1/ok', { as: rev, json: { sig: await okSig(rev, 'my-echo', 1, h), note: 'works for me' } });
    expect(ok.text).toBe(`ok reported my-echo@1 by ${rev.id} oks=1\nnext: GET /v1/svc/my-echo\n`);
    expect((await call(s, 'POST', '/v1/svc/my-echo/1/ok', { as: rev, json: { sig: await okSig(rev, 'my-echo', 1, h) } })).status).toBe(409);
    expect((await svc('my-echo')).served).toBe(1);
    expect((await call(s, 'POST', '/v1/svc/my-echo/call', { as: alice, text: 'hello' })).text).toContain('\nhello\n');
  });
});

describe('/mcp/svc/{name}', () => {
  async function client(path: string, who: Who | null) {
    const c = new Client({ name: 'svc-test', version: '1.0.0' });
    const f: typeof fetch = (input, init) =>
      fetch(input, {
        ...init,
        headers: {
          ...Object.fromEntries(new Headers(init?.headers).entries()),
          'x-forwarded-for': who?.net ?? '10.251.0.1',
          ...(who && !path.includes('/t/') ? { authorization: `Bearer ${who.token}` } : {}),
        },
      });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}${path}`), { fetch: f }));
    return c;
  }

  it('the MCP SDK client lists exactly one tool named after the service and calls it, charged to the caller', async () => {
    const c = await client('/mcp/svc/text-stats', alice);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(['text-stats']);
    expect(tools[0]!.inputSchema).toMatchObject({ type: 'object', required: ['input'] });
    const before = await balance(alice);
    const r = (await c.callTool({ name: 'text-stats', arguments: { input: 'one two\nthree' } })) as {
      content: Array<{ text: string }>;
      structuredContent: Record<string, unknown>;
      isError?: boolean;
    };
    expect(r.isError).toBeFalsy();
    expect(r.content[0]!.text).toBe('stats lines=2 words=3 chars=13 bytes=13 longest=7 blank=0');
    expect(r.structuredContent).toMatchObject({ svc: 'text-stats@1', status: 'ok', charged: 1 });
    expect(await balance(alice)).toBe(before - 1);
    // Another tool name, or a bad argument, is a JSON-RPC error.
    await expect(c.callTool({ name: 'json-check', arguments: { input: '1' } })).rejects.toThrow(/one tool, text-stats/);
    await c.close();
    expect((await audit()).problems).toEqual([]);
  });

  it('serves revision 2026-07-28 too: the SDK 2.x client lists and calls the one tool without a session', async () => {
    const f: typeof fetch = (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), 'x-forwarded-for': alice.net, authorization: `Bearer ${alice.token}` },
      });
    const c2 = new Client2({ name: 'sdk2', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await c2.connect(new Transport2(new URL(`${s.url}/mcp/svc/text-stats`), { fetch: f }));
    expect(c2.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await c2.listTools();
    expect(tools.map((t) => t.name)).toEqual(['text-stats']);
    const before = await balance(alice);
    const r = (await c2.callTool({ name: 'text-stats', arguments: { input: 'a b' } })) as { content: Array<{ text: string }>; isError?: boolean };
    expect(r.isError).toBeFalsy();
    expect(r.content[0]!.text).toBe('stats lines=1 words=2 chars=3 bytes=3 longest=3 blank=0');
    expect(await balance(alice)).toBe(before - 1);
    await c2.close();
    // A raw 2026-07-28 request carries its revision in the headers and _meta, no initialize.
    const META = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const raw = await fetch(`${s.url}/mcp/svc/text-stats`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: META } }),
    });
    expect(raw.status).toBe(200);
    expect(((await raw.json()) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name)).toEqual(['text-stats']);
  });

  it('works with a url-class token in the path; anonymous calls get err auth; unknown names are 404', async () => {
    const u = (await (await req(s, 'POST', '/v1/token/url', { as: alice, headers: { accept: 'application/json' } })).json()) as { token: string };
    const c = await client(`/mcp/svc/json-check/t/${u.token}`, { ...alice, token: '' });
    const r = (await c.callTool({ name: 'json-check', arguments: { input: '[1' } })) as { content: Array<{ text: string }> };
    expect(r.content[0]!.text).toBe("invalid json at 2: expected ',' or ']'");
    await c.close();
    const anon = await client('/mcp/svc/json-check', null);
    const a = (await anon.callTool({ name: 'json-check', arguments: { input: '1' } })) as { content: Array<{ text: string }>; isError?: boolean };
    expect(a.isError).toBe(true);
    expect(a.content[0]!.text).toMatch(/^err auth/);
    await anon.close();
    const nf = await call(s, 'POST', '/mcp/svc/no-such-svc', {
      json: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      },
    });
    expect(nf.status).toBe(404);
    expect(nf.text).toBe('err notfound no served service\n');
  });
});
