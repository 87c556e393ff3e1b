// Authorization is decided before the input is read or validated (issue 40): operator routes answer
// 401/403 to a missing, wrong or insufficient token whatever the body, query or JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let user: string;
beforeAll(async () => {
  s = await start({ CX_SEED: '0' });
  user = (await register(s.url)).token;
});
afterAll(async () => s?.stop());

async function call(method: string, path: string, body: string | undefined, type: string | undefined, token?: string) {
  const headers: Record<string, string> = {};
  if (type) headers['content-type'] = type;
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${s.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: res.status, text: (await res.text()).trim() };
}
const JSON_T = 'application/json';

describe('a veto with the ops token', () => {
  it('is 403 whatever the id: malformed, unknown, missing, or with unknown fields', async () => {
    const ops = s.config.operatorTokens.ops;
    for (const body of [
      { id: '??', decision: 'veto' },
      { id: 'p0000000000', decision: 'veto' },
      { decision: 'veto' },
      { decision: 'veto', bogus: 1, bounty: -5 },
    ]) {
      const r = await call('POST', '/admin/decide', JSON.stringify(body), JSON_T, ops);
      expect(r, JSON.stringify(body)).toEqual({ status: 403, text: 'err auth veto needs the admin token' });
    }
    // As a form too.
    expect((await call('POST', '/admin/decide', 'id=%3F%3F&decision=veto', 'application/x-www-form-urlencoded', ops)).status).toBe(403);
    // The admin token gets to validation: the malformed id is its answer.
    const admin = await call('POST', '/admin/decide', JSON.stringify({ id: '??', decision: 'veto' }), JSON_T, s.config.operatorTokens.admin);
    expect(admin.status).toBe(400);
    expect(admin.text).toMatch(/^err bad id: /);
  });
});

describe('operator routes: the token is judged before the input', () => {
  // Inputs wrong in every way a face can notice before validation, and in validation itself.
  const bad: Array<[string, string | undefined, string | undefined]> = [
    ['malformed JSON', '{"id":', JSON_T],
    ['unknown fields', JSON.stringify({ nonsense: true }), JSON_T],
    ['wrong types', JSON.stringify({ id: 5, text: [], kind: {} }), JSON_T],
    ['raw text', 'just some text', 'text/plain'],
  ];
  const routes: Array<[string, string]> = [
    ['POST', '/admin/decide'],
    ['POST', '/admin/announce'],
    ['POST', '/admin/freeze'],
    ['POST', '/admin/credits'],
    ['POST', '/admin/purge'],
    ['POST', '/admin/st-hide'],
    ['GET', '/admin/stats?bogus=1'],
    ['PUT', '/admin/blob?bogus=1'],
  ];
  for (const [method, path] of routes)
    it(`${method} ${path}: no token, a user token, a made-up token: 401 for every bad input`, async () => {
      for (const [what, body, type] of bad) {
        for (const token of [undefined, user, 'cxo_admin_not-the-token']) {
          const r = await call(method, path, method === 'GET' ? undefined : body, method === 'GET' ? undefined : type, token);
          expect(r.status, `${what} with ${token ?? 'no token'}: ${r.text}`).toBe(401);
          expect(r.text).toMatch(/^err auth/);
        }
      }
    });

  it('the right token then gets the input errors (the order, not a blanket refusal)', async () => {
    const admin = s.config.operatorTokens.admin;
    expect(await call('POST', '/admin/announce', '{"id":', JSON_T, admin)).toEqual({ status: 400, text: 'err bad json: malformed body' });
    expect(await call('PUT', '/admin/blob?bogus=1', 'x', 'application/octet-stream', admin)).toEqual({
      status: 400,
      text: 'err bad bogus: unknown query parameter',
    });
    expect((await call('POST', '/admin/freeze', JSON.stringify({ nonsense: true }), JSON_T, admin)).text).toMatch(/^err bad /);
  });
});
