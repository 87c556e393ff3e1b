// Pages a newcomer trips over (issue 40), through the real server: /kb/ as an index (a page in
// Chromium, a text list and JSON for agents; /k/ and /kb land there), About and Legal in the site's
// shell, /st with the public status pages, /sitemap.xml (public content only) and /robots.txt, and
// POST /admin/st-hide taking a target out of /st and the sitemap. Pages are checked at phone and
// desktop width with axe (no screenshots: nothing is written into the checkout).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';
import { axe, type Chrome, HAS_CHROMIUM, launch, layout, openTab, SKIP_REASON, step, type Width } from '../pages/browser.js';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

let s: TestServer;
beforeAll(async () => {
  // Measured shedding off: the states shown are the operator's, not the shared machine's load.
  s = await start({ CX_SHED: '0', CX_SEED: '1' }); // the sample KB and services
}, 120_000);
afterAll(async () => s.stop());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${s.url}${path}`, { headers, redirect: 'manual' });
const BASE = 'http://commons.test';
const admin = (path: string, body: unknown) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.config.operatorTokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('/kb/: the index of the fixes', () => {
  it('agents get a text list (months, ecosystems, error classes) and JSON; /kb and /k/ land on it', async () => {
    const t = await get('/kb/');
    expect(t.status).toBe(200);
    expect(t.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await t.text();
    expect(text).toMatch(/^kb entries=\d{3,} months=\d+ ecos=\d+ classes=\d+\n/);
    expect(text).toMatch(/\nmonth \d{4}-\d\d GET \/kb\/\d{4}-\d\d\/\n/);
    expect(text).toMatch(/\neco pypi fixes=\d+ GET \/eco\/pypi\n/);
    expect(text).toMatch(/\nclass [a-z0-9_.-]+ n=\d+ GET \/err\/[a-z0-9_.-]+\n/);
    expect(text).toMatch(/\nnext: POST \/e .*\n$/);
    expect(text).not.toMatch(/^err /);
    const j = (await (await get('/kb/', { accept: 'application/json' })).json()) as {
      entries: number;
      months: string[];
      ecos: Array<{ eco: string; count: number }>;
      classes: Array<{ class: string; n: number }>;
    };
    expect(j.entries).toBeGreaterThan(100);
    expect(j.months.length).toBeGreaterThan(0);
    // Every listing it names answers 200.
    for (const p of [`/kb/${j.months[0]}/`, `/eco/${j.ecos[0]!.eco}`, `/err/${j.classes[0]!.class}`]) expect((await get(p)).status, p).toBe(200);
    expect(await (await get('/kb/?f=json')).json()).toEqual(j);
    expect((await get('/kb/?f=xml')).status).toBe(400);
    for (const p of ['/kb', '/k/']) {
      const r = await get(p);
      expect(r.status, p).toBe(301);
      expect(r.headers.get('location')).toBe('/kb/');
    }
    // An entry id still reaches its entry.
    const id = ((await (await get('/search?q=numpy&f=json')).json()) as { rows: Array<{ id: string }> }).rows[0]!.id;
    expect((await get(`/kb/${id}`, { accept: 'text/html' })).status).toBe(200);
  });

  it('the About page sends people to /kb/, not to a bare /k/', async () => {
    const about = await (await get('/about', { accept: 'text/html' })).text();
    expect(about).toContain(`href="${BASE}/kb/"`);
    expect(about).not.toMatch(/href="[^"]*\/k\/"/);
  });
});

describe('a fresh install serves the sample compute services the About page names', () => {
  // The full story (KATs, charges, both MCP revisions) is test/wasm/services.test.ts, "sample
  // services on a fresh install" and "/mcp/svc/{name}"; here the newcomer's path from /about.
  it('json-check, text-diff, text-stats: served after their KATs; /mcp/svc/json-check answers an MCP client', async () => {
    const about = await (await get('/about')).text();
    for (const n of ['json-check', 'text-diff', 'text-stats']) expect(about).toContain(n);
    expect(about).toContain(`${BASE}/mcp/svc/json-check`);
    const end = Date.now() + 60_000;
    const served = async () =>
      ((await (await get('/v1/svc?f=json')).json()) as { services: Array<{ name: string; served: boolean }> }).services
        .filter((r) => r.served)
        .map((r) => r.name);
    while (Date.now() < end && (await served()).length < 3) await new Promise((r) => setTimeout(r, 200));
    expect((await served()).sort()).toEqual(['json-check', 'text-diff', 'text-stats']);
    const who = await register(s.url, 'newcomer');
    const c = new Client({ name: 'newcomer', version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp/svc/json-check`), { requestInit: { headers: { authorization: `Bearer ${who.token}` } } }),
    );
    try {
      expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['json-check']);
      const r = (await c.callTool({ name: 'json-check', arguments: { input: '{"a":1}' } })) as { content: Array<{ text: string }>; isError?: boolean };
      expect(r.isError).toBeFalsy();
      expect(r.content[0]!.text).toMatch(/^ok json type=object/);
    } finally {
      await c.close();
    }
  }, 90_000);
});

describe('/st, /sitemap.xml and /robots.txt', () => {
  it('/st lists the public status pages; st-hide takes a target out of /st and the sitemap, restore puts it back', async () => {
    const text = await (await get('/st')).text();
    expect(text).toMatch(/^st targets=\d+\nst api operational GET \/st\/api\n/);
    expect(text).toContain('\nst drops operational GET /st/drops\n');
    const j = (await (await get('/st?f=json')).json()) as { rows: Array<{ target: string; state: string }> };
    expect(j.rows[0]).toMatchObject({ target: 'api', state: 'operational' });
    const sitemap = async () => (await get('/sitemap.xml')).text();
    expect(await sitemap()).toContain(`<loc>${BASE}/st/drops</loc>`);

    expect((await admin('/admin/st-hide', { target: 'drops' })).status).toBe(200);
    expect(await (await get('/st')).text()).not.toContain('st drops');
    expect(((await (await get('/st?f=json')).json()) as { rows: Array<{ target: string }> }).rows.map((r) => r.target)).not.toContain('drops');
    expect(await sitemap()).not.toContain('/st/drops<');
    expect((await get('/st/drops')).status).toBe(404);

    expect((await admin('/admin/st-hide', { target: 'drops', restore: true })).status).toBe(200);
    expect(await (await get('/st')).text()).toContain('\nst drops operational');
    expect(await sitemap()).toContain(`<loc>${BASE}/st/drops</loc>`);
  });

  it('/sitemap.xml lists public pages, hubs and indexable entries only; a hidden entry leaves it at once', async () => {
    // Published content of an agent: a KB entry (public), a proposal (noindex), a note (private).
    const a = await register(s.url, 'mapper');
    const h = { authorization: `Bearer ${a.token}`, accept: 'application/json', 'content-type': 'application/json' };
    const k = await fetch(`${s.url}/k`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({
        error: "ModuleNotFoundError: No module named 'zzsitemap'",
        fix: 'pip install zzsitemap',
        title: 'zzsitemap missing',
        eco: 'pypi',
      }),
    });
    expect(k.status).toBe(201);
    const kid = ((await k.json()) as { id: string }).id;
    // An entry more agents report failing than working is noindex: not in the sitemap either.
    const bad = await fetch(`${s.url}/k`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ error: "ModuleNotFoundError: No module named 'zzbadfix'", fix: 'pip install zzbadfix', title: 'zzbadfix missing', eco: 'pypi' }),
    });
    expect(bad.status).toBe(201);
    const badId = ((await bad.json()) as { id: string }).id;
    const b = await register(s.url, 'critic');
    expect((await fetch(`${s.url}/k/${badId}/fail`, { method: 'POST', headers: { authorization: `Bearer ${b.token}` } })).status).toBe(200);
    const p = await fetch(`${s.url}/v1/p`, { method: 'POST', headers: h, body: JSON.stringify({ kind: 'feature', title: 'A sitemap proposal', body: 'x' }) });
    expect(p.status).toBe(201);
    const pid = ((await p.json()) as { id: string }).id;

    const r = await get('/sitemap.xml');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await r.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">\n/);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    for (const l of ['/', '/kb/', '/about', '/legal', '/changelog', '/status', '/st', '/st/api', '/eco/pypi', `/kb/${kid}`])
      expect(locs, l).toContain(BASE + l);
    expect(locs.some((l) => /\/kb\/\d{4}-\d\d\/$/.test(l))).toBe(true);
    expect(locs.some((l) => /\/err\/[a-z0-9_.-]+$/.test(l))).toBe(true);
    // Nothing private, operator-only, noindex or made of a caller's words.
    for (const l of locs) {
      expect(l.startsWith(`${BASE}/`), l).toBe(true);
      expect(l.slice(BASE.length), l).not.toMatch(/^\/(v1|admin|d|a|n|mail|cp|c|search|h|mcp|a2a|sse|messages)(\/|$|\?)/);
    }
    expect(xml).not.toContain(pid);
    expect(xml).not.toContain(badId);
    expect(new Set(locs).size).toBe(locs.length);

    // An illicit notice hides the entry at once: it leaves the sitemap on the next read.
    const ft = ((await (await get('/notice?f=json')).json()) as { ft: string }).ft;
    const n = await fetch(`${s.url}/notice`, {
      method: 'POST',
      headers: { origin: BASE, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ url: `${BASE}/kb/${kid}`, category: 'illicit', reason: 'test', email: 'a@example.org', good_faith: 'yes', ft }).toString(),
    });
    expect(n.status, await n.text()).toBe(200);
    expect(await (await get('/sitemap.xml')).text()).not.toContain(kid);
  });

  it('/robots.txt keeps crawlers out of private and operator paths and names the sitemap', async () => {
    const r = await get('/robots.txt');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    const t = await r.text();
    expect(t).toMatch(/^User-agent: \*\n/);
    for (const p of ['/admin/', '/d/', '/mcp', '/a2a', '/v1/', '/search']) expect(t).toContain(`\nDisallow: ${p}\n`);
    expect(t).toContain(`\nSitemap: ${BASE}/sitemap.xml\n`);
  });
});

describe.skipIf(!HAS_CHROMIUM)('the pages in headless Chromium (phone and desktop, axe)', () => {
  let chrome: Chrome;
  beforeAll(async () => {
    chrome = await launch();
  }, 60_000);
  afterAll(async () => chrome?.close());

  /** Loads the page at both widths: status, no overflow, no word broken mid-word, no console error, no serious axe violation, the texts. */
  async function looksRight(path: string, texts: string[], shell = true) {
    for (const w of ['phone', 'desktop'] as Width[]) {
      const { page, problems } = await step(`new tab ${w}`, openTab(chrome, w));
      try {
        const res = await step(`load ${path} ${w}`, page.goto(s.url + path, { waitUntil: 'load' }));
        expect(res?.status(), `${path} ${w}`).toBe(200);
        const l = await step(`layout of ${path} ${w}`, layout(page));
        expect(l.scrollWidth, `${path} ${w}: horizontal overflow ${l.wide.join(', ')}`).toBeLessThanOrEqual(l.viewport);
        expect(l.wide, `${path} ${w}`).toEqual([]);
        expect(l.broken, `${path} ${w}: words broken mid-word`).toEqual([]);
        expect(problems, `${path} ${w}`).toEqual([]);
        expect(await step(`axe on ${path} ${w}`, axe(page)), `${path} ${w}`).toEqual([]);
        for (const t of texts) expect(l.text, `${path} ${w}`).toContain(t);
        if (shell) {
          // The site's shell: header with the site link and navigation, the footer's links.
          const s = (await page.evaluate(`(() => ({
            site: document.querySelector('header a.site')?.getAttribute('href'),
            nav: Array.from(document.querySelectorAll('header a')).map((a) => a.getAttribute('href')),
            footer: Array.from(document.querySelectorAll('footer a')).map((a) => a.getAttribute('href')),
          }))()`)) as { site: string; nav: string[]; footer: string[] };
          expect(s.site, path).toBe('/');
          expect(s.nav, path).toEqual(expect.arrayContaining(['/search', '/status', '/about']));
          expect(s.footer, path).toEqual(expect.arrayContaining(['/legal', '/changelog', '/about']));
        }
      } finally {
        await step(`close ${path} ${w}`, page.close());
      }
    }
  }

  it('/kb/: latest months, ecosystems, error classes and the search form', async () => {
    await looksRight('/kb/', ['The fixes', 'Latest months', 'Ecosystems', 'Error classes', 'Search the fixes by error message', 'pypi']);
    const { page } = await step('new tab for /kb/', openTab(chrome, 'desktop'));
    try {
      await step('load /kb/', page.goto(`${s.url}/kb/`, { waitUntil: 'load' }));
      const hrefs = (await page.evaluate(`Array.from(document.querySelectorAll('main a')).map((a) => a.getAttribute('href'))`)) as string[];
      expect(hrefs.some((h) => /^\/kb\/\d{4}-\d\d\/$/.test(h))).toBe(true);
      expect(hrefs).toContain('/eco/pypi');
      expect(hrefs.some((h) => /^\/err\/[a-z0-9_.-]+$/.test(h))).toBe(true);
      expect(await page.evaluate(`document.querySelector('form.search')?.getAttribute('action')`)).toBe('/search');
      // The bare /k/ lands here in a browser too.
      const r = await step('load /k/', page.goto(`${s.url}/k/`, { waitUntil: 'load' }));
      expect(r?.url()).toBe(`${s.url}/kb/`);
      expect(await page.evaluate('document.querySelector("h1").textContent')).toBe('The fixes');
    } finally {
      await step('close /kb/', page.close());
    }
  }, 60_000);

  it('About, Legal and Changelog in the site shell', async () => {
    await looksRight('/about', ['About Agent Commons', 'Data license', 'Untrusted data']);
    await looksRight('/legal', ['Legal']);
    await looksRight('/changelog', ['Changelog', 'First release']);
  }, 120_000);

  it('/st: the public status pages', async () => {
    await looksRight('/st', ['Status pages', 'api', 'operational', 'drops']);
  }, 60_000);
});
