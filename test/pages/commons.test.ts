// The commons' pages for people in headless Chromium: the landing page, the operation reference,
// KB entries and the KB listings, at phone and desktop width (screenshots in docs/screenshots/):
// no overflow, no word broken mid-word, no console error, key text visible, no serious axe
// violation; a search through the landing form with JavaScript off; hostile published text shown
// as text.
import { exec } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';
import { axe, check, type Chrome, HAS_CHROMIUM, launch, layout, openTab, shot, SKIP_REASON, type Width } from './browser.js';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

const WIDTHS: Width[] = ['phone', 'desktop'];
const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)> "quoted" & 'single'`;

describe.skipIf(!HAS_CHROMIUM)('commons pages in headless Chromium', () => {
  let s: TestServer;
  let chrome: Chrome;
  let seedId: string;
  let hostileId: string;
  let ym: string;

  beforeAll(async () => {
    s = await start({ CX_SEED: '1' }); // the sample KB and services
    chrome = await launch();
    // One published entry with markup in every text field, confirmed by a second agent.
    const a = await register(s.url, 'author');
    const b = await register(s.url, 'voter');
    const res = await fetch(`${s.url}/k`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({
        error: `ModuleNotFoundError: No module named 'zzpagetest' ${HOSTILE}`,
        fix: `pip install zzpagetest ${HOSTILE}`,
        title: `zzpagetest missing ${HOSTILE}`.slice(0, 120),
        eco: 'pypi',
        libs: ['zzpagetest@1.0'],
      }),
    });
    expect(res.status).toBe(201);
    hostileId = ((await res.json()) as { id: string }).id;
    const ok = await fetch(`${s.url}/k/${hostileId}/ok`, { method: 'POST', headers: { authorization: `Bearer ${b.token}` } });
    expect(ok.status).toBe(200);
    const hits = (await (await fetch(`${s.url}/search?q=numpy&f=json`)).json()) as { rows: Array<{ id: string }> };
    seedId = hits.rows[0]!.id;
    ym = new Date().toISOString().slice(0, 7);
  }, 60_000);

  afterAll(async () => {
    await chrome?.close();
    await s?.stop();
  });

  async function looksRight(path: string, name: string, texts: string[], status = 200) {
    for (const w of WIDTHS) {
      const r = await check(chrome, s.url + path, name, w);
      expect(r.status, `${path} ${w}`).toBe(status);
      expect(r.scrollWidth, `${path} ${w}: horizontal overflow ${r.wide.join(', ')}`).toBeLessThanOrEqual(r.viewport);
      expect(r.wide, `${path} ${w}`).toEqual([]);
      expect(r.broken, `${path} ${w}: words broken mid-word`).toEqual([]);
      expect(r.problems, `${path} ${w}`).toEqual([]);
      expect(r.violations, `${path} ${w}`).toEqual([]);
      for (const t of texts) expect(r.text, `${path} ${w}`).toContain(t);
    }
  }

  it('the landing page: what it is, how to connect, search, live figures, newest confirmed fixes; small and self-contained', async () => {
    // The open data exists as the daily jobs would leave it: an export and the git mirror's snapshot.
    const ex = await fetch(`${s.url}/admin/export`, { method: 'POST', headers: { authorization: `Bearer ${s.config.operatorTokens.ops}` } });
    expect(ex.status).toBe(200);
    await s.core.mirror!.sync();
    await looksRight('/', 'commons-landing', [
      'A free commons for AI agents',
      'topics with subscriptions and webhooks',
      'compute services',
      'MCP server URL',
      '.well-known/agent.json',
      'Live figures',
      'fixes confirmed this week',
      'open tasks',
      'Newest confirmed fixes',
      'zzpagetest missing',
      'Status, feeds and open data',
      'Service status',
      'daily exports',
      'git clone http://commons.test/git/kb.git',
    ]);
    const res = await fetch(`${s.url}/`, { headers: { accept: 'text/html' } });
    const html = await res.text();
    expect(Buffer.byteLength(html)).toBeLessThan(50 * 1024);
    // No external font, script or stylesheet: nothing is loaded from anywhere.
    expect(html).not.toMatch(/<script|<link[^>]+rel="?stylesheet|@import|@font-face|https?:\/\/fonts\./i);
    const { page } = await openTab(chrome, 'desktop');
    const requests: string[] = [];
    let line = '';
    page.on('request', (r) => requests.push(r.url()));
    try {
      await page.goto(`${s.url}/`);
      expect(requests.filter((u) => !u.startsWith(s.url))).toEqual([]);
      const mcp = await page.$eval('#mcp', (e) => (e as HTMLInputElement).value);
      expect(mcp).toBe('http://commons.test/mcp');
      line = (await page.evaluate("document.getElementById('rest').innerText")) as string;
      // Every link on the page answers 200 to a browser: the page promises only what exists.
      const hrefs = [...new Set(await page.$$eval('a[href]', (as) => as.map((x) => x.getAttribute('href')!)))];
      expect(hrefs).toEqual(expect.arrayContaining(['/status', '/gov', '/f/kb.atom', '/f/sys.atom', '/f/p.atom', '/export/', '/git/kb.tar.gz', '/v1/svc']));
      for (const h of hrefs) {
        expect(h, 'same-origin links only').toMatch(/^\//);
        expect((await fetch(s.url + h, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } })).status, h).toBe(200);
      }
    } finally {
      await page.close();
    }
    // The REST one-liner shown really answers with a fix (here against the test server; needs curl).
    expect(line).toMatch(/^npm test 2>&1 \| curl /);
    const sh = line
      .replace(/^npm test 2>&1/, `printf '%s\\n' "Traceback (most recent call last):" "ModuleNotFoundError: No module named 'numpy'"`)
      .replace('http://commons.test', s.url);
    const out = await promisify(exec)(sh, { timeout: 20_000 });
    expect(out.stdout).toMatch(/^e: py:ModuleNotFoundError/);
    expect(out.stdout).toContain('fix: ');
    // Agents still get the markdown index.
    const md = await fetch(`${s.url}/`, { redirect: 'manual', headers: { accept: 'text/plain' } });
    expect(md.status).toBe(303);
    expect(md.headers.get('location')).toBe('/index.md');
  }, 90_000);

  it('the search box works with JavaScript off', async () => {
    const { page, problems } = await openTab(chrome, 'phone', { javascript: false });
    try {
      await page.goto(`${s.url}/`);
      await page.type('#q', 'numpy dtype size changed');
      const [res] = await Promise.all([page.waitForNavigation(), page.click('form.search button')]);
      expect(res?.status()).toBe(200);
      expect(page.url()).toContain('/search?q=numpy+dtype+size+changed');
      const text = await page.$eval('body', (b) => (b as HTMLElement).innerText);
      expect(text).toContain('numpy.dtype size changed');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
    await looksRight('/search?q=numpy', 'commons-search', ['Search', 'numpy']);
  }, 90_000);

  it('the keyboard alone reaches the search box with visible focus and searches', async () => {
    const { page, problems } = await openTab(chrome, 'desktop');
    try {
      await page.goto(`${s.url}/`);
      let id = '';
      for (let i = 0; i < 10 && id !== 'q'; i++) {
        await page.keyboard.press('Tab');
        id = (await page.evaluate('document.activeElement.id')) as string;
      }
      expect(id).toBe('q');
      expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).not.toBe('none');
      await page.keyboard.type('numpy');
      const [res] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      expect(res?.status()).toBe(200);
      expect(page.url()).toContain('/search?q=numpy');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('the operation reference is its own page, generated from the registry', async () => {
    await looksRight('/reference', 'commons-reference', ['Operations', 'kb.search', 'GET /search']);
  }, 90_000);

  it('a KB entry: error, fix, libraries, confirmations, links to its text and JSON twins', async () => {
    await looksRight(`/kb/${seedId}`, 'commons-entry', ['Error', 'Fix', 'Libraries', 'confirmed it worked', 'text', 'JSON']);
  }, 90_000);

  it('published markup is shown as text and never runs', async () => {
    const { page, problems } = await openTab(chrome, 'desktop');
    let dialogs = 0;
    page.on('dialog', async (d) => {
      dialogs++;
      await d.dismiss();
    });
    try {
      const res = await page.goto(`${s.url}/kb/${hostileId}`);
      expect(res?.status()).toBe(200);
      const text = await page.$eval('main', (m) => (m as HTMLElement).innerText);
      expect(text).toContain('<script>alert("x")</script>');
      expect(text).toContain('<img src=x onerror=alert(1)>');
      expect(await page.$$eval('main script, main img', (els) => els.length)).toBe(0);
      expect(dialogs).toBe(0);
      expect(problems).toEqual([]);
      const l = await layout(page);
      expect(l.scrollWidth).toBeLessThanOrEqual(l.viewport);
      await shot(page, 'commons-entry-hostile', 'desktop');
      expect(await axe(page)).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it('monthly archive, ecosystem and error-class hubs are readable pages', async () => {
    await looksRight(`/kb/${ym}/`, 'commons-month', [`Fixes of ${ym}`, 'zzpagetest missing']);
    await looksRight('/eco/pypi', 'commons-eco', ['pypi']);
    await looksRight('/err/modulenotfounderror', 'commons-err', ['modulenotfounderror']);
  }, 120_000);
});
