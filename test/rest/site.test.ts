// The commons' pages for people over HTTP (issue 25): the landing page with live figures read from
// the store, the operation reference generated from the registry, the KB pages as HTML for
// browsers while agents keep the text forms, and published text escaped. test/pages/commons.test.ts
// looks at the same pages in a real browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS } from '../../src/compose/registry.js';
import { register, start, type TestServer } from '../helpers/server.js';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
let s: TestServer;
let entryId: string;
let entries: number;

beforeAll(async () => {
  s = await start();
  const a = await register(s.url, 'author');
  const b = await register(s.url, 'voter');
  const auth = (t: string) => ({ authorization: `Bearer ${t}`, accept: 'application/json' });
  const res = await fetch(`${s.url}/k`, {
    method: 'POST',
    headers: { ...auth(a.token), 'content-type': 'application/json' },
    body: JSON.stringify({
      error: "ModuleNotFoundError: No module named 'zzsite'",
      fix: 'pip install zzsite </pre><script>x()</script>',
      title: 'zzsite <b>missing</b> & "quoted"',
      eco: 'pypi',
    }),
  });
  entryId = ((await res.json()) as { id: string }).id;
  expect((await fetch(`${s.url}/k/${entryId}/ok`, { method: 'POST', headers: auth(b.token) })).status).toBe(200);
  for (const title of ['First open task here', 'Second open task here']) {
    const t = await fetch(`${s.url}/v1/tasks`, {
      method: 'POST',
      headers: { ...auth(a.token), 'content-type': 'application/json' },
      body: JSON.stringify({ title, body: 'details' }),
    });
    expect(t.status).toBe(201);
  }
  entries = ((await (await fetch(`${s.url}/search?q=module&n=1&f=json`)).json()) as { count: number }).count;
  expect(entries).toBeGreaterThan(0);
});
afterAll(async () => s.stop());

const html = async (path: string) => {
  const r = await fetch(`${s.url}${path}`, { headers: BROWSER });
  return { r, h: await r.text() };
};

describe('landing page', () => {
  it('shows the live figures from the store and the newest confirmed fix, escaped, under 50 KB, no script', async () => {
    const { r, h } = await html('/');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(Buffer.byteLength(h)).toBeLessThan(50 * 1024);
    expect(h).not.toMatch(/<script|https?:\/\/(?!commons\.test)/);
    const fig = (label: string) => new RegExp(`<strong>(\\d[\\d,]*)</strong> ${label}`).exec(h)?.[1];
    const total = Number(((await (await fetch(`${s.url}/kb/${new Date().toISOString().slice(0, 7)}/?f=json`)).json()) as { count: number }).count);
    expect(Number(fig('fixes in the knowledge base')!.replace(/,/g, ''))).toBeGreaterThanOrEqual(total);
    expect(fig('fixes confirmed this week')).toBe('1');
    expect(fig('agents')).toBe('2');
    expect(fig('open tasks')).toBe('2');
    expect(h).toContain(`<a href="/kb/${entryId}" class="long">zzsite &lt;b&gt;missing&lt;/b&gt; &amp; &quot;quoted&quot;</a>`);
    expect(h).toContain('<form class="search" method="get" action="/search" role="search">');
    expect(h).toContain('value="http://commons.test/mcp"');
    expect(h).toContain(`All ${OPS.length} operations`);
    // Every link answers. The git mirror's first commit is made by its job 30 s after start (its
    // routes answer 503 with Retry-After until then): make it now, as the job would.
    await s.core.mirror!.sync();
    for (const m of h.matchAll(/href="(\/[^"#?]*)/g)) {
      const res = await fetch(`${s.url}${m[1]}`, { redirect: 'manual', headers: BROWSER });
      expect(res.status, m[1]).toBeLessThan(400);
    }
  });
});

describe('operation reference', () => {
  it('lists every operation of the registry with its route; agents are sent to /index.md', async () => {
    const { r, h } = await html('/reference');
    expect(r.status).toBe(200);
    for (const op of OPS) expect(h).toContain(`<code>${op.name}</code>`);
    expect(h).toContain('<code class="long">GET /search</code>');
    const t = await fetch(`${s.url}/reference`, { redirect: 'manual' });
    expect(t.status).toBe(303);
    expect(t.headers.get('location')).toBe('/index.md');
  });
});

describe('KB pages', () => {
  it('an entry: error and fix as text, counts, twins; nothing published becomes markup', async () => {
    const { r, h } = await html(`/kb/${entryId}`);
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(h).toContain('<h1 class="long">zzsite &lt;b&gt;missing&lt;/b&gt; &amp; &quot;quoted&quot;</h1>');
    expect(h).toContain('<pre>pip install zzsite &lt;/pre&gt;&lt;script&gt;x()&lt;/script&gt;</pre>');
    expect(h).not.toContain('<script>');
    expect(h).toContain('<strong>1</strong> confirmed it worked');
    for (const t of ['txt', 'json', 'md']) expect(h).toContain(`href="/k/${entryId}.${t}"`);
    expect(h).not.toContain('noindex');
  });

  it('month, ecosystem and class hubs are pages for browsers and stay text for agents', async () => {
    const ym = new Date().toISOString().slice(0, 7);
    for (const [path, title, text] of [
      [`/kb/${ym}/`, `Fixes of ${ym}`, `kb ${ym} fixes=`],
      ['/eco/pypi', 'Fixes for pypi', 'eco pypi fixes='],
      ['/err/modulenotfounderror', 'Fixes for modulenotfounderror', 'err modulenotfounderror fixes='],
    ]) {
      const { r, h } = await html(path!);
      expect(r.status, path).toBe(200);
      expect(h).toContain(`<title>${title}</title>`);
      expect(h).toContain(`href="/kb/${entryId}"`);
      expect(r.headers.get('vary')).toContain('accept');
      expect(await (await fetch(`${s.url}${path}`)).text()).toMatch(new RegExp(`^${text}`));
      expect((await (await fetch(`${s.url}${path}?f=json`, { headers: BROWSER })).json()).count).toBeGreaterThan(0);
    }
  });

  it('search: a form without a query, hits with one, the reason when refused; noindex; agents keep text', async () => {
    const empty = await html('/search');
    expect(empty.r.status).toBe(200);
    expect(empty.h).toContain('<input type="search" id="q" name="q" value=""');
    const hit = await html('/search?q=zzsite');
    expect(hit.h).toContain(`href="/kb/${entryId}"`);
    expect(hit.h).toContain('<meta name="robots" content="noindex">');
    const bad = await html('/search?q=%3C');
    expect(bad.r.status).toBe(400);
    expect(bad.h).toContain('value="&lt;"');
    expect(bad.h).toContain('role="alert"');
    const none = await html('/search?q=qqqzzzyyyxxx');
    expect(none.h).toContain('No fix matches.');
    expect(await (await fetch(`${s.url}/search?q=zzsite`)).text()).toMatch(/^search hits=1\n/);
    expect((await fetch(`${s.url}/search`)).status).toBe(400);
  });
});
