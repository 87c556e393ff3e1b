// Dead-drop rows of the benchmark: PUT then GET of 1 KiB drops against the running server.
// PUTs use a token (a PoW per request would measure the client's hashing, not the server) and
// each creates a fresh drop with reads=10; the GET row then reads the drops the PUT row made,
// round robin, so every GET hits a live drop (it has 10 reads per drop to spend; a GET row that
// ran out would show up as non-2xx).
import { solve } from '../src/core/platform/identity/pow.js';
import type { BenchRun, Row } from './load.js';

const BODY = 'dead drop benchmark payload, plain words only. '.repeat(22).slice(0, 1024);

/** Registers one identity (a real PoW at the server's difficulty; about a second). */
async function token(cx: string): Promise<string> {
  const headers = { accept: 'application/json', 'x-forwarded-for': '192.0.2.10' };
  const c = (await (await fetch(`${cx}/v1/challenge?for=reg`, { method: 'POST', headers })).json()) as { challenge: string; bits: number };
  const res = await fetch(`${cx}/v1/register`, { method: 'POST', headers, body: new URLSearchParams({ pow: solve(c.challenge, c.bits) }) });
  if (res.status !== 201) throw new Error(`bench register: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export async function benchDrops(cx: string, run: BenchRun): Promise<Row[]> {
  const tok = await token(cx);
  const prefix = `bench-${Date.now().toString(36)}-`;
  let n = 0;
  const created: string[] = [];
  type Ctx = { sec?: string };
  const put = await run('PUT /d (1 KiB)', `${cx}/d/x`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${tok}`, 'content-type': 'text/plain' },
    body: BODY,
    requests: [
      {
        setupRequest: (req, context) => {
          const sec = prefix + String(n++).padStart(12, '0');
          (context as Ctx).sec = sec;
          // Spread over networks (the server trusts X-Forwarded-For here) as real writers are.
          return { ...req, path: `/d/${sec}?reads=10`, headers: { ...req.headers, 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` } };
        },
        onResponse: (status, _body, context) => {
          const sec = (context as Ctx).sec;
          if (status === 201 && sec) created.push(sec);
        },
      },
    ],
  });
  if (!created.length) throw new Error('bench: the PUT row created no drops');
  let i = 0;
  const get = await run('GET /d (1 KiB)', `${cx}/d/x`, {
    requests: [{ setupRequest: (req) => ({ ...req, path: `/d/${created[i++ % created.length]}` }) }],
  });
  return [put, get];
}
