// Notices through the real server: the form token and Origin checks, the caps per network and per
// super-group at their edges, illicit notices hiding at once, counted reports, and the operator's
// upheld / reversed decisions on a KB entry.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { caller, freshIp, identity, sql } from './helpers.js';

let s: TestServer;
let call: ReturnType<typeof caller>;
const ORIGIN = 'http://commons.test';

beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  call = caller(s);
});
afterAll(async () => s.stop());

async function ft(): Promise<string> {
  const r = await call('GET', '/notice?f=json');
  expect(r.status).toBe(200);
  return JSON.parse(r.text).ft;
}

const fields = async (o: Record<string, string> = {}) => ({
  url: `${ORIGIN}/about`,
  category: 'spam',
  reason: 'Advertising on a reference page.',
  email: 'person@example.org',
  good_faith: 'yes',
  ft: await ft(),
  ...o,
});

const notice = async (form: Record<string, string>, ip: string, origin: string | null = ORIGIN) =>
  call('POST', '/notice', { form, ip, headers: origin === null ? {} : { origin } });

async function kbEntry(): Promise<string> {
  const ip = freshIp();
  const who = await identity(s, ip);
  const r = await call('POST', '/k', {
    token: who.token,
    ip,
    accept: 'application/json',
    json: {
      error: `Error: Cannot find module 'pkg-${Math.random().toString(36).slice(2, 8)}'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)`,
      fix: 'npm install the missing package and retry',
      eco: 'npm',
      title: 'Cannot find module',
    },
  });
  expect(r.status, r.text).toBe(201);
  return JSON.parse(r.text).id;
}

describe('the notice form', () => {
  it('GET /notice serves the form with a form token (HTML for browsers, text and JSON for agents)', async () => {
    const html = await call('GET', '/notice', { accept: 'text/html' });
    expect(html.status).toBe(200);
    expect(html.text).toMatch(/<input type="hidden" name="ft" value="1\.\d+\.[\w-]+\.[\w-]+">/);
    for (const f of ['url', 'category', 'reason', 'email', 'good_faith']) expect(html.text).toContain(`name="${f}"`);
    expect(html.headers.get('cache-control')).toBe('no-store');
    const txt = await call('GET', '/notice');
    expect(txt.text).toMatch(/^notice form ft=1\.\d+\.\S+ exp=\S+Z\n/);
    expect(txt.text).toContain('categories: illicit copyright privacy defamation malware spam other');
  });

  it('refuses a wrong or missing Origin, a missing, forged or expired ft, a missing field, a non-form body', async () => {
    const ip = freshIp();
    const wrong = await notice(await fields(), ip, 'http://evil.example');
    expect(wrong.status).toBe(400);
    expect(wrong.text).toBe(`err bad origin: the form of ${ORIGIN}/notice only\n`);
    expect((await notice(await fields(), ip, null)).text).toBe(`err bad origin: the form of ${ORIGIN}/notice only\n`);
    const { ft: _drop, ...noFt } = await fields();
    expect((await notice(noFt, ip)).text).toBe('err bad ft: required\n');
    const good = await ft();
    const forged = good.slice(0, -2) + (good.endsWith('AA') ? 'BB' : 'AA');
    expect((await notice(await fields({ ft: forged }), ip)).text).toBe('err bad ft: forged form token; load GET /notice again\n');
    // A token sealed with the real key but expired a second ago.
    const payload = `1.${Math.floor(Date.now() / 1000) - 1}.AAAAAAAAAAAA`;
    const mac = createHmac('sha256', s.config.sealKey).update(`cx-notice-ft-v1|${payload}`).digest().subarray(0, 16).toString('base64url');
    expect((await notice(await fields({ ft: `${payload}.${mac}` }), ip)).text).toBe('err bad ft: form token expired; load GET /notice again\n');
    expect((await notice(await fields({ ft: 'x.y' }), ip)).status).toBe(400);
    for (const f of ['url', 'category', 'reason', 'email', 'good_faith']) {
      const form = await fields();
      delete (form as Record<string, string>)[f];
      expect((await notice(form, ip)).text).toBe(`err bad ${f}: required\n`);
    }
    expect((await notice(await fields({ category: 'rude' }), ip)).status).toBe(400);
    expect((await notice(await fields({ email: 'nobody' }), ip)).status).toBe(400);
    expect((await notice(await fields({ good_faith: 'no' }), ip)).status).toBe(400);
    expect((await notice(await fields({ url: 'https://elsewhere.example/k/k12345678' }), ip)).text).toBe('err bad url: not a page of this service\n');
    const json = await call('POST', '/notice', { json: await fields(), ip, headers: { origin: ORIGIN } });
    expect(json.text).toBe('err bad body: send application/x-www-form-urlencoded\n');
    // None of these was filed.
    expect(sql(s, 'SELECT id FROM gov_notices WHERE net = ?', ip.replace(/\.\d+$/, '.0/24'))).toEqual([]);
  });
});

describe('caps', () => {
  it('3 per network: the 3rd is counted, the 4th queued', async () => {
    const states: string[] = [];
    for (let i = 0; i < 4; i++) states.push((await notice(await fields(), '172.20.1.5')).text.split('\n')[0]!.split(' ')[3]!);
    expect(states).toEqual(['counted', 'counted', 'counted', 'queued']);
    // Another network of another super-group is not affected.
    expect((await notice(await fields(), '172.21.1.5')).text).toMatch(/^ok notice n[0-9a-z]{8} counted\n/);
  });

  it('12 per super-group (IPv4 /16): the 12th is counted, the 13th queued though its network is under its cap', async () => {
    const got: string[] = [];
    // Four /24s of 172.30.0.0/16, three notices each would be 12; the fifth network files the 13th.
    for (const net of [1, 2, 3, 4]) for (let i = 0; i < 3; i++) got.push((await notice(await fields(), `172.30.${net}.9`)).text.split('\n')[0]!.split(' ')[3]!);
    expect(got).toEqual(Array(12).fill('counted'));
    const r = await notice(await fields(), '172.30.5.9');
    expect(r.text.split('\n')[0]).toMatch(/^ok notice n[0-9a-z]{8} queued$/);
    const rows = JSON.parse((await call('GET', '/admin/notices?k=1&f=json', { token: s.config.operatorTokens.poll })).text).rows;
    expect(rows[0]).toMatchObject({ state: 'queued', net: '172.30.5.0/24', sgroup: '172.30.0.0/16' });
  });

  it('a flood from one network is refused after 20 an hour (quota notice), not stored', async () => {
    const states: string[] = [];
    for (let i = 0; i < 20; i++) states.push((await notice(await fields(), '172.40.1.5')).text.split('\n')[0]!.split(' ')[3]!);
    expect(states.filter((x) => x === 'queued')).toHaveLength(17);
    const r = await notice(await fields(), '172.40.1.5');
    expect(r.status).toBe(429);
    expect(r.text).toMatch(/^err quota /);
    expect(sql<{ c: number }>(s, "SELECT count(*) AS c FROM gov_notices WHERE net = '172.40.1.0/24'")[0]!.c).toBe(20);
  });

  it('IPv6 networks are /48 and their super-group /32', async () => {
    const r = await notice(await fields(), '2001:db8:aa:1::5');
    const id = /n[0-9a-z]{8}/.exec(r.text)![0];
    const row = JSON.parse((await call('GET', `/admin/notices?id=${id}`, { token: s.config.operatorTokens.poll, accept: 'application/json' })).text).rows[0];
    expect(row).toMatchObject({ net: '2001:db8:aa::/48', sgroup: '2001:db8::/32' });
  });
});

describe('effects and decisions', () => {
  const tok = () => s.config.operatorTokens;

  it('an illicit notice hides the entry at once; reversed restores it; a second decision is 409', async () => {
    const id = await kbEntry();
    expect((await call('GET', `/k/${id}`)).status).toBe(200);
    const r = await notice(await fields({ url: `${ORIGIN}/kb/${id}`, category: 'illicit' }), freshIp());
    expect(r.text).toMatch(new RegExp(`^ok notice (n[0-9a-z]{8}) hidden\\nref: kb:${id}\\n`));
    const n = /n[0-9a-z]{8}/.exec(r.text)![0];
    expect((await call('GET', `/k/${id}`)).status).toBe(404);
    expect((await call('POST', `/admin/notices/${n}`, { token: tok().poll, json: { decision: 'no' } })).status).toBe(401);
    const rev = await call('POST', `/admin/notices/${n}`, { token: tok().ops, json: { decision: 'no', note: 'not illegal' } });
    expect(rev.text.split('\n')[0]).toBe(`ok ${n} reversed`);
    expect((await call('GET', `/k/${id}`)).status).toBe(200);
    const again = await call('POST', `/admin/notices/${n}`, { token: tok().ops, json: { decision: 'yes' } });
    expect(again.status).toBe(409);
    expect(again.text).toBe('err dup notice already decided\n');
    expect((await call('POST', '/admin/notices/nzzzzzzzz', { token: tok().ops, json: { decision: 'yes' } })).status).toBe(404);
  });

  it('upheld: the content stays down, the KB entry is removed and tombstoned', async () => {
    const id = await kbEntry();
    const r = await notice(await fields({ url: `${ORIGIN}/k/${id}.json`, category: 'illicit' }), freshIp());
    const n = /n[0-9a-z]{8}/.exec(r.text)![0];
    const up = await call('POST', `/admin/notices/${n}`, { token: tok().admin, json: { decision: 'yes' } });
    expect(up.text.split('\n')[0]).toBe(`ok ${n} upheld`);
    expect((await call('GET', `/k/${id}`)).status).toBe(404);
    expect(sql(s, 'SELECT id FROM kb_entries WHERE id = ?', id)).toEqual([]);
    // Tombstoned for the exports (mirrors of earlier exports drop it too).
    expect(sql(s, "SELECT reason FROM export_tombstones WHERE kind = 'kb' AND id = ?", id)).toEqual([{ reason: 'notice' }]);
    const row = JSON.parse((await call('GET', `/admin/notices?id=${n}&f=json`, { token: tok().poll })).text).rows[0];
    expect(row).toMatchObject({
      id: n,
      state: 'upheld',
      ref: `kb:${id}`,
      category: 'illicit',
      email: 'person@example.org',
      good_faith: true,
      decided_by: 'admin',
    });
    expect(Object.keys(row).sort()).toEqual(
      ['category', 'created', 'decided_at', 'decided_by', 'email', 'good_faith', 'id', 'net', 'note', 'reason', 'ref', 'sgroup', 'state', 'url'].sort(),
    );
  });

  it('other categories count as reports of weight 1.0: the third hides the entry; reversing one restores it', async () => {
    const id = await kbEntry();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await notice(await fields({ url: `${ORIGIN}/k/${id}`, category: 'copyright' }), freshIp());
      expect(r.text).toMatch(/^ok notice n[0-9a-z]{8} counted\n/);
      ids.push(/n[0-9a-z]{8}/.exec(r.text)![0]);
      expect((await call('GET', `/k/${id}`)).status).toBe(i < 2 ? 200 : 404);
    }
    await call('POST', `/admin/notices/${ids[0]}`, { token: tok().ops, json: { decision: 'no' } });
    expect((await call('GET', `/k/${id}`)).status).toBe(200);
  });

  it('GET /admin/notices: poll token, open=1 leaves decided ones out, k bounds the rows', async () => {
    expect((await call('GET', '/admin/notices', { token: tok().ops })).status).toBe(401);
    expect((await call('GET', '/admin/notices')).status).toBe(401);
    const all = JSON.parse((await call('GET', '/admin/notices?k=100&f=json', { token: tok().poll })).text).rows;
    const open = JSON.parse((await call('GET', '/admin/notices?k=100&open=1&f=json', { token: tok().poll })).text).rows;
    expect(all.some((r: { decided_at: number | null }) => r.decided_at !== null)).toBe(true);
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((r: { decided_at: number | null }) => r.decided_at === null)).toBe(true);
    expect(JSON.parse((await call('GET', '/admin/notices?k=2&f=json', { token: tok().poll })).text).rows).toHaveLength(2);
    expect((await call('GET', '/admin/notices?k=101', { token: tok().poll })).status).toBe(400);
    // JSON rows by default (spec 4.7); the text form is the twin.
    expect(JSON.parse((await call('GET', '/admin/notices?k=1', { token: tok().poll })).text).rows).toHaveLength(1);
    const txt = (await call('GET', '/admin/notices.txt?k=1', { token: tok().poll })).text;
    expect(txt).toMatch(/^notices n=1\nn[0-9a-z]{8} \w+ \w+ \S+ net=\S+ sgroup=\S+ created=\S+Z decided=\S+\n/);
  });

  it('every filing lands in the operator inbox (inbox.notice)', async () => {
    const evs = await s.core.store.events.read('inbox.notice', 0, 10_000);
    const n = sql<{ c: number }>(s, 'SELECT count(*) AS c FROM gov_notices')[0]!.c;
    // One item per filing (open); a decision is an update of its status.
    const filed = evs.filter((e) => (e.payload as { status: string }).status === 'open');
    expect(filed).toHaveLength(n);
    expect(filed[0]!.payload).toMatchObject({
      ref: expect.stringMatching(/^n[0-9a-z]{8}$/),
      title: expect.stringContaining(' notice ('),
      url: expect.stringContaining('/admin/notices?id=n'),
      groups: 1,
    });
    const decided = sql<{ c: number }>(s, 'SELECT count(*) AS c FROM gov_notices WHERE decided_at IS NOT NULL')[0]!.c;
    expect(evs.filter((e) => ['upheld', 'reversed'].includes((e.payload as { status: string }).status))).toHaveLength(decided);
  });
});
