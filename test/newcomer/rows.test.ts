// The partial rows of issue 40 through the real server: operator inbox rows that carry title, url,
// support and groups and follow decisions; /admin/inbox and /admin/notices as JSON rows with a text
// twin; a long announcement's signed line on /status that verifies with the published key; the
// changelog kept from the releases file.
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { caller, freshIp, identity } from '../gov/helpers.js';
import { parseChangelog } from '../../src/core/docs/content/changelog.js';

let s: TestServer;
let call: ReturnType<typeof caller>;
const ORIGIN = 'http://commons.test';
beforeAll(async () => {
  // Measured shedding off: these tests are about rows and forms, not load (the machine is shared).
  s = await start({ CX_TRUST_PROXY: '1', CX_SHED: '0' });
  call = caller(s);
}, 120_000);
afterAll(async () => s.stop());

type Row = {
  cursor: number;
  id: string;
  kind: string;
  scope: string;
  title: string;
  support_w: number;
  groups: number;
  url: string;
  status: string;
  created: string;
};
const tok = () => s.config.operatorTokens;
/** The inbox as an operator's client reads it: no Accept, no f, so JSON rows (spec 4.7). */
async function inbox(q: string): Promise<Row[]> {
  const r = await call('GET', `/admin/inbox?all=1&k=100${q}`, { token: tok().poll });
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  return (JSON.parse(r.text) as { rows: Row[] }).rows;
}
const rowOf = async (kind: string, id: string) => (await inbox(`&kind=${kind}`)).find((r) => r.id === id);

async function propose(token: string, ip: string, body: Record<string, unknown>): Promise<string> {
  const r = await call('POST', '/v1/p', { token, ip, accept: 'application/json', json: { body: 'Details.', ...body } });
  expect(r.status, r.text).toBe(201);
  return JSON.parse(r.text).id;
}

describe('GET /admin/inbox: rows that say what they are and follow decisions', () => {
  it('proposals: title, page, support and groups as support grows; decided, shipped, vetoed', async () => {
    const aIp = freshIp();
    const author = await identity(s, aIp);
    const p1 = await propose(author.token, aIp, { kind: 'feature', title: 'A dark theme for the pages' });
    let row = await rowOf('proposal', p1);
    expect(row).toMatchObject({
      kind: 'proposal',
      scope: 'feature',
      title: 'new: A dark theme for the pages',
      url: `${ORIGIN}/v1/p/${p1}`,
      status: 'open',
      support_w: 0,
      groups: 0,
    });
    // Two supporters from two networks, one at L3.
    for (const [ip, lvl] of [
      [freshIp(), 0],
      [freshIp(), 3],
    ] as const) {
      const who = await identity(s, ip, lvl);
      expect((await call('POST', `/v1/p/${p1}/support`, { token: who.token, ip })).status).toBe(200);
    }
    row = await rowOf('proposal', p1);
    expect(row).toMatchObject({ support_w: 3.25, groups: 2, status: 'open' });
    const d = await call('POST', '/admin/decide', { token: tok().ops, json: { id: p1, decision: 'yes', task: true } });
    expect(d.status, d.text).toBe(200);
    expect(await rowOf('proposal', p1)).toMatchObject({ status: 'decided', title: 'new: A dark theme for the pages', support_w: 3.25 });
    // Decided items leave the default (open) view.
    expect((JSON.parse((await call('GET', '/admin/inbox?kind=proposal', { token: tok().poll })).text) as { rows: Row[] }).rows.map((r) => r.id)).not.toContain(
      p1,
    );
    const n = /task: #(\d+)/.exec(d.text)![1];
    expect((await call('POST', `/admin/task/${n}/done`, { token: tok().ops, json: { text: 'shipped' } })).status).toBe(200);
    expect(await rowOf('proposal', p1)).toMatchObject({ status: 'shipped' });

    const p2 = await propose(author.token, aIp, { kind: 'policy', title: 'Drop the PoW entirely' });
    expect((await call('POST', '/admin/decide', { token: tok().admin, json: { id: p2, decision: 'veto' } })).status).toBe(200);
    expect(await rowOf('proposal', p2)).toMatchObject({ scope: 'policy', status: 'vetoed' });
  });

  it('checks: a patch opens a check row; its result is recorded', async () => {
    const ip = freshIp();
    const author = await identity(s, ip);
    const p = await propose(author.token, ip, { kind: 'fix', title: 'Fix a typo in /help', patch: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n' });
    expect(await rowOf('check', p)).toMatchObject({
      kind: 'check',
      scope: 'fix',
      title: 'check requested: Fix a typo in /help',
      url: `${ORIGIN}/v1/p/${p}/patch`,
      status: 'open',
    });
    expect((await call('POST', `/admin/proposal/${p}/check`, { token: tok().check, json: { status: 'pass', log: 'ok' } })).status).toBe(200);
    expect(await rowOf('check', p)).toMatchObject({ title: 'check pass: Fix a typo in /help', status: 'recorded' });
  });

  it('notices: the target, its report weight, one group; upheld and reversed', async () => {
    const file = async (url: string) => {
      const ft = JSON.parse((await call('GET', '/notice?f=json')).text).ft as string;
      const r = await call('POST', '/notice', {
        ip: freshIp(),
        headers: { origin: ORIGIN },
        form: { url, category: 'spam', reason: 'Advertising.', email: 'a@example.org', good_faith: 'yes', ft },
      });
      expect(r.status, r.text).toBe(200);
      return /n[0-9a-z]{8}/.exec(r.text)![0];
    };
    const n1 = await file(`${ORIGIN}/about`);
    const n2 = await file(`${ORIGIN}/about`);
    expect(await rowOf('notice', n1)).toMatchObject({
      kind: 'notice',
      scope: 'spam',
      title: 'spam notice (counted) on /about',
      url: `${ORIGIN}/admin/notices?id=${n1}`,
      support_w: 1,
      groups: 1,
      status: 'open',
    });
    expect(await rowOf('notice', n2)).toMatchObject({ support_w: 2, status: 'open' });
    expect((await call('POST', `/admin/notices/${n1}`, { token: tok().ops, json: { decision: 'yes' } })).status).toBe(200);
    expect((await call('POST', `/admin/notices/${n2}`, { token: tok().ops, json: { decision: 'no' } })).status).toBe(200);
    expect(await rowOf('notice', n1)).toMatchObject({ status: 'upheld' });
    expect(await rowOf('notice', n2)).toMatchObject({ status: 'reversed' });
  });
});

describe('/admin/inbox and /admin/notices: JSON rows, the text form as a twin', () => {
  it('JSON by default and with Accept: application/json; text with .txt, ?f=txt and Accept: text/plain', async () => {
    for (const path of ['/admin/inbox', '/admin/notices']) {
      for (const accept of [undefined, '*/*', 'application/json']) {
        const r = await call('GET', path, { token: tok().poll, ...(accept ? { accept } : {}) });
        expect(r.headers.get('content-type'), `${path} ${accept}`).toMatch(/^application\/json/);
        expect(JSON.parse(r.text).rows).toEqual(expect.any(Array));
      }
      const head = path === '/admin/inbox' ? /^inbox rows=\d+ next=\d+\n/ : /^notices n=\d+\n/;
      for (const [p, accept] of [
        [`${path}.txt`, undefined],
        [`${path}?f=txt`, undefined],
        [path, 'text/plain'],
      ] as const) {
        const r = await call('GET', p, { token: tok().poll, ...(accept ? { accept } : {}) });
        expect(r.headers.get('content-type'), p).toMatch(/^text\/plain/);
        expect(r.text).toMatch(head);
      }
      expect(JSON.parse((await call('GET', `${path}.json`, { token: tok().poll })).text).rows).toEqual(expect.any(Array));
      // Refusals stay one line.
      const no = await call('GET', path, { token: tok().ops });
      expect(no.status).toBe(401);
    }
  });
});

describe('/status text: a long announcement keeps a signed line that verifies', () => {
  it('a 300-character announcement (double spaces and all) verifies with /.well-known/cx-key', async () => {
    const text = `Planned maintenance of the drops store:  ${'the disks are replaced one by one, '.repeat(8)}`.slice(0, 300);
    expect(text).toHaveLength(300);
    const starts = new Date(Date.now() + 3_600_000).toISOString();
    const ends = new Date(Date.now() + 7_200_000).toISOString();
    const a = await call('POST', '/admin/announce', { token: tok().admin, json: { kind: 'notice', starts, ends, text } });
    expect(a.status, a.text).toBe(200);
    const status = (await call('GET', '/status', { accept: 'text/plain' })).text;
    const m = /^ann #\d+ \S+Z (ann1 kid=(\d+) sig=([A-Za-z0-9_-]{86}) (.*))$/m.exec(status);
    expect(m, status).not.toBeNull();
    const [, line, kid, sig, payload] = m!;
    expect(line).not.toContain('…');
    expect(payload!.endsWith(`text=${text}`)).toBe(true);
    // Verify as a client would: the published key, the documented signed bytes (/signing).
    const key = (await (await fetch(`${s.url}/.well-known/cx-key`)).json()) as { kid: number; pub: string };
    expect(Number(kid)).toBe(key.kid);
    const pub = createPublicKey({
      key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(key.pub, 'hex')]),
      format: 'der',
      type: 'spki',
    });
    const bytes = Buffer.concat([Buffer.from('cx-sig-v1\0ann1\0'), Buffer.from(payload!, 'utf8')]);
    expect(verify(null, bytes, pub, Buffer.from(sig!, 'base64url'))).toBe(true);
    // One changed byte does not verify (the check can fail).
    expect(verify(null, Buffer.concat([bytes.subarray(0, -1), Buffer.from('X')]), pub, Buffer.from(sig!, 'base64url'))).toBe(false);
    // The .txt twin says the same.
    expect((await call('GET', '/status.txt')).text).toContain(line!);
  });
});

describe('/changelog and /f/log.atom: what shipped since 1.0.0, from CHANGELOG.md', () => {
  it('every release of the file, newest first, in every form and the feed', async () => {
    const file = parseChangelog(readFileSync('CHANGELOG.md', 'utf8'));
    expect(file.length).toBeGreaterThan(1);
    expect(file.at(-1)).toMatchObject({ version: '1.0.0', date: '2026-11-22' });
    // Newest first, and nothing after 1.0.0 is dated before it.
    const dates = file.map((e) => e.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    for (const e of file) expect(e.items.length, e.version).toBeGreaterThan(0);

    const json = JSON.parse((await call('GET', '/changelog.json')).text) as { entries: typeof file };
    expect(json.entries).toEqual(file);
    const txt = (await call('GET', '/changelog')).text;
    for (const e of file) expect(txt).toContain(`\n${e.date} ${e.version} ${e.items[0]!.replace(/`/g, '')}\n`);
    const md = (await call('GET', '/changelog.md')).text;
    for (const e of file) expect(md).toContain(e.version === e.date ? `## ${e.date} - ${e.title}` : `## ${e.version} - ${e.date} - ${e.title}`);
    const html = (await call('GET', '/changelog', { accept: 'text/html' })).text;
    expect(html).toContain(file[0]!.title);
    const atom = (await call('GET', '/f/log.atom')).text;
    const ids = [...atom.matchAll(/<id>([^<]+)<\/id>/g)].map((m) => m[1]).filter((id) => id!.includes('/changelog#'));
    expect(ids).toEqual(file.map((e) => `${ORIGIN}/changelog#${e.version}`));
  });

  it('the parser reads headings and items only', () => {
    expect(
      parseChangelog(
        '# Changelog\nintro\n\n## 2026-12-02 - A day - of work\n- z\n## 1.1.0 - 2026-12-01 - Small\n- one `x`\n- two\nnot an item\n## 1.0.0 - 2026-11-22 - First\n- a\n',
      ),
    ).toEqual([
      { version: '2026-12-02', date: '2026-12-02', title: 'A day - of work', items: ['z'] },
      { version: '1.1.0', date: '2026-12-01', title: 'Small', items: ['one `x`', 'two'] },
      { version: '1.0.0', date: '2026-11-22', title: 'First', items: ['a'] },
    ]);
  });
});
