// The catalog's pages as a buyer meets them (issue 25), checked over HTTP: order pages offer only
// the product's locations and the configured payment methods, refused orders are pages for
// browsers and one line for scripts, quotes say what really happens, the seller comes from the
// operator's configuration, and llms.txt, catalog.json and the pages list the same offer.
// test/pages/catalog.test.ts looks at the same pages in a real browser.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogConfig } from '../../src/catalog/config.js';
import { type Cat, order, startCatalog, track, trackingPath } from './helpers.js';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8' };
const productsFile = join(import.meta.dirname, '../../catalog/products.json');
const products = JSON.parse(readFileSync(productsFile, 'utf8')).products as Array<{ slug: string; name: string; price_eur: number; locations: string[] }>;
const quote = { product: 'vps-s', payment: 'quote', location: 'fsn1', email: 'buyer@example.org' };

let c: Cat;
beforeAll(async () => {
  c = await startCatalog({ CATALOG_ORDERS_PER_HOUR: '1000' });
});
afterAll(async () => c.stop());

const radios = (h: string, name: string) => [...h.matchAll(new RegExp(`<input type="radio" name="${name}" id="[^"]+" value="([^"]+)"`, 'g'))].map((m) => m[1]);

describe('order pages', () => {
  it('each product has a page whose form offers exactly its locations', async () => {
    for (const p of products) {
      const res = await fetch(`${c.url}/order/${p.slug}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      const h = await res.text();
      expect(radios(h, 'location')).toEqual(p.locations);
      expect(h).toContain(`<input type="hidden" name="product" value="${p.slug}">`);
    }
    const ded = await (await fetch(`${c.url}/order/ded-4`)).text();
    expect(ded).not.toContain('value="hel1"');
    expect(ded).toContain('Not available for this product in Helsinki.');
  });

  it('every field has a label, the page has lang and a title', async () => {
    const h = await (await fetch(`${c.url}/order/vps-m`)).text();
    expect(h).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(h).toContain('<title>Order VPS M · Hosting catalog</title>');
    const ids = [...h.matchAll(/<input type="(?:radio|email)"[^>]* id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids) expect(h).toMatch(new RegExp(`<label[^>]* for="${id}"`));
  });

  it('without providers only the quote is offered, explained, and the email is required', async () => {
    const h = await (await fetch(`${c.url}/order/vps-s`)).text();
    expect(radios(h, 'payment')).toEqual(['quote']);
    expect(h).toContain('Nothing to pay now. The seller replies by email');
    expect(h).toMatch(/<input type="email" id="email" name="email"[^>]* required/);
    const idx = await (await fetch(`${c.url}/`)).text();
    expect(idx).toContain('<dt><strong>Quote by email</strong></dt>');
    expect(idx).not.toContain('Stripe');
  });

  it('configured providers are listed with what they mean, unconfigured ones are not', async () => {
    const s = await startCatalog({
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      MONERO_WALLET_RPC_URL: 'http://127.0.0.1:9',
      MONERO_EUR_PER_XMR: '150',
    });
    try {
      const h = await (await fetch(`${s.url}/order/vps-s`)).text();
      expect(radios(h, 'payment')).toEqual(['stripe', 'monero', 'quote']);
      expect(h).toContain('You pay by card on Stripe&#39;s checkout page');
      expect(h).toContain('at 150 EUR per XMR. The order is paid after 10 confirmations; unpaid orders are cancelled after 24 h.');
      expect(h).not.toContain('BTCPay');
      expect(h).not.toMatch(/<input type="email"[^>]* required/);
      const j = await (await fetch(`${s.url}/api/catalog.json`)).json();
      expect(j.payment).toEqual(['stripe', 'monero', 'quote']);
      expect(j.payment_methods.map((m: { id: string }) => m.id)).toEqual(j.payment);
      expect(j.payment_methods[0].how).toContain('Stripe');
    } finally {
      await s.stop();
    }
  });

  it('an unknown product page is 404: a page for browsers, one line for scripts', async () => {
    const t = await fetch(`${c.url}/order/nope`);
    expect(t.status).toBe(404);
    expect(await t.text()).toBe('err notfound no such product, see /api/catalog.json\n');
    const b = await fetch(`${c.url}/order/nope`, { headers: BROWSER });
    expect(b.status).toBe(404);
    expect(b.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const h = await b.text();
    expect(h).toContain('<h1>Not found</h1>');
    expect(h).toContain('<a href="/">All servers</a>');
  });
});

describe('refused orders', () => {
  it('a browser gets a page in the site style with the reason and the way back, same status', async () => {
    const res = await order(c.url, { ...quote, product: 'ded-4', location: 'hel1' }, BROWSER);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const h = await res.text();
    expect(h).toContain('<html lang="en">');
    expect(h).toContain('<h1>The order could not be placed</h1>');
    expect(h).toContain('<p id="reason">location: hel1 not offered for ded-4 (fsn1, nbg1)</p>');
    expect(h).toContain('<a href="/order/ded-4">Back to the order form for Dedicated 4</a>');
    expect(h).toContain('<code class="long">err bad location: hel1 not offered for ded-4 (fsn1, nbg1)</code>');
  });

  it('scripts keep the one line: plain, curl-like */*, and JSON on request', async () => {
    const plain = await order(c.url, { ...quote, product: 'ded-4', location: 'hel1' });
    expect(await plain.text()).toBe('err bad location: hel1 not offered for ded-4 (fsn1, nbg1)\n');
    const curl = await order(c.url, { ...quote, location: 'x' }, { accept: '*/*' });
    expect(await curl.text()).toBe('err bad location: must be fsn1, nbg1 or hel1\n');
    const f = await fetch(`${c.url}/api/order?f=json`, { method: 'POST', body: new URLSearchParams({ ...quote, location: 'x' }), headers: BROWSER });
    expect((await f.json()).line).toBe('err bad location: must be fsn1, nbg1 or hel1');
  });

  it('hostile input is escaped on the page and the back link only names a real product', async () => {
    const res = await order(c.url, { ...quote, product: '<img src=x onerror=alert(1)>' }, BROWSER);
    expect(res.status).toBe(400);
    const h = await res.text();
    expect(h).not.toContain('<img');
    expect(h).toContain('<a href="/">All servers</a>');
  });

  it('a 503 for an unconfigured provider is a page too, and keeps nothing', async () => {
    const res = await order(c.url, { ...quote, payment: 'stripe' }, BROWSER);
    expect(res.status).toBe(503);
    const h = await res.text();
    expect(h).toContain('<h1>Not available right now</h1>');
    expect(h).toContain('payment stripe not configured');
  });

  it('a quote needs an email: the seller answers by email', async () => {
    const res = await order(c.url, { ...quote, email: '' });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('err bad email: required for a quote (the seller replies by email)\n');
  });
});

describe('quote order page', () => {
  it('says the seller will reply by email, not "waiting for payment"', async () => {
    const res = await order(c.url, quote);
    expect(res.status).toBe(303);
    const path = trackingPath(res);
    const h = await (await fetch(`${c.url}${path}`)).text();
    expect(h).toContain('<strong>Quote requested.</strong> Nothing to pay now. The seller will reply by email to <strong>b***@example.org</strong>');
    expect(h).toContain('quote requested; the seller will reply by email, nothing to pay yet');
    expect(h).not.toContain('waiting for payment');
    expect(h).not.toContain('Pay now');
    expect((await track(c.url, path)).status_text).toBe('quote requested; the seller will reply by email, nothing to pay yet');
  });
});

describe('seller, terms, privacy and contact from the operator', () => {
  it('unset, every page says so plainly and /terms and /privacy are our own pages saying it', async () => {
    const h = await (await fetch(`${c.url}/`)).text();
    expect(h).toContain('Seller: <span class="unset">name not set by the operator (<code>CATALOG_SELLER_NAME</code>)</span>');
    expect(h).toContain('Contact: <span class="unset">contact not set by the operator (<code>CATALOG_CONTACT</code>)</span>');
    expect(h).toContain('<a href="http://catalog.test/terms">Terms of sale</a>');
    const t = await (await fetch(`${c.url}/terms`)).text();
    expect(t).toContain('The operator of this catalog has not published terms of sale');
    const p = await (await fetch(`${c.url}/privacy`)).text();
    expect(p).toContain('has not published a privacy policy');
    expect(p).toContain('The network prefix of your IP address');
    const j = await (await fetch(`${c.url}/api/catalog.json`)).json();
    expect(j.seller).toEqual({ name: null, address: null, contact: null, terms: 'http://catalog.test/terms', privacy: 'http://catalog.test/privacy' });
    expect(await (await fetch(`${c.url}/llms.txt`)).text()).toContain('Seller: not set; contact: not set; terms: http://catalog.test/terms');
  });

  it('set, they appear on every page (escaped), in catalog.json and llms.txt; /terms and /privacy redirect', async () => {
    const s = await startCatalog({
      CATALOG_SELLER_NAME: 'Ex & Co <GmbH>',
      CATALOG_SELLER_ADDRESS: 'Hauptstr. 1, 10115 Berlin',
      CATALOG_CONTACT: 'sales@example.org',
      CATALOG_TERMS_URL: 'https://example.org/terms',
      CATALOG_PRIVACY_URL: 'https://example.org/privacy',
    });
    try {
      for (const path of ['/', '/order/vps-s', '/terms-not-there']) {
        const h = await (await fetch(`${s.url}${path}`, { headers: BROWSER })).text();
        expect(h).toContain('Seller: Ex &amp; Co &lt;GmbH&gt;, Hauptstr. 1, 10115 Berlin');
        expect(h).toContain('<a href="mailto:sales@example.org">sales@example.org</a>');
        expect(h).toContain('<a href="https://example.org/terms">Terms of sale</a> · <a href="https://example.org/privacy">Privacy</a>');
        expect(h).not.toContain('not set by the operator');
      }
      const t = await fetch(`${s.url}/terms`, { redirect: 'manual' });
      expect(t.status).toBe(303);
      expect(t.headers.get('location')).toBe('https://example.org/terms');
      expect((await fetch(`${s.url}/privacy`, { redirect: 'manual' })).headers.get('location')).toBe('https://example.org/privacy');
      const j = await (await fetch(`${s.url}/api/catalog.json`)).json();
      expect(j.seller).toEqual({
        name: 'Ex & Co <GmbH>',
        address: 'Hauptstr. 1, 10115 Berlin',
        contact: 'sales@example.org',
        terms: 'https://example.org/terms',
        privacy: 'https://example.org/privacy',
      });
      expect(await (await fetch(`${s.url}/llms.txt`)).text()).toContain('Seller: Ex & Co <GmbH>; contact: sales@example.org; terms: https://example.org/terms');
    } finally {
      await s.stop();
    }
  });

  it.each([
    [{ CATALOG_CONTACT: 'not an address' }, 'config: CATALOG_CONTACT must be an email address or an http(s) URL'],
    [{ CATALOG_CONTACT: 'ftp://example.org' }, 'config: CATALOG_CONTACT must be an email address or an http(s) URL'],
    [{ CATALOG_TERMS_URL: 'javascript:alert(1)' }, 'config: CATALOG_TERMS_URL must be an http(s) URL'],
    [{ CATALOG_SELLER_NAME: 'x'.repeat(121) }, 'config: CATALOG_SELLER_NAME must be one line of at most 120 characters'],
    [{ CATALOG_SELLER_ADDRESS: 'a\nb' }, 'config: CATALOG_SELLER_ADDRESS must be one line of at most 200 characters'],
  ])('refuses a bad %o at start-up', (env, msg) => {
    expect(() => loadCatalogConfig(env)).toThrow(msg);
  });

  it('a URL contact is linked as is', async () => {
    const s = await startCatalog({ CATALOG_CONTACT: 'https://example.org/contact' });
    try {
      expect(await (await fetch(`${s.url}/`)).text()).toContain('<a href="https://example.org/contact">https://example.org/contact</a>');
    } finally {
      await s.stop();
    }
  });
});

describe('llms.txt, catalog.json and the pages list the same offer', () => {
  it('same products, prices, payment methods and locations', async () => {
    const j = await (await fetch(`${c.url}/api/catalog.json`)).json();
    const t = await (await fetch(`${c.url}/llms.txt`)).text();
    const idx = await (await fetch(`${c.url}/`)).text();
    for (const p of j.products) {
      expect(t).toContain(`- ${p.slug}: `);
      expect(t).toContain(`${p.price_eur.toFixed(2)} EUR/${p.billing_period} (${p.locations.join(' ')})`);
      expect(idx).toContain(`${p.price_eur.toFixed(2)} EUR / ${p.billing_period}`);
    }
    expect(
      t
        .match(/^payment: (.*?)\. 303/m)![1]!
        .split(/, (?=[a-z]+ \()/)
        .map((s) => s.split(' ')[0]),
    ).toEqual(j.payment);
  });

  it('a location no product offers appears nowhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cx-cat-loc-'));
    const f = join(dir, 'p.json');
    writeFileSync(
      f,
      JSON.stringify({
        products: products
          .slice(0, 2)
          .map((p) => ({ ...JSON.parse(readFileSync(productsFile, 'utf8')).products[0], slug: p.slug, name: p.name, locations: ['fsn1', 'nbg1'] })),
      }),
    );
    const s = await startCatalog({ CATALOG_PRODUCTS: f });
    try {
      const j = await (await fetch(`${s.url}/api/catalog.json`)).json();
      expect(j.locations.map((l: { id: string }) => l.id)).toEqual(['fsn1', 'nbg1']);
      expect(await (await fetch(`${s.url}/llms.txt`)).text()).not.toMatch(/hel1|Helsinki/);
      expect(await (await fetch(`${s.url}/`)).text()).not.toMatch(/hel1|Helsinki/);
    } finally {
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
