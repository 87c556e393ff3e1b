// Inputs that must not surprise (issue 40), through the real server: text bodies need a text type
// (and say so), a route states one size limit, and validation speaks the project's words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let tok: string;
beforeAll(async () => {
  s = await start({ CX_SEED: '0' });
  tok = (await register(s.url, 'newbie')).token;
});
afterAll(async () => s?.stop());

async function call(method: string, path: string, body: string | undefined, type: string | undefined, token?: string) {
  const headers: Record<string, string> = {};
  if (type) headers['content-type'] = type;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${s.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: res.status, text: await res.text() };
}
const FORM = 'application/x-www-form-urlencoded';
const secret = () => `newcomer-${Math.random().toString(36).slice(2)}-drop`;

describe('PUT /d/{secret}: the body is text/plain', () => {
  it('a form body (curl -d body=... -d once=true) is one line naming the type and where once goes; nothing is stored', async () => {
    const sec = secret();
    const r = await call('PUT', `/d/${sec}`, 'body=hello&once=true', FORM, tok);
    expect(r.status).toBe(400);
    expect(r.text).toBe(
      'err bad body: send the text as Content-Type: text/plain, not application/x-www-form-urlencoded; options go in the query (ttl=&reads=&once=&append=)\n',
    );
    expect((await call('GET', `/d/${sec}`, undefined, undefined)).status).toBe(404);
  });
  it('JSON and multipart are refused the same way; text/plain with ?once=true is taken and burns', async () => {
    for (const type of ['application/json', 'multipart/form-data; boundary=x']) {
      const r = await call('PUT', `/d/${secret()}`, '{"body":"x"}', type, tok);
      expect(r.status).toBe(400);
      expect(r.text).toMatch(/^err bad body: send the text as Content-Type: text\/plain, not /);
    }
    const sec = secret();
    const ok = await call('PUT', `/d/${sec}?once=true`, 'hello', 'text/plain', tok);
    expect(ok.status).toBe(201);
    expect(ok.text).toMatch(/ once=1 reads=1 size=5 /);
    expect((await call('GET', `/d/${sec}`, undefined, undefined)).text).toBe('hello');
    expect((await call('GET', `/d/${sec}`, undefined, undefined)).status).toBe(404);
  });
});

describe('every text-body route: raw text sent with a form type (curl --data-binary @file) says what to send', () => {
  const routes: Array<[string, string, string]> = [
    ['POST', '/e', 'text'],
    ['POST', '/v1/notes', 'body'],
    ['POST', '/v1/mail?to=a0', 'body'],
    ['POST', '/v1/cp?name=work', 'body'],
    ['POST', '/v1/pub/~mine', 'text'],
    ['PUT', `/v1/c/${'a'.repeat(64)}`, 'text'],
  ];
  it.each(routes)('%s %s', async (method, path, field) => {
    const r = await call(method, path, "Traceback (most recent call last):\nModuleNotFoundError: No module named 'x'\n", FORM, tok);
    expect(r.status).toBe(400);
    expect(r.text).toBe(`err bad ${field}: required (send the text as Content-Type: text/plain, or as form field ${field})\n`);
  });
  it('POST /e with text/plain answers (here: a miss recorded as wanted)', async () => {
    const r = await call('POST', '/e', "Traceback (most recent call last):\nModuleNotFoundError: No module named 'zzqnewcomer'\n", 'text/plain');
    expect(r.status).toBe(404);
    expect(r.text).toMatch(/^err notfound no fix yet/);
  });
});

describe('one size limit per route, stated as /limits states it', () => {
  it('a note body over note.body: the same words whether the text check or the byte cap refuses it', async () => {
    const limits = (await call('GET', '/limits', undefined, undefined)).text;
    expect(limits).toMatch(/^note\.body 16384 bytes/m);
    const over = await call('POST', '/v1/notes', 'x'.repeat(16385), 'text/plain', tok);
    expect(over.status).toBe(413);
    expect(over.text).toBe('err size body over 16384 bytes (16385)\n');
    const huge = await call('POST', '/v1/notes', 'x'.repeat(70_000), 'text/plain', tok);
    expect(huge.status).toBe(413);
    expect(huge.text).toBe('err size body over 16384 bytes\n');
  });
  it('a drop over drop.body (chars) and a POST /e over e.body (bytes)', async () => {
    expect((await call('GET', '/limits', undefined, undefined)).text).toMatch(/^drop\.body 16384 chars/m);
    expect((await call('PUT', `/d/${secret()}`, 'x'.repeat(16385), 'text/plain', tok)).text).toBe('err size body over 16384 chars\n');
    expect((await call('PUT', `/d/${secret()}`, 'x'.repeat(70_000), 'text/plain', tok)).text).toBe('err size body over 16384 chars\n');
    const e = await call('POST', '/e', 'x'.repeat(60_000), 'application/json');
    expect(e.status).toBe(413);
    expect(e.text).toBe('err size text over 16384 bytes\n');
  });
});

describe("validation speaks the project's words, not the validator's", () => {
  const ZOD = /Invalid (option|input|string|email|URL)|Too (big|small)|expected (string|number|one of)|received /i;
  const json = (path: string, body: unknown, token = tok, method = 'POST') => call(method, path, JSON.stringify(body), 'application/json', token);
  it('an enum, a too-long text, a wrong type, a too-big number, a missing field', async () => {
    const admin = s.config.operatorTokens.admin;
    const cases: Array<[Promise<{ status: number; text: string }>, string]> = [
      [
        json('/admin/announce', { kind: 'party', text: 'x', ends: '2030-01-01T00:00:00Z' }, admin),
        'err bad kind: one of maintenance, incident, change, notice\n',
      ],
      [json('/v1/tasks', { title: 'x'.repeat(121) }), 'err bad title: at most 120 characters\n'],
      [json('/e', { text: 5 }, ''), 'err bad text: want text, not a number\n'],
      [call('GET', '/brief?q=x&b=abc', undefined, undefined), 'err bad b: want a number, not text\n'],
      [json('/v1/tasks', {}), 'err bad title: required\n'],
    ];
    for (const [p, want] of cases) {
      const r = await p;
      expect(r.status).toBe(400);
      expect(r.text).toBe(want);
      expect(r.text).not.toMatch(ZOD);
    }
  });
  it('a sample of refused inputs across routes: none carries zod wording', async () => {
    const lines = await Promise.all([
      call('GET', '/search?q=x&n=999999', undefined, undefined),
      call('GET', '/v1/tasks?limit=-1', undefined, undefined, tok),
      json('/v1/tasks', { title: 'a fine title', bounty: 1.5 }),
      json('/v1/tasks', { title: 'a fine title', bounty: 'lots' }),
      json('/v1/register', { pow: 5 }, ''),
      json('/v1/subs', { topic: 5 }),
    ]);
    for (const r of lines) {
      expect(r.status, r.text).toBeGreaterThanOrEqual(400);
      expect(r.text).not.toMatch(ZOD);
    }
  });
});
