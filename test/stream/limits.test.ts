// Open REST event streams are bounded per network (stream.open_net): the next one is 429 err quota,
// other networks are unaffected, and a closed stream frees its place. A server closes without
// waiting on open streams or on connections that carry no request.
import { get, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limit } from '../../src/core/kernel/limits.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
});
afterAll(async () => s.stop());

const open = (net: string, signal: AbortSignal) => fetch(`${s.url}/v1/tasks/stream`, { headers: { 'x-forwarded-for': net }, signal });

describe('stream limits', () => {
  it('at most stream.open_net open streams per network', async () => {
    const n = limit('stream.open_net');
    const ctl = new AbortController();
    const held = await Promise.all(Array.from({ length: n }, () => open('10.77.1.5', ctl.signal)));
    expect(held.every((r) => r.status === 200)).toBe(true);
    const more = await open('10.77.1.9', ctl.signal); // same /24
    expect(more.status).toBe(429);
    expect(await more.text()).toMatch(/^err quota at most \d+ open streams per network/);
    const other = await open('10.78.1.5', ctl.signal);
    expect(other.status).toBe(200);
    ctl.abort();
    // Closed streams free their places (the server sees the sockets close).
    let status = 0;
    const again = new AbortController();
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const r = await open('10.77.1.5', again.signal);
      status = r.status;
      if (status !== 200) await r.text();
    }
    expect(status).toBe(200);
    again.abort();
  });
});

describe('closing with streams open', () => {
  it('a server closes while a stream is open and a client holds an unused connection (no wait on either)', async () => {
    const own = await start();
    const { hostname, port } = new URL(own.url);
    // An HTTP client's pooled connection that never sends a request, and a live event stream.
    const idle = connect(Number(port), hostname);
    await new Promise((r) => idle.once('connect', r));
    const stream = await new Promise<IncomingMessage>((resolve) => get(`${own.url}/v1/tasks/stream`, resolve));
    expect(stream.statusCode).toBe(200);
    const closed = await Promise.race([own.stop().then(() => 'closed'), new Promise((r) => setTimeout(() => r('still waiting'), 10_000))]);
    expect(closed).toBe('closed');
    idle.destroy();
    stream.destroy();
  });
});
