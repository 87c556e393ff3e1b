// The hosting catalog in headless Chromium, as a new visitor meets it: each page at phone and
// desktop width (screenshots in docs/screenshots/), no horizontal overflow, no word broken
// mid-word, no console error, the key text visible, no serious axe violation; orders placed
// through the form with JavaScript off and with the keyboard alone; a refused order as a page.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogApp } from '../../src/catalog/app.js';
import { loadCatalogConfig } from '../../src/catalog/config.js';
import { BTCPAY_KEY, BTCPAY_STORE, fakeBtcpay, fakeMonero, fakeStripe, STRIPE_KEY } from '../catalog/fakes.js';
import { axe, check, type Chrome, freePort, HAS_CHROMIUM, launch, layout, openTab, shot, SKIP_REASON, type Width } from './browser.js';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

const WIDTHS: Width[] = ['phone', 'desktop'];

describe.skipIf(!HAS_CHROMIUM)('catalog in headless Chromium', () => {
  let chrome: Chrome;
  let app: FastifyInstance;
  let url: string;
  let dir: string;
  const fakes: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    const [stripe, btcpay, monero] = await Promise.all([fakeStripe(), fakeBtcpay(), fakeMonero()]);
    fakes.push(stripe, btcpay, monero);
    // The form posts to CATALOG_BASE_URL: give the server its real address before it listens.
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    dir = mkdtempSync(join(tmpdir(), 'cx-pages-cat-'));
    const config = loadCatalogConfig({
      CATALOG_BASE_URL: url,
      CATALOG_ORDERS_PER_HOUR: '1000',
      CATALOG_SELLER_NAME: 'Example Hosting GmbH',
      CATALOG_SELLER_ADDRESS: 'Hauptstraße 1, 10115 Berlin, Germany',
      CATALOG_CONTACT: 'sales@example.org',
      STRIPE_SECRET_KEY: STRIPE_KEY,
      STRIPE_WEBHOOK_SECRET: 'whsec_pages',
      STRIPE_API_BASE: stripe.url,
      BTCPAY_URL: btcpay.url,
      BTCPAY_API_KEY: BTCPAY_KEY,
      BTCPAY_STORE_ID: BTCPAY_STORE,
      BTCPAY_WEBHOOK_SECRET: 'btcpay-pages',
      MONERO_WALLET_RPC_URL: monero.url,
      MONERO_EUR_PER_XMR: '150',
    });
    app = await buildCatalogApp({ config, dataDir: dir, logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    chrome = await launch();
  }, 60_000);

  afterAll(async () => {
    await chrome?.close();
    await app?.close();
    await Promise.all(fakes.map((f) => f.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** The checks every page must pass at every width. */
  async function looksRight(path: string, name: string, texts: string[], status = 200) {
    for (const w of WIDTHS) {
      const r = await check(chrome, url + path, name, w);
      expect(r.status, `${path} ${w}`).toBe(status);
      expect(r.scrollWidth, `${path} ${w}: horizontal overflow ${r.wide.join(', ')}`).toBeLessThanOrEqual(r.viewport);
      expect(r.wide, `${path} ${w}`).toEqual([]);
      expect(r.broken, `${path} ${w}: words broken mid-word`).toEqual([]);
      expect(r.problems, `${path} ${w}`).toEqual([]);
      expect(r.violations, `${path} ${w}`).toEqual([]);
      for (const t of texts) expect(r.text, `${path} ${w}`).toContain(t);
    }
  }

  it('the product list fits phone and desktop, every payment method explained, seller shown', async () => {
    await looksRight('/', 'catalog-index', [
      'VPS XL',
      'vps-xl',
      '37.90 EUR / month',
      'Card (Stripe)',
      'Bitcoin (BTCPay Server)',
      'Monero (XMR)',
      'Quote by email',
      'Seller: Example Hosting GmbH',
      'sales@example.org',
    ]);
  }, 60_000);

  it('an order page offers only the locations of its product', async () => {
    await looksRight('/order/ded-4', 'catalog-order', [
      'Order Dedicated 4',
      'Falkenstein',
      'Nuremberg',
      'Not available for this product in Helsinki.',
      'Place order',
    ]);
    const { page } = await openTab(chrome, 'desktop');
    try {
      await page.goto(`${url}/order/ded-4`);
      const values = await page.$$eval('input[name=location]', (els) => els.map((e) => (e as HTMLInputElement).value));
      expect(values).toEqual(['fsn1', 'nbg1']);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('terms and privacy say plainly what is not set', async () => {
    await looksRight('/terms', 'catalog-terms', ['has not published terms of sale']);
    await looksRight('/privacy', 'catalog-privacy', ['has not published a privacy policy', 'No cookies']);
  }, 60_000);

  it('a quote ordered through the form with JavaScript off lands on an honest order page', async () => {
    const { page, problems } = await openTab(chrome, 'phone', { javascript: false });
    try {
      await page.goto(`${url}/order/vps-xl`);
      await page.click('label[for=loc-nbg1]');
      await page.click('label[for=pay-quote]');
      await page.type('#email', 'buyer@example.org');
      const [res] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
      expect(res?.status()).toBe(200);
      expect(page.url()).toMatch(new RegExp(`^${url}/o/[A-Za-z0-9_-]{43}$`));
      const text = await page.$eval('body', (b) => (b as HTMLElement).innerText);
      expect(text).toContain('Quote requested. Nothing to pay now. The seller will reply by email to b***@example.org');
      expect(text).toContain('nbg1 (Nuremberg DE)');
      expect(text).toContain('37.90 EUR per month');
      expect(text).not.toContain('waiting for payment');
      expect(problems).toEqual([]);
      await looksRight(new URL(page.url()).pathname, 'catalog-quote', ['Quote requested', 'VPS XL']);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('a Monero order through the form shows the address and the amount', async () => {
    const { page, problems } = await openTab(chrome, 'desktop');
    try {
      await page.goto(`${url}/order/vps-m`);
      await page.click('label[for=pay-monero]');
      const [res] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
      expect(res?.status()).toBe(200);
      expect(page.url()).toMatch(new RegExp(`^${url}/o/[A-Za-z0-9_-]{43}/pay$`));
      const text = await page.$eval('body', (b) => (b as HTMLElement).innerText);
      // 10.90 EUR at 150 EUR/XMR, rounded up to 1e-6 XMR.
      expect(text).toContain('Send exactly 0.072667 XMR');
      expect(problems).toEqual([]);
      await looksRight(new URL(page.url()).pathname, 'catalog-pay-monero', ['0.072667 XMR', 'Track the order']);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('the keyboard alone reaches every control, shows focus, and places an order', async () => {
    const { page, problems } = await openTab(chrome, 'desktop');
    try {
      await page.goto(`${url}/order/vps-s`);
      const seen: string[] = [];
      let submit = false;
      for (let i = 0; i < 30 && !submit; i++) {
        await page.keyboard.press('Tab');
        const f = await page.evaluate(() => {
          const a = document.activeElement as HTMLElement;
          const st = getComputedStyle(a);
          return {
            id: a.id || a.tagName.toLowerCase() + (a.getAttribute('type') ? `[${a.getAttribute('type')}]` : ''),
            outline: st.outlineStyle !== 'none' && st.outlineWidth !== '0px',
          };
        });
        seen.push(f.id);
        if (['loc-fsn1', 'pay-stripe', 'email', 'button[submit]'].includes(f.id)) expect(f.outline, `focus visible on ${f.id}`).toBe(true);
        if (f.id === 'pay-stripe') {
          // Radio groups move with the arrows: stripe → btcpay → monero → quote.
          for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowDown');
          expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('quote');
        }
        if (f.id === 'email') await page.keyboard.type('keys@example.org');
        submit = f.id === 'button[submit]';
      }
      expect(seen).toEqual(expect.arrayContaining(['loc-fsn1', 'pay-stripe', 'email', 'button[submit]']));
      const [res] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      expect(res?.status()).toBe(200);
      expect(await page.$eval('body', (b) => (b as HTMLElement).innerText)).toContain('Quote requested');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('a refused order is a page in the site style with the reason and the way back', async () => {
    for (const w of WIDTHS) {
      const { page, problems } = await openTab(chrome, w);
      try {
        await page.goto(`${url}/order/ded-4`);
        // A form from an older catalog still offering Helsinki: the server must refuse it.
        await page.$eval('#loc-fsn1', (e) => ((e as HTMLInputElement).value = 'hel1'));
        await page.click('label[for=pay-quote]');
        await page.type('#email', 'buyer@example.org');
        const [res] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
        expect(res?.status()).toBe(400);
        expect(res?.headers()['content-type']).toBe('text/html; charset=utf-8');
        const l = await layout(page);
        expect(l.text).toContain('The order could not be placed');
        expect(l.text).toContain('location: hel1 not offered for ded-4 (fsn1, nbg1)');
        expect(l.text).toContain('Back to the order form for Dedicated 4');
        expect(l.scrollWidth).toBeLessThanOrEqual(l.viewport);
        expect(l.broken).toEqual([]);
        await shot(page, 'catalog-refused', w);
        expect(await axe(page)).toEqual([]);
        // The browser logs the 400 of the document itself; nothing else may appear.
        expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
        await Promise.all([page.waitForNavigation(), page.click('a[href="/order/ded-4"]')]);
        expect(page.url()).toBe(`${url}/order/ded-4`);
      } finally {
        await page.close();
      }
    }
  }, 60_000);
});

describe.skipIf(!HAS_CHROMIUM)('the checks themselves can fail', () => {
  let chrome: Chrome;
  beforeAll(async () => {
    chrome = await launch();
  }, 60_000);
  afterAll(async () => chrome?.close());

  it('overflow, a word broken mid-word, a console error and a missing label are all caught', async () => {
    const { page, problems } = await openTab(chrome, 'phone');
    try {
      await page.setContent(
        '<!doctype html><html><body><div style="width:900px">wide</div><p style="width:4ch;word-break:break-all">catalog <code>vps-xl</code></p><p style="width:9ch">case-insensitive</p><input type="text"><script>console.error("boom")</script></body></html>',
      );
      const l = await layout(page);
      expect(l.scrollWidth).toBeGreaterThan(l.viewport);
      expect(l.wide.length).toBeGreaterThan(0);
      expect(l.broken).toEqual(['catalog', 'vps-xl']); // a prose break after a hyphen is fine
      expect(problems.join()).toContain('boom');
      const v = await axe(page);
      expect(v.map((x) => x.id)).toEqual(expect.arrayContaining(['label']));
    } finally {
      await page.close();
    }
  }, 60_000);
});
