// MCP session admission over real HTTP: a per-network creation quota, a per-network cap on live
// sessions, and a full server ending its least recently seen session instead of refusing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limit, quotaDef } from '../../src/core/kernel/limits.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
// Quotas x2 so a network can reach its live-session cap within one burst.
const MULT = 2;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_QUOTA_MULT: String(MULT) });
});
afterAll(async () => s.stop());

let netN = 0;
const newNet = () => `10.${60 + (netN >> 8)}.${netN++ & 255}.9`;
const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

async function initialize(ip: string): Promise<{ status: number; sid: string | null; body: any; retry: string | null }> {
  const res = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: { ...HEADERS, 'x-forwarded-for': ip },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  return { status: res.status, sid: res.headers.get('mcp-session-id'), body: await res.json(), retry: res.headers.get('retry-after') };
}

/** A request in session `sid`: 200 while it lives, 404 once it was ended. */
async function ping(sid: string, ip: string): Promise<number> {
  const res = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: { ...HEADERS, 'x-forwarded-for': ip, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('MCP session admission', () => {
  it('limits are published: creation quota per network, live sessions per network and in all', async () => {
    const r = await fetch(`${s.url}/limits`, { headers: { accept: 'application/json' } });
    const body = (await r.json()) as { quotas: { bucket: string }[]; limits: { key: string }[] };
    expect(body.quotas.map((q) => q.bucket)).toContain('mcp_session');
    expect(JSON.stringify(body)).toContain('mcp.sessions_net');
  });

  it('one network that opens sessions in a burst is refused with 429 err quota; other networks are not', async () => {
    const ip = newNet();
    const burst = quotaDef('mcp_session').burst * MULT;
    // The bucket refills while the loop runs (2 a second here), so a few more than the burst may pass.
    let ok = 0;
    let over = await initialize(ip);
    while (over.status === 200 && ok < burst * 2) {
      ok++;
      over = await initialize(ip);
    }
    expect(ok).toBeGreaterThanOrEqual(burst);
    expect(ok).toBeLessThan(burst * 1.5);
    expect(over.status).toBe(429);
    expect(over.sid).toBeNull();
    expect(over.body.error.message).toMatch(/^err quota mcp_session retry in \d+s$/);
    expect(Number(over.retry)).toBeGreaterThan(0);
    // The legacy SSE transport draws on the same bucket.
    const sse = await fetch(`${s.url}/sse`, { headers: { accept: 'text/event-stream', 'x-forwarded-for': ip } });
    expect(sse.status).toBe(429);
    expect(await sse.text()).toMatch(/^err quota mcp_session retry in \d+s\n$/);
    // Another client is not locked out, and the sessions already open still work.
    const other = await initialize(newNet());
    expect(other.status).toBe(200);
    expect(await ping(other.sid!, newNet())).toBe(200);
  });

  it('a network holds at most mcp.sessions_net live sessions: a new one ends its least recently seen', async () => {
    const cap = limit('mcp.sessions_net');
    expect(cap).toBeLessThan(quotaDef('mcp_session').burst * MULT);
    const ip = newNet();
    const sids: string[] = [];
    for (let i = 0; i < cap; i++) sids.push((await initialize(ip)).sid!);
    // Session 0 is used now, so session 1 is the least recently seen.
    expect(await ping(sids[0]!, ip)).toBe(200);
    const next = await initialize(ip);
    expect(next.status).toBe(200);
    expect(await ping(sids[1]!, ip)).toBe(404);
    expect(await ping(sids[0]!, ip)).toBe(200);
    expect(await ping(sids[2]!, ip)).toBe(200);
    expect(await ping(next.sid!, ip)).toBe(200);
    // Sessions of other networks are untouched.
    const elsewhere = await initialize(newNet());
    expect(await ping(elsewhere.sid!, ip)).toBe(200);
  });
});
