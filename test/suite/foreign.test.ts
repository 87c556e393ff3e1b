// Cross-identity access, generated from the registry: for each kind of owned thing (notes, mail,
// checkpoints, drops, A2A tasks, subscriptions, compute jobs and runs) one is made by A, and every
// operation routed under its id path is called by B with that id and with an id that never existed:
// the two answers are identical byte for byte (status, headers but date and request id, body).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OPS } from '../../src/compose/registry.js';
import type { AnyOperation } from '../../src/core/kernel/types.js';
import { snapshot } from '../helpers/http.js';
import { register, start, type TestServer } from '../helpers/server.js';
import { inputSchema, validArb, type Json } from './arbitraries.js';
import { freshNet, restRequests } from './faces.js';

let s: TestServer;
const ids: Record<string, { token: string; id: string }> = {};
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '1' }); // the sample services
  for (const n of ['a', 'b', 'c']) ids[n] = await register(s.url, `foreign_${n}`, { 'x-forwarded-for': freshNet() });
});
afterAll(async () => s?.stop());

const auth = (who: string) => ({ authorization: `Bearer ${ids[who]!.token}`, 'x-forwarded-for': freshNet(), accept: 'application/json' });
async function json(method: string, path: string, who: string | null, body?: unknown, type = 'application/json'): Promise<any> {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { ...(who ? auth(who) : { 'x-forwarded-for': freshNet(), accept: 'application/json' }), ...(body === undefined ? {} : { 'content-type': type }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** An id of the same shape that never existed: its last characters changed within their class. */
const never = (id: string) =>
  id.slice(0, -3) + [...id.slice(-3)].map((c) => (/[0-9]/.test(c) ? String((Number(c) + 5) % 10) : /[a-f]/.test(c) ? 'x' : c === 'x' ? 'y' : 'x')).join('');

interface Owned {
  what: string;
  /** The id path parameter of the routes that act on one: `/v1/notes/:id` and below. */
  bases: string[];
  make(): Promise<string>;
}

const OWNED: Owned[] = [
  { what: 'notes', bases: ['/v1/notes/:id'], make: async () => (await json('POST', '/v1/notes', 'a', { body: 'a private note' })).id },
  { what: 'mail', bases: ['/v1/mail/:id'], make: async () => (await json('POST', '/v1/mail', 'a', { to: ids.c!.id, body: 'for c only' })).id },
  { what: 'checkpoints', bases: ['/v1/cp/:id', '/cp/:id'], make: async () => (await json('POST', '/v1/cp', 'a', { name: 'state', body: 'step 1' })).id },
  { what: 'subscriptions', bases: ['/v1/subs/:id'], make: async () => (await json('POST', '/v1/subs', 'a', { topic: '~work', sink: 'wq:q' })).id },
  {
    what: 'jobs',
    bases: ['/v1/job/:id'],
    make: async () => {
      // The sample services are served once their KATs pass (a job of the server's worker).
      for (let i = 0; ; i++) {
        try {
          return (await json('POST', '/v1/svc/text-stats/job', 'a', { input: 'one two three' })).id;
        } catch (e) {
          // Under a loaded machine the KATs of a fresh server can take a while.
          if (i > 240) throw e;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    },
  },
  { what: 'runs', bases: ['/v1/run/:id'], make: async () => (await json('POST', '/v1/svc/text-stats/call', 'a', 'one two three', 'text/plain')).id },
];

/** Every routed operation under one of the bases: grows with each operation added there. */
const under = (bases: string[]) => OPS.filter((o) => o.rest && bases.some((b) => o.rest!.path === b || o.rest!.path.startsWith(`${b}/`)));

/** B's request for `op` with `id` (other fields: one fixed schema-valid sample, the same for both ids). */
function reqFor(op: AnyOperation, id: string, headers: Record<string, string>) {
  const sample = (fc.sample(validArb(inputSchema(op)), { numRuns: 1, seed: 3 })[0] ?? {}) as Record<string, Json>;
  const field = op.rest!.paramAlias?.id ?? (op.rest!.path.includes(':secret') ? 'secret' : 'id');
  return restRequests(op, { ...sample, [field]: id }, headers).find((r) => r.label === 'json' || r.label === 'query' || r.label === 'raw')!;
}

async function compare(op: AnyOperation, real: string, fake: string, headers: () => Record<string, string>, h2 = headers) {
  const a = reqFor(op, real, headers());
  const b = reqFor(op, fake, h2());
  const ra = await fetch(s.url + a.path, { method: a.method, headers: a.headers, body: a.body as string | undefined });
  const rb = await fetch(s.url + b.path, { method: b.method, headers: b.headers, body: b.body as string | undefined });
  const [sa, sb] = [await snapshot(ra), await snapshot(rb)];
  expect(sa.status, `${op.name} foreign`).toBe(404);
  expect({ op: op.name, ...sa }).toEqual({ op: op.name, ...sb });
}

describe('foreign things answer like ids that never existed', () => {
  for (const o of OWNED) {
    it(`${o.what}: every operation under ${o.bases.join(', ')}`, { timeout: 180_000 }, async () => {
      const id = await o.make();
      const ops = under(o.bases);
      expect(ops.length).toBeGreaterThan(0);
      for (const op of ops) {
        const as =
          op.auth === 'anon'
            ? () => ({ 'x-forwarded-for': '10.199.0.1' })
            : () => ({ authorization: `Bearer ${ids.b!.token}`, 'x-forwarded-for': '10.199.0.1' });
        await compare(op, id, never(id), as);
      }
    });
  }

  it('drops: a burnt drop answers like one that never existed, on every drop route', async () => {
    const secret = 'suiteDropSecret_0123456789ab';
    const put = await fetch(`${s.url}/d/${secret}?reads=1`, {
      method: 'PUT',
      headers: { ...auth('a'), 'content-type': 'text/plain' },
      body: 'burn after reading',
    });
    expect(put.status).toBe(201);
    expect((await fetch(`${s.url}/d/${secret}`, { headers: { 'x-forwarded-for': freshNet() } })).status).toBe(200);
    for (const op of under(['/d/:secret']).filter((o) => o.rest!.method !== 'PUT'))
      await compare(op, secret, never(secret), () => ({ 'x-forwarded-for': '10.199.0.2' }));
  });

  it('A2A tasks: tasks/get and tasks/cancel of a foreign task answer like an unknown id', async () => {
    const rpc = async (who: string, method: string, params: unknown) => {
      const r = await fetch(`${s.url}/a2a`, {
        method: 'POST',
        headers: { ...auth(who), 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return { status: r.status, body: await r.text() };
    };
    const sent = JSON.parse(
      (
        await rpc('a', 'message/send', {
          message: { kind: 'message', messageId: 'm-foreign-1', role: 'user', parts: [{ kind: 'text', text: 'healthz' }] },
          configuration: { blocking: true },
        })
      ).body,
    );
    const task: string = sent.result.id;
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/pushNotificationConfig/get', 'tasks/pushNotificationConfig/list']) {
      const params = method.startsWith('tasks/push') ? { id: task } : { id: task };
      const mine = await rpc('b', method, params);
      const none = await rpc('b', method, { ...params, id: '00000000-0000-4000-8000-000000000000' });
      expect(mine.body.replace(task, '<id>'), method).toBe(none.body.replace('00000000-0000-4000-8000-000000000000', '<id>'));
      expect(mine.status).toBe(none.status);
    }
  });
});
