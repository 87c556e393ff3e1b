// Feeds through the real server: every public list as Atom and JSON Feed 1.1, read back with
// feedsmith's parsers; the items are the data this test creates; conditional requests, n and
// since at their edges, names, shedding, and hostile text that stays data.
import { parseAtomFeed, parseJsonFeed, type AtomFeed, type JsonFeed } from 'feedsmith';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGELOG } from '../../src/core/docs/content/changelog.js';
import type { NewEntry } from '../../src/core/kb/ports.js';
import { publishLine } from '../../src/core/swarm/lines.js';
import { agent, get, post, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';

const BASE = 'http://commons.test';
const HOSTILE_TITLE = 'Hostile <script>alert(1)</script> ]]> title & "quotes"';
const HOSTILE_FIX = 'Run it again: <script>alert("x")</script> then ]]> and <![CDATA[ and &amp; done.';
const HOSTILE_LINE = 'line <script>alert(2)</script> ]]> <b>bold</b> & more';

let s: TestServer;
let alice: Who;
let bob: Who;
const ids: Record<string, string> = {};

async function kbAdd(who: Who, body: Record<string, unknown>): Promise<string> {
  const r = await post(s, '/k', who, body, { accept: 'application/json' });
  expect(r.status, await r.clone().text()).toBe(201);
  return ((await r.json()) as { id: string }).id;
}

async function taskAdd(who: Who, body: Record<string, unknown>): Promise<string> {
  const r = await post(s, '/v1/tasks', who, body, { accept: 'application/json' });
  expect(r.status, await r.clone().text()).toBe(201);
  return ((await r.json()) as { id: string }).id;
}

beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '0' });
  [alice, bob] = await Promise.all([agent(s, 'alice'), agent(s, 'bob')]);
  ids.e1 = await kbAdd(alice, {
    error: 'ZetaError: widget zeta-frobnicator failed to start (code 17)',
    fix: 'Upgrade zeta-lib to 1.2.0 and restart the widget.',
    title: 'Zeta widget crashes on start',
    eco: 'npm',
    tags: ['feedtag', 'zeta'],
    libs: ['zeta-lib@1.2.0'],
  });
  ids.e2 = await kbAdd(alice, {
    error: 'QuuxError: the quux pipeline stalled at stage nine',
    fix: HOSTILE_FIX,
    title: HOSTILE_TITLE,
    eco: 'pypi',
    tags: ['other'],
  });
  expect((await post(s, `/k/${ids.e1}/ok`, bob)).status).toBe(200);
  ids.t1 = await taskAdd(alice, { title: 'Hostile task <script>x</script>', body: `Body with ${HOSTILE_FIX}`, tags: 'feeds' });
  expect((await post(s, '/v1/spaces', alice, { slug: 'feedspace', title: 'Feed space' })).status).toBe(201);
  ids.t2 = await taskAdd(alice, { title: 'Space task for the feed', body: 'in the space', space: 'feedspace' });
  const miss = await fetch(`${s.url}/e`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'x-forwarded-for': bob.net },
    body: 'PlughError: nobody has fixed the plugh gizmo yet',
  });
  expect(miss.status).toBe(404);
  await publishLine(s.core, 'g:feedtest', HOSTILE_LINE, { by: alice.id });
  await publishLine(s.core, 'g:sys', 'ann1 maintenance 2026-12-01T00:00:00Z: database upgrade', { by: 'sys' });
});
afterAll(async () => s?.stop());

interface Both {
  atom: AtomFeed.Feed<string>;
  json: JsonFeed.Feed<string>;
  atomRaw: string;
  jsonRaw: string;
  ids: string[];
}

/** Both twins of a feed, parsed, checked to carry the same items in the same order. */
async function both(name: string, query = ''): Promise<Both> {
  const ra = await get(s, `/f/${name}.atom${query}`);
  const rj = await get(s, `/f/${name}.json${query}`);
  const atomRaw = await ra.text();
  const jsonRaw = await rj.text();
  expect(ra.status, atomRaw).toBe(200);
  expect(rj.status, jsonRaw).toBe(200);
  expect(ra.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
  expect(rj.headers.get('content-type')).toBe('application/feed+json; charset=utf-8');
  for (const r of [ra, rj]) {
    expect(r.headers.get('cache-control')).toBe('public, max-age=300');
    expect(r.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(Date.parse(r.headers.get('last-modified')!)).not.toBeNaN();
  }
  const atom = parseAtomFeed(atomRaw);
  const json = parseJsonFeed(jsonRaw);
  const j = JSON.parse(jsonRaw) as { version: string; items: unknown[] };
  expect(j.version).toBe('https://jsonfeed.org/version/1.1');
  expect(Array.isArray(j.items)).toBe(true);
  // Atom: the feed's author stands in for entries without one.
  expect(atom.authors).toEqual([{ name: 'Agent Commons', uri: BASE }]);
  expect(atom.id).toBe(`${BASE}/f/${name.split('/').map(encodeURIComponent).join('/')}.atom`);
  expect(json.feed_url).toBe(`${BASE}/f/${name.split('/').map(encodeURIComponent).join('/')}.json`);
  const jIds = (json.items ?? []).map((i) => i.id!);
  expect((atom.entries ?? []).map((e) => e.id)).toEqual(jIds);
  expect((atom.entries ?? []).map((e) => e.title?.value ?? '')).toEqual((json.items ?? []).map((i) => i.title ?? ''));
  for (const i of json.items ?? []) {
    expect(i.id).toMatch(/^http:\/\/commons\.test\//);
    expect(i.url).toMatch(/^http:\/\/commons\.test\//);
    expect(i.content_text?.length).toBeGreaterThan(0);
    expect(i.content_html).toBeUndefined();
    expect(Date.parse(String(i.date_published))).not.toBeNaN();
  }
  // Agents' text never reaches the XML as markup: outside CDATA sections there is no tag of theirs.
  expect(atomRaw.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '')).not.toMatch(/<script|<b>/);
  return { atom, json, atomRaw, jsonRaw, ids: jIds };
}

const k = (id: string) => `${BASE}/k/${id}`;
const t = (id: string) => `${BASE}/v1/tasks/${id}`;

describe('every public list, both formats, items as created', () => {
  it('kb: the newest fixes first; kb/<tag>: those carrying the tag', async () => {
    expect((await both('kb')).ids).toEqual([k(ids.e2!), k(ids.e1!)]);
    const tagged = await both('kb/feedtag');
    expect(tagged.ids).toEqual([k(ids.e1!)]);
    const item = tagged.json.items![0]!;
    expect(item).toMatchObject({
      title: 'Zeta widget crashes on start',
      tags: ['feedtag', 'zeta'],
      authors: [{ name: alice.id, url: `${BASE}/a/${alice.id}` }],
    });
    expect(item.summary).toBe('Upgrade zeta-lib to 1.2.0 and restart the widget.');
    expect(item.content_text).toContain('libs: zeta-lib@1.2.0');
    expect(tagged.atom.entries![0]!.categories!.map((c) => c.term)).toEqual(['feedtag', 'zeta']);
    expect((await both('kb/nothing-tagged')).ids).toEqual([]);
  });

  it('v/<lib>: entries naming the library with the version they name', async () => {
    const f = await both('v/zeta-lib');
    expect(f.ids).toEqual([k(ids.e1!)]);
    expect(f.json.items![0]!.title).toBe('zeta-lib@1.2.0: Zeta widget crashes on start');
    expect((await both('v/@scope/never-named')).ids).toEqual([]);
  });

  it("t: open tasks as GET /v1/tasks lists them; s/<slug>: the space's tasks", async () => {
    const board = (await (await get(s, '/v1/tasks', null, { accept: 'application/json' })).json()) as { rows: Array<{ id: string }> };
    const f = await both('t');
    expect(f.ids).toEqual(board.rows.map((r) => t(r.id)));
    expect(f.ids).toEqual([t(ids.t2!), t(ids.t1!)]);
    expect((await both('s/feedspace')).ids).toEqual([t(ids.t2!)]);
  });

  it("a/<id>: an identity's fixes and posted tasks, newest first", async () => {
    const f = await both(`a/${alice.id}`);
    expect(new Set(f.ids)).toEqual(new Set([k(ids.e1!), k(ids.e2!), t(ids.t1!), t(ids.t2!)]));
    const dates = f.json.items!.map((i) => Date.parse(String(i.date_published)));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect((await both(`a/${bob.id}`)).ids).toEqual([]);
  });

  it('q/<query>: KB search hits', async () => {
    expect((await both('q/zeta widget')).ids).toEqual([k(ids.e1!)]);
    expect((await both('q/nosuchwordanywhere')).ids).toEqual([]);
  });

  it('ch: the release ladder of /cutoff', async () => {
    const cutoff = (await (await get(s, '/cutoff?f=json')).json()) as { rows: Array<{ lib: string; ver: string }> };
    expect(cutoff.rows).toEqual([expect.objectContaining({ lib: 'zeta-lib', ver: '1.2.0' })]);
    const f = await both('ch');
    expect(f.json.items!.map((i) => i.title)).toEqual(['zeta-lib 1.2.0']);
  });

  it('wanted: the signatures of /wanted', async () => {
    const w = (await (await get(s, '/wanted?f=json')).json()) as { rows: Array<{ h: string; sig: string }> };
    expect(w.rows).toHaveLength(1);
    const f = await both('wanted');
    expect(f.ids).toEqual([`${BASE}/h/${w.rows[0]!.h}`]);
    expect(f.json.items![0]!.title).toBe(w.rows[0]!.sig);
  });

  it('log: the releases of /changelog', async () => {
    const c = (await (await get(s, '/changelog.json')).json()) as { entries: typeof CHANGELOG };
    const f = await both('log');
    expect(f.ids).toEqual(c.entries.map((e) => `${BASE}/changelog#${e.version}`));
    expect(f.json.items![0]!.date_published).toBe(`${c.entries[0]!.date}T00:00:00.000Z`);
  });

  it('ps/<topic>: lines of a public g: topic; sys: the lines of g:sys', async () => {
    const f = await both('ps/g:feedtest');
    expect(f.json.items).toHaveLength(1);
    expect(f.json.items![0]).toMatchObject({ title: HOSTILE_LINE, authors: [{ name: alice.id, url: `${BASE}/a/${alice.id}` }] });
    expect((await both('ps/g:empty-topic')).ids).toEqual([]);
    const sys = await both('sys');
    expect(sys.json.items!.map((i) => i.title)).toEqual(['ann1 maintenance 2026-12-01T00:00:00Z: database upgrade']);
    // Other topic forms are not public: no feed, whether or not they have lines.
    await publishLine(s.core, '~private', 'mine', { by: alice.id });
    for (const topic of ['~private', 's:feedspace.news', 'r:room.x']) {
      const r = await get(s, `/f/ps/${encodeURIComponent(topic)}.json`);
      expect(r.status).toBe(404);
      expect(await r.text()).toBe('err notfound no feed\n');
    }
  });

  it('p: proposals, newest first, with their state; hostile titles stay text', async () => {
    const r = await post(
      s,
      '/v1/p',
      alice,
      { kind: 'feature', title: 'Feeds for <b>proposals</b>', body: 'So agents can follow governance.' },
      { accept: 'application/json' },
    );
    expect(r.status, await r.clone().text()).toBe(201);
    const id = ((await r.json()) as { id: string }).id;
    const f = await both('p');
    expect(f.json.items![0]).toMatchObject({ id: `${BASE}/v1/p/${id}`, title: `${id} [open] Feeds for <b>proposals</b>` });
    expect(f.atom.entries![0]!.title!.value).toBe(`${id} [open] Feeds for <b>proposals</b>`);
    expect(f.json.items![0]!.tags).toEqual(['feature', 'open']);
  });

  it('st/<target>: the target state first; unknown and hidden targets have no feed', async () => {
    const f = await both('st/api');
    expect(f.json.items![0]!.title).toBe('api: operational');
    expect(f.json.home_page_url).toBe(`${BASE}/st/api`);
    const admin = { authorization: `Bearer ${s.config.operatorTokens.admin}`, 'content-type': 'application/json' };
    const hide = (restore: boolean) => fetch(`${s.url}/admin/st-hide`, { method: 'POST', headers: admin, body: JSON.stringify({ target: 'api', restore }) });
    expect((await hide(false)).status).toBe(200);
    for (const name of ['st/api', 'st/nosuchtarget']) {
      for (const ext of ['atom', 'json']) {
        const r = await get(s, `/f/${name}.${ext}`);
        expect(r.status).toBe(404);
        expect(await r.text()).toBe('err notfound no feed\n');
      }
    }
    expect((await hide(true)).status).toBe(200);
    expect((await get(s, '/f/st/api.json')).status).toBe(200);
  });
});

describe('untrusted text stays data', () => {
  it('<script> and ]]> in titles, fixes, task bodies and topic lines come back exactly, in both formats', async () => {
    const f = await both('kb');
    const je = f.json.items!.find((i) => i.id === k(ids.e2!))!;
    const ae = f.atom.entries!.find((e) => e.id === k(ids.e2!))!;
    expect(je.title).toBe(HOSTILE_TITLE);
    expect(ae.title!.value).toBe(HOSTILE_TITLE);
    expect(ae.title!.type).toBe('text');
    expect(je.summary).toBe(HOSTILE_FIX);
    expect(ae.summary!.value).toBe(HOSTILE_FIX);
    expect(je.content_text).toContain(HOSTILE_FIX);
    expect(ae.content!.value).toContain(HOSTILE_FIX);
    expect(ae.content!.type).toBe('text');
    // The XML escapes a raw ]]> by splitting its CDATA section.
    expect(f.atomRaw).toContain(']]]]><![CDATA[>');
    const task = (await both('t')).atom.entries!.find((e) => e.id === t(ids.t1!))!;
    expect(task.title!.value).toBe('Hostile task <script>x</script>');
    expect(task.content!.value).toContain(HOSTILE_FIX);
    const line = (await both('ps/g:feedtest')).atom.entries![0]!;
    expect(line.title!.value).toBe(HOSTILE_LINE);
  });

  it('characters XML cannot carry are dropped from both twins alike', async () => {
    await publishLine(s.core, 'g:ctl', 'bell\u0007 and nul\u0000 and \uFFFF gone', { by: 'sys' });
    const f = await both('ps/g:ctl');
    expect(f.atom.entries![0]!.title!.value).toBe('bell and nul and gone');
    expect(f.json.items![0]!.title).toBe('bell and nul and gone');
    // The line store already turns controls into spaces; what is left of them must not reach XML.
    expect(f.atom.entries![0]!.content!.value).toMatch(/^bell +and nul +and +gone\n/);
    expect(f.json.items![0]!.content_text).toBe(f.atom.entries![0]!.content!.value);
    expect(f.atomRaw).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
  });
});

describe('conditional requests', () => {
  it('ETag: If-None-Match gives 304 (also weak and *), another tag 200; a change gives a new tag', async () => {
    const r1 = await get(s, '/f/kb.json');
    const body1 = await r1.text();
    const etag = r1.headers.get('etag')!;
    const lm = r1.headers.get('last-modified')!;
    const again = await get(s, '/f/kb.json');
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe(body1);
    const atom = await get(s, '/f/kb.atom');
    expect(atom.headers.get('etag')).not.toBe(etag);
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const r = await get(s, '/f/kb.json', null, { 'if-none-match': inm });
      expect(r.status, inm).toBe(304);
      expect(await r.text()).toBe('');
      expect(r.headers.get('etag')).toBe(etag);
      expect(r.headers.get('last-modified')).toBe(lm);
      expect(r.headers.get('cache-control')).toBe('public, max-age=300');
    }
    expect((await get(s, '/f/kb.json', null, { 'if-none-match': '"nope"' })).status).toBe(200);
    // A different n or since is a different list: its own tag.
    expect((await get(s, '/f/kb.json?n=1', null, { 'if-none-match': etag })).status).toBe(200);
    const head = await fetch(`${s.url}/f/kb.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);

    const e3 = await kbAdd(bob, { error: 'FrobError: the frob failed again', fix: 'Clear the frob cache and retry.', eco: 'npm' });
    const r2 = await get(s, '/f/kb.json', null, { 'if-none-match': etag });
    expect(r2.status).toBe(200);
    expect(r2.headers.get('etag')).not.toBe(etag);
    expect(((await r2.json()) as { items: Array<{ id: string }> }).items[0]!.id).toBe(k(e3));
  });

  it('Last-Modified: If-Modified-Since at or after it gives 304, before it 200; If-None-Match decides when both are sent', async () => {
    const r = await get(s, '/f/kb/feedtag.atom');
    const lm = r.headers.get('last-modified')!;
    const etag = r.headers.get('etag')!;
    const f = parseAtomFeed(await r.text());
    expect(Date.parse(lm)).toBe(Math.floor(Date.parse(String(f.entries![0]!.updated)) / 1000) * 1000);
    expect((await get(s, '/f/kb/feedtag.atom', null, { 'if-modified-since': lm })).status).toBe(304);
    expect((await get(s, '/f/kb/feedtag.atom', null, { 'if-modified-since': new Date(Date.parse(lm) + 3_600_000).toUTCString() })).status).toBe(304);
    expect((await get(s, '/f/kb/feedtag.atom', null, { 'if-modified-since': new Date(Date.parse(lm) - 1000).toUTCString() })).status).toBe(200);
    expect((await get(s, '/f/kb/feedtag.atom', null, { 'if-modified-since': 'not a date' })).status).toBe(200);
    expect((await get(s, '/f/kb/feedtag.atom', null, { 'if-modified-since': lm, 'if-none-match': '"other"' })).status).toBe(200);
    expect((await get(s, '/f/kb/feedtag.atom', null, { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT', 'if-none-match': etag })).status).toBe(304);
  });
});

describe('n and since at their edges', () => {
  const T0 = Date.parse('2026-01-01T00:00:00Z');
  const iso = (ms: number) => new Date(ms).toISOString();
  let bulk: string[] = [];

  beforeAll(async () => {
    // 55 entries one second apart, tagged bulk (newest is i = 54).
    const rows: NewEntry[] = Array.from({ length: 55 }, (_, i) => ({
      id: `kbulk${String(i).padStart(4, '0')}`,
      sig: `bulk:sig:${i}`,
      h: `${i}`.padStart(64, '0'),
      title: `Bulk entry ${i}`,
      error: `BulkError ${i}`,
      fix: `fix number ${i}`,
      eco: 'npm',
      cls: 'bulkerror',
      tags: ['bulk'],
      libs: [],
      author: bob.id,
      created: T0 + i * 1000,
    }));
    expect(await s.core.store.kb.insertMany(rows)).toBe(55);
    bulk = rows.map((r) => k(r.id)).reverse();
  });

  it('n: default 20, 1, 50; 0, 51 and non-integers are 400', async () => {
    expect((await both('kb/bulk')).ids).toEqual(bulk.slice(0, 20));
    expect((await both('kb/bulk', '?n=1')).ids).toEqual(bulk.slice(0, 1));
    expect((await both('kb/bulk', '?n=50')).ids).toEqual(bulk.slice(0, 50));
    for (const n of ['0', '51', '-1', '1.5', 'abc', '', '1e1', '0050000']) {
      for (const ext of ['atom', 'json']) {
        const r = await get(s, `/f/kb/bulk.${ext}?n=${n}`);
        expect(r.status, n).toBe(400);
        expect(await r.text()).toBe('err bad n: an integer 1-50\n');
      }
    }
  });

  it('since: items at or after it (inclusive to the millisecond), with n; offsets; a future since is empty; bad dates are 400', async () => {
    expect((await both('kb/bulk', `?since=${iso(T0 + 40_000)}&n=50`)).ids).toEqual(bulk.slice(0, 15));
    expect((await both('kb/bulk', `?since=${iso(T0 + 40_001)}&n=50`)).ids).toEqual(bulk.slice(0, 14));
    expect((await both('kb/bulk', `?since=${encodeURIComponent('2026-01-01T01:00:40+01:00')}&n=50`)).ids).toEqual(bulk.slice(0, 15));
    expect((await both('kb/bulk', `?since=${iso(T0 + 40_000)}&n=5`)).ids).toEqual(bulk.slice(0, 5));
    expect((await both('kb/bulk', `?since=${iso(T0)}&n=50`)).ids).toEqual(bulk.slice(0, 50));
    expect((await both('kb/bulk', '?since=2030-01-01T00:00:00Z')).ids).toEqual([]);
    expect((await both('log', '?since=2030-01-01T00:00:00Z')).ids).toEqual([]);
    for (const since of [
      'yesterday',
      '2026-13-01T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2026-11-24',
      '2026-11-24T25:00:00Z',
      '2026-11-24T12:00:00',
      '1700000000',
      '',
    ]) {
      const r = await get(s, `/f/kb/bulk.json?since=${encodeURIComponent(since)}`);
      expect(r.status, since).toBe(400);
      expect(await r.text()).toBe('err bad since: an RFC 3339 date-time, e.g. 2026-11-24T12:00:00Z\n');
    }
  });
});

describe('names', () => {
  it('unknown feeds are 404; malformed names are 400', async () => {
    for (const path of [
      '/f/nope.json',
      '/f/nope.atom',
      '/f/kb.xml',
      '/f/kb',
      '/f/t/extra.json',
      '/f/a.json',
      `/f/a/a0zzzz.json`,
      '/f/s/no-such-space.atom',
      '/f/ch/x.json',
      '/f/__proto__.json',
      '/f/constructor.atom',
    ]) {
      const r = await get(s, path);
      expect(r.status, path).toBe(404);
      expect(await r.text()).toBe('err notfound no feed\n');
    }
    for (const name of ['kb/', 'kb/Bad Tag', 'a/zz', 's/-x', 'v/%20', 'ps/bad topic!', `q/${'x'.repeat(511)}`, 'q/x']) {
      const r = await get(
        s,
        `/f/${name
          .split('/')
          .map((p, i) => (i === 0 ? p : encodeURIComponent(p)))
          .join('/')}.json`,
      );
      expect(r.status, name).toBe(400);
      expect(await r.text()).toMatch(/^err bad feed name: /);
    }
  });
});

describe('shedding and links', () => {
  it('feeds are shed first: 503 err busy with Retry-After while any shed level holds, other reads still served', async () => {
    await s.core.control.setShed(1, 'test', 'admin');
    try {
      for (const path of ['/f/kb.atom', '/f/kb.json', '/f/log.json']) {
        const r = await get(s, path);
        expect(r.status).toBe(503);
        expect(r.headers.get('retry-after')).toBe('10');
        expect(await r.text()).toMatch(/^err busy /);
      }
      expect((await get(s, `/k/${ids.e1}`)).status).toBe(200);
    } finally {
      await s.core.control.setShed(0, '', 'admin');
    }
    expect((await get(s, '/f/kb.json')).status).toBe(200);
  });

  it('the landing page, monthly archives, search results and /changelog link their feeds in the HTML head', async () => {
    const landing = await (await get(s, '/', null, { accept: 'text/html' })).text();
    expect(landing).toContain('<link rel="alternate" type="application/atom+xml" href="/f/kb.atom">');
    expect(landing).toContain('<link rel="alternate" type="application/feed+json" href="/f/kb.json">');
    const month = await (await get(s, '/kb/2026-01/', null, { accept: 'text/html' })).text();
    expect(month).toContain('<link rel="alternate" type="application/atom+xml" href="/f/kb.atom">');
    const search = await (await get(s, '/search?q=zeta%20widget', null, { accept: 'text/html' })).text();
    expect(search).toContain('<link rel="alternate" type="application/atom+xml" href="/f/q/zeta%20widget.atom">');
    expect((await get(s, '/f/q/zeta%20widget.atom')).status).toBe(200);
    const log = await (await get(s, '/changelog', null, { accept: 'text/html' })).text();
    expect(log).toContain(`<link rel="alternate" type="application/atom+xml" href="${BASE}/f/log.atom">`);
  });
});
