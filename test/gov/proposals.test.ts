// Proposals and the roadmap through the real server: every transition of spec 3 and its 409s,
// veto needs the admin token, roadmap tasks ship, checks, support weights and capture metrics, and
// the voted /llms.txt sections with their revisions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { caller, freshIp, identity } from './helpers.js';

let s: TestServer;
let call: ReturnType<typeof caller>;
let author: { id: string; token: string };
let authorIp: string;
let ops: string, admin: string, poll: string, check: string;

beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  call = caller(s);
  ({ ops, admin, poll, check } = s.config.operatorTokens);
  authorIp = freshIp();
  author = await identity(s, authorIp);
});
afterAll(async () => s.stop());

async function file(o: Record<string, unknown> = {}, who = author, ip = authorIp): Promise<string> {
  const r = await call('POST', '/v1/p', {
    token: who.token,
    ip,
    json: { kind: 'feature', title: 'A feature worth having', body: 'Because agents need it.', ...o },
  });
  expect(r.status, r.text).toBe(201);
  const m = /^ok proposal (p[0-9a-z]{6}) open/.exec(r.text);
  expect(m, r.text).not.toBeNull();
  return m![1]!;
}

const decide = (id: string, decision: string, token = admin, extra: Record<string, unknown> = {}) =>
  call('POST', '/admin/decide', { token, json: { id, decision, ...extra } });

/** Drives a fresh proposal into `state` through the real routes. */
async function inState(state: string): Promise<string> {
  const id = await file();
  const go = async (d: string, extra: Record<string, unknown> = {}) => {
    const r = await decide(id, d, admin, extra);
    expect(r.status, r.text).toBe(200);
    return r.text;
  };
  if (state === 'later') await go('later', { revisit_d: 7 });
  if (state === 'accepted') await go('yes');
  if (state === 'declined') await go('no');
  if (state === 'vetoed') await go('veto');
  if (state === 'planned' || state === 'shipped') {
    const t = await go('yes', { task: true });
    if (state === 'shipped') {
      const n = /task: #(\d+)/.exec(t)![1];
      expect((await call('POST', `/admin/task/${n}/done`, { token: ops, json: { text: 'released' } })).text).toBe(`ok ${id} shipped\nnext: GET /gov\n`);
    }
  }
  return id;
}

// Spec 3: the state a decision leads to from each state; '409' is `err dup proposal <state>: <decision> not possible`.
const TABLE: Record<string, Record<string, string>> = {
  open: { yes: 'accepted', no: 'declined', later: 'later', veto: 'vetoed' },
  later: { yes: 'accepted', no: 'declined', later: 'later', veto: 'vetoed' },
  accepted: { yes: '409', no: '409', later: '409', veto: 'vetoed' },
  planned: { yes: '409', no: '409', later: '409', veto: '409' },
  shipped: { yes: '409', no: '409', later: '409', veto: '409' },
  declined: { yes: '409', no: '409', later: '409', veto: '409' },
  vetoed: { yes: '409', no: '409', later: '409', veto: '409' },
};

describe('proposal decisions (spec 3)', () => {
  const cases = Object.entries(TABLE).flatMap(([state, row]) => Object.entries(row).map(([d, next]) => [state, d, next] as const));
  it.each(cases)('%s + %s -> %s', async (state, d, next) => {
    const id = await inState(state);
    expect(JSON.parse((await call('GET', `/v1/p/${id}`, { accept: 'application/json' })).text).state).toBe(state);
    const r = await decide(id, d);
    if (next === '409') {
      expect(r.status).toBe(409);
      expect(r.text).toBe(`err dup proposal ${state}: ${d} not possible\n`);
      expect(JSON.parse((await call('GET', `/v1/p/${id}`, { accept: 'application/json' })).text).state).toBe(state);
    } else {
      expect(r.status, r.text).toBe(200);
      expect(r.text.split('\n')[0]).toBe(`ok ${next} ${id}`);
      expect(JSON.parse((await call('GET', `/v1/p/${id}`, { accept: 'application/json' })).text).state).toBe(next);
    }
  });

  it('yes with task opens a roadmap task (planned) shown on /gov', async () => {
    const id = await file({ title: 'Roadmap item one' });
    const r = await decide(id, 'yes', ops, { task: true, bounty: 50, note: 'good idea' });
    expect(r.status).toBe(200);
    expect(r.text.split('\n')[0]).toBe(`ok planned ${id}`);
    const n = Number(/task: #(\d+)/.exec(r.text)![1]);
    const gov = JSON.parse((await call('GET', '/gov.json')).text);
    expect(gov.roadmap).toContainEqual(expect.objectContaining({ n, proposal: id, state: 'open', bounty: 50, title: 'Roadmap item one' }));
    expect((await call('GET', '/gov')).text).toContain(`task #${n} open ${id} bounty=50 Roadmap item one`);
  });

  it('veto needs the admin token: 403 with ops, and other tokens are refused', async () => {
    const id = await file();
    const r = await decide(id, 'veto', ops);
    expect(r.status).toBe(403);
    expect(r.text).toBe('err auth veto needs the admin token\n');
    for (const t of [poll, check, author.token]) expect((await decide(id, 'yes', t)).status).toBe(401);
    expect((await call('POST', '/admin/decide', { json: { id, decision: 'yes' } })).status).toBe(401);
    expect(JSON.parse((await call('GET', `/v1/p/${id}?f=json`)).text).state).toBe('open');
    expect((await decide(id, 'veto', admin)).text.split('\n')[0]).toBe(`ok vetoed ${id}`);
  });

  it('decision fields are checked: revisit_d 7-90, bounty 0-200, note 300, unknown id 404', async () => {
    const id = await file();
    expect((await decide(id, 'later', ops, { revisit_d: 6 })).status).toBe(400);
    expect((await decide(id, 'later', ops, { revisit_d: 91 })).status).toBe(400);
    expect((await decide(id, 'yes', ops, { task: true, bounty: 201 })).status).toBe(400);
    expect((await decide(id, 'no', ops, { note: 'x'.repeat(301) })).status).toBe(400);
    expect((await decide(id, 'maybe', ops)).status).toBe(400);
    expect((await decide('pzzzzzz', 'yes', ops)).status).toBe(404);
    const later = await decide(id, 'later', ops, { revisit_d: 14 });
    expect(later.text).toMatch(new RegExp(`^ok later ${id}\\nrevisit: \\d{4}-\\d\\d-\\d\\dT`));
  });

  it('task done: 404 for an unknown task, 409 when already done, ops token needed', async () => {
    const id = await file();
    const n = /task: #(\d+)/.exec((await decide(id, 'yes', ops, { task: true })).text)![1];
    expect((await call('POST', `/admin/task/${n}/done`, { token: poll, json: {} })).status).toBe(401);
    const r = await call('POST', `/admin/task/${n}/done`, { token: ops, json: {} });
    expect(r.text).toBe(`ok ${id} shipped\nnext: GET /gov\n`);
    const again = await call('POST', `/admin/task/${n}/done`, { token: ops, json: {} });
    expect(again.status).toBe(409);
    expect(again.text).toBe(`err dup task #${n} already done\n`);
    expect((await call('POST', '/admin/task/99999/done', { token: ops, json: {} })).status).toBe(404);
    expect(JSON.parse((await call('GET', `/v1/p/${id}?f=json`)).text).state).toBe('shipped');
  });
});

describe('checks of proposal patches', () => {
  it('a patch requests a check; checkq lists it; the result is recorded once', async () => {
    const patch = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n';
    const id = await file({ kind: 'fix', title: 'Fix the thing', patch });
    const plain = await file({ kind: 'fix', title: 'Fix without patch' });
    const got = await call('GET', `/v1/p/${id}/patch`);
    expect(got.status).toBe(200);
    expect(got.text).toBe(patch);
    expect(got.headers.get('content-type')).toMatch(/^text\/x-diff/);
    expect((await call('GET', `/v1/p/${plain}/patch`)).status).toBe(404);

    expect((await call('GET', '/admin/checkq', { token: ops })).status).toBe(401);
    const q = JSON.parse((await call('GET', '/admin/checkq?f=json', { token: check })).text);
    const { createHash } = await import('node:crypto');
    expect(q.rows).toContainEqual(expect.objectContaining({ id, blob: createHash('sha256').update(patch).digest('hex'), get: `GET /v1/p/${id}/patch` }));
    expect(q.rows.find((r: { id: string }) => r.id === plain)).toBeUndefined();

    expect((await call('POST', `/admin/proposal/${id}/check`, { token: ops, json: { status: 'pass' } })).status).toBe(401);
    expect((await call('POST', `/admin/proposal/${id}/check`, { token: check, json: { status: 'maybe' } })).status).toBe(400);
    expect((await call('POST', `/admin/proposal/${id}/check`, { token: check, json: { status: 'pass', log: 'x'.repeat(16385) } })).status).toBe(400);
    const ok = await call('POST', `/admin/proposal/${id}/check`, { token: check, json: { status: 'fail', log: 'test failed: 1 of 30' } });
    expect(ok.text.split('\n')[0]).toBe(`ok check fail recorded ${id}`);
    const again = await call('POST', `/admin/proposal/${id}/check`, { token: check, json: { status: 'pass' } });
    expect(again.status).toBe(409);
    expect(again.text).toBe('err dup no check requested\n');
    const none = await call('POST', `/admin/proposal/${plain}/check`, { token: admin, json: { status: 'pass' } });
    expect(none.text).toBe('err dup no check requested\n');
    expect(JSON.parse((await call('GET', `/v1/p/${id}?f=json`)).text).check).toBe('fail');
    expect(JSON.parse((await call('GET', '/admin/checkq?f=json', { token: check })).text).rows.find((r: { id: string }) => r.id === id)).toBeUndefined();
  });
});

describe('inbox events', () => {
  it('filing publishes inbox.proposal and a patch publishes inbox.check', async () => {
    const id = await file({ kind: 'fix', title: 'Inbox me', patch: '+x\n' });
    const props = await s.core.store.events.read('inbox.proposal', 0, 10_000);
    expect(props.map((e) => e.payload)).toContainEqual({
      ref: id,
      scope: 'fix',
      title: 'new: Inbox me',
      support_w: 0,
      groups: 0,
      url: `http://commons.test/v1/p/${id}`,
      status: 'open',
    });
    const checks = await s.core.store.events.read('inbox.check', 0, 10_000);
    expect(checks.map((e) => (e.payload as { ref: string }).ref)).toContain(id);
  });
});

describe('support, weights and capture metrics', () => {
  let t: TestServer;
  let c: ReturnType<typeof caller>;
  beforeAll(async () => {
    t = await start({ CX_TRUST_PROXY: '1' });
    c = caller(t);
  });
  afterAll(async () => t.stop());

  it('weighs support by level, caps it per network, counts networks; /gov/stats shows the shares', async () => {
    const writer = await identity(t, '192.0.2.10');
    const r = await c('POST', '/v1/p', { token: writer.token, ip: '192.0.2.10', json: { kind: 'policy', title: 'Lower the mail quota', body: 'Spam.' } });
    const id = /^ok proposal (p[0-9a-z]{6})/.exec(r.text)![1]!;
    const a = await identity(t, '203.0.113.5', 3);
    const b = await identity(t, '203.0.113.6', 3); // same /24 as a
    const z = await identity(t, '198.18.7.1', 0);
    const sup = async (who: { token: string }, ip: string) => c('POST', `/v1/p/${id}/support`, { token: who.token, ip });
    expect((await sup(a, '203.0.113.5')).text).toBe(`ok support ${id} weight=3 total=3 groups=1\nnext: GET /v1/p/${id}\n`);
    // The network already gave its cap (3): b's weight adds nothing.
    expect((await sup(b, '203.0.113.6')).text.split('\n')[0]).toBe(`ok support ${id} weight=3 total=3 groups=1`);
    expect((await sup(z, '198.18.7.1')).text.split('\n')[0]).toBe(`ok support ${id} weight=0.25 total=3.25 groups=2`);
    const dup = await sup(a, '203.0.113.5');
    expect(dup.status).toBe(409);
    expect(dup.text).toBe('err dup already supported\n');
    expect((await sup(writer, '192.0.2.10')).text).toBe('err dup own proposal: support not possible\n');
    expect((await c('POST', `/v1/p/${id}/support`, { ip: '192.0.2.99' })).status).toBe(401);
    const p = JSON.parse((await c('GET', `/v1/p/${id}?f=json`)).text);
    expect(p).toMatchObject({ support_w: 3.25, groups: 2, supporters: 3 });
    expect((await c('GET', '/v1/p')).text).toContain(`p ${id} open w=3.25 groups=2 kind=policy Lower the mail quota`);

    const st = JSON.parse((await c('GET', '/gov/stats.json')).text);
    // Raw weights 3 + 3 + 0.25 = 6.25: the top root holds 3/6.25, the top network (a and b) 6/6.25.
    expect(st).toMatchObject({
      supports: 3,
      weight: 6.25,
      roots: 3,
      nets: 2,
      root_share: { top1: 0.48, top3: 1, top10: 1 },
      net_share: { top1: 0.96, top3: 1, top10: 1 },
    });
    expect(st.top_nets[0]).toEqual({ net: '203.0.113.0/24', w: 6 });
    expect(st.proposals.open).toBe(1);
    const txt = (await c('GET', '/gov/stats')).text;
    expect(txt).toContain('root_share top1=0.48 top3=1 top10=1');
    expect(txt).toContain('net_share top1=0.96 top3=1 top10=1');
    // Once decided, support is closed.
    await c('POST', '/admin/decide', { token: t.config.operatorTokens.ops, json: { id, decision: 'no' } });
    expect((await sup(z, '198.18.7.1')).text).toBe('err dup proposal declined: support not possible\n');
  });

  it('/gov publishes the weights and rules; its HTML escapes agent titles', async () => {
    const w = await identity(t, '192.0.2.44');
    await c('POST', '/v1/p', { token: w.token, ip: '192.0.2.44', json: { kind: 'feature', title: 'Make <b>bold</b> & "quoted"', body: 'x' } });
    const txt = (await c('GET', '/gov')).text;
    expect(txt).toMatch(/^gov levels=4 net_cap=3 /);
    expect(txt).toContain('level L0 weight=0.25 ');
    expect(txt).toContain('level L3 weight=3 ');
    expect(txt).toContain('decision open later -> later');
    expect(txt).toContain('notice caps: 3 per network');
    const html = await c('GET', '/gov', { accept: 'text/html' });
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.text).toContain('Make &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;');
    expect(html.text).not.toContain('<b>bold</b>');
    expect(JSON.parse((await c('GET', '/gov.json')).text).levels).toEqual([
      { lvl: 0, weight: 0.25, rep: 0, confirmed: 0, age_d: 0 },
      { lvl: 1, weight: 1, rep: 5, confirmed: 1, age_d: 1 },
      { lvl: 2, weight: 2, rep: 25, confirmed: 5, age_d: 7 },
      { lvl: 3, weight: 3, rep: 100, confirmed: 20, age_d: 30 },
    ]);
  });

  it('llms wording: support adopts it as a new revision, ?rev serves history, a veto restores', async () => {
    const before = (await c('GET', '/llms.txt')).text;
    expect(before).toContain('## Norms\n- Confirm a fix that worked');
    const w = await identity(t, '192.0.2.50');
    const bad = await c('POST', '/v1/p', {
      token: w.token,
      ip: '192.0.2.50',
      json: { kind: 'llms', section: 'norms', title: 'Norms', body: '## Heading injection' },
    });
    expect(bad.status).toBe(400);
    expect((await c('POST', '/v1/p', { token: w.token, ip: '192.0.2.50', json: { kind: 'llms', section: 'nope', title: 'Norms', body: '- x' } })).status).toBe(
      400,
    );
    const r = await c('POST', '/v1/p', {
      token: w.token,
      ip: '192.0.2.50',
      json: { kind: 'llms', section: 'norms', title: 'Kinder norms', body: '- Be kind to other agents.\n- Confirm what worked.' },
    });
    const id = /^ok proposal (p[0-9a-z]{6})/.exec(r.text)![1]!;
    const x = await identity(t, '100.64.1.1', 3);
    const y = await identity(t, '100.65.1.1', 3);
    expect((await c('POST', `/v1/p/${id}/support`, { token: x.token, ip: '100.64.1.1' })).text.split('\n')[0]).toBe(
      `ok support ${id} weight=3 total=3 groups=1`,
    );
    const adopt = await c('POST', `/v1/p/${id}/support`, { token: y.token, ip: '100.65.1.1' });
    expect(adopt.text.split('\n')[0]).toBe(`ok support ${id} weight=3 total=6 groups=2 adopted rev=2`);
    const now = await c('GET', '/llms.txt');
    expect(now.headers.get('x-llms-rev')).toBe('2');
    expect(now.text).toContain('## Norms\n- Be kind to other agents.\n- Confirm what worked.\n');
    expect(Buffer.byteLength(now.text)).toBeLessThan(1200);
    expect((await c('GET', '/llms.txt?rev=1')).text).toBe(before);
    expect((await c('GET', '/llms.txt?rev=3')).status).toBe(404);
    expect(JSON.parse((await c('GET', `/v1/p/${id}?f=json`)).text).state).toBe('accepted');
    // The operator's veto (admin) puts the previous wording back as revision 3; revision 2 stays.
    expect((await c('POST', '/admin/decide', { token: t.config.operatorTokens.ops, json: { id, decision: 'veto' } })).status).toBe(403);
    const veto = await c('POST', '/admin/decide', { token: t.config.operatorTokens.admin, json: { id, decision: 'veto' } });
    expect(veto.text).toBe(`ok vetoed ${id}\nllms: rev=3\nnext: GET /gov\n`);
    expect((await c('GET', '/llms.txt')).text).toBe(before);
    expect((await c('GET', '/llms.txt')).headers.get('x-llms-rev')).toBe('3');
    expect((await c('GET', '/llms.txt?rev=2')).text).toContain('- Be kind to other agents.');
  });
});
