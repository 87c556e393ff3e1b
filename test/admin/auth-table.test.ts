// Every operation of the registry whose auth is an operator class, called on its REST route with no
// token, a user token, each operator token of another class and the right one: denied exactly where
// it should be. Built from the registry, so a new operator route is covered without editing this.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorClass } from '../../src/config.js';
import { OPS } from '../../src/compose/registry.js';
import { agent, req, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';

const CLASSES: OperatorClass[] = ['admin', 'ops', 'poll', 'check'];
const operatorOps = OPS.filter((o) => (CLASSES as string[]).includes(o.auth) && o.rest);

let s: TestServer;
let user: Who;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  user = await agent(s);
});
afterAll(async () => s.stop());

/** The route with its path parameters filled (values that pass no validation: only auth is tested). */
const pathOf = (p: string) => p.replace(/:([a-z_]+)/gi, (_m, name: string) => (name === 'n' ? '1' : 'zz')).replace('*', 'zz');

async function hit(method: string, path: string, bearer: string | null): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : {};
  const withBody = method === 'POST' || method === 'PUT';
  const r = await req(s, method, pathOf(path), { headers, ...(withBody ? { json: {} } : {}) });
  return { status: r.status, text: await r.text() };
}

describe('operator routes x token classes', () => {
  it('the registry has the operator routes of spec 4.7 that this branch serves', () => {
    const routes = operatorOps.map((o) => `${o.rest!.method} ${o.rest!.path}`);
    for (const r of [
      'POST /admin/announce',
      'POST /admin/asn',
      'GET /admin/audit',
      'POST /admin/bounty/:id/accept',
      'POST /admin/credits',
      'POST /admin/demand',
      'POST /admin/freeze',
      'GET /admin/inbox',
      'POST /admin/online-key',
      'GET /admin/origin',
      'POST /admin/purge',
      'POST /admin/seed-root',
      'POST /admin/st-hide',
      'GET /admin/stats',
      'GET /admin/x/queue',
      'POST /admin/x/decide',
    ])
      expect(routes).toContain(r);
  });

  it('/help publishes each operator route with its token class', async () => {
    const help = await (await fetch(`${s.url}/help`)).text();
    for (const op of operatorOps) expect(help).toContain(`${op.rest!.method} ${op.rest!.path.replace(/:(\w+)/g, '{$1}')}\t${op.auth}\t`);
  });

  for (const op of operatorOps) {
    const { method, path } = op.rest!;
    it(`${method} ${path} (${op.auth})`, async () => {
      const t = s.config.operatorTokens;
      const denied = async (who: string, bearer: string | null) => {
        const r = await hit(method, path, bearer);
        expect({ who, status: r.status }).toEqual({ who, status: 401 });
        expect(r.text).toMatch(/^err auth/);
      };
      await denied('none', null);
      await denied('user', user.token);
      // Admin satisfies every class (src/core/platform/identity/auth.ts); every other class only its own.
      for (const c of CLASSES.filter((c) => c !== op.auth && c !== 'admin')) await denied(c, t[c]);
      for (const c of op.auth === 'admin' ? ['admin' as const] : [op.auth as OperatorClass, 'admin' as const]) {
        const r = await hit(method, path, t[c]);
        expect({ c, status: r.status, auth: r.text.startsWith('err auth') }).toMatchObject({ c, auth: false });
        expect([401, 403]).not.toContain(r.status);
      }
    });
  }
});
