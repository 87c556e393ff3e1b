// Catalog documents: catalog.json (schema, CORS, preflight, ETag/304), llms.txt, the order page,
// health, and the products file validated at start-up.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadCatalogConfig } from '../../src/catalog/config.js';
import { type Cat, startCatalog } from './helpers.js';

const productsFile = join(import.meta.dirname, '../../catalog/products.json');
const fileProducts = JSON.parse(readFileSync(productsFile, 'utf8')).products as Array<{ slug: string; price_eur: number }>;

let c: Cat;
beforeAll(async () => {
  c = await startCatalog();
});
afterAll(async () => c.stop());

const ProductOut = z.strictObject({
  slug: z.string().regex(/^[a-z0-9-]+$/),
  name: z.string().min(1),
  description: z.string().optional(),
  price_eur: z.number().positive(),
  billing_period: z.enum(['month', 'year']),
  cpu: z.enum(['shared', 'dedicated']),
  vcpu: z.number().int().positive(),
  ram_gb: z.number().positive(),
  disk_gb: z.number().int().positive(),
  traffic_tb: z.number().nonnegative(),
  locations: z.array(z.enum(['fsn1', 'nbg1', 'hel1'])).min(1),
});
const CatalogOut = z.object({
  products: z.array(ProductOut).min(1),
  currency: z.literal('EUR'),
  locations: z.array(z.object({ id: z.string(), city: z.string(), country: z.string() })),
  payment: z.array(z.enum(['stripe', 'btcpay', 'monero', 'quote'])),
  order: z.object({ url: z.string(), method: z.literal('POST'), content_type: z.literal('application/x-www-form-urlencoded') }).passthrough(),
});

describe('GET /api/catalog.json', () => {
  it('has the products of catalog/products.json with slug and price_eur, no key needed, CORS open', async () => {
    const res = await fetch(`${c.url}/api/catalog.json`, { headers: { origin: 'https://agent.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('ETag');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const body = CatalogOut.parse(await res.json());
    expect(body.products.map((p) => [p.slug, p.price_eur])).toEqual(fileProducts.map((p) => [p.slug, p.price_eur]));
    expect(body.locations.map((l) => l.id)).toEqual(['fsn1', 'nbg1', 'hel1']);
    // No provider configured in this server: only quotes can be ordered.
    expect(body.payment).toEqual(['quote']);
    expect(body.order.url).toBe('http://catalog.test/api/order');
  });

  it('answers a CORS preflight with 204 and the asked headers', async () => {
    const res = await fetch(`${c.url}/api/catalog.json`, {
      method: 'OPTIONS',
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match, x-agent' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('if-none-match, x-agent');
    expect(res.headers.get('access-control-max-age')).toBe('86400');
    const bad = await fetch(`${c.url}/api/catalog.json`, { method: 'OPTIONS', headers: { 'access-control-request-headers': 'x-a; x-b' } });
    expect(bad.status).toBe(204);
    expect(bad.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('revalidates with ETag: 304 on If-None-Match, 200 on a stale tag; HEAD has the same headers', async () => {
    const first = await fetch(`${c.url}/api/catalog.json`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const again = await fetch(`${c.url}/api/catalog.json`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
    const weak = await fetch(`${c.url}/api/catalog.json`, { headers: { 'if-none-match': `"other", W/${etag}` } });
    expect(weak.status).toBe(304);
    const stale = await fetch(`${c.url}/api/catalog.json`, { headers: { 'if-none-match': '"stale"' } });
    expect(stale.status).toBe(200);
    const head = await fetch(`${c.url}/api/catalog.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
  });
});

describe('GET /llms.txt', () => {
  it('summarises products and prices and shows a curl order, under 1200 bytes, with ETag', async () => {
    const res = await fetch(`${c.url}/llms.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const t = await res.text();
    expect(Buffer.byteLength(t)).toBeLessThan(1200);
    expect(t.startsWith('# ')).toBe(true);
    for (const p of fileProducts) expect(t).toContain(`- ${p.slug}: `);
    expect(t).toContain('vps-s: 2 shared vCPU, 4 GB RAM, 40 GB disk, 20 TB traffic, 5.90 EUR/month (fsn1 nbg1 hel1)');
    expect(t).toMatch(/^curl -si -d product=vps-s -d location=fsn1 -d payment=quote -d email=you@example\.org http:\/\/catalog\.test\/api\/order$/m);
    expect(t).toContain('http://catalog.test/api/catalog.json');
    const etag = res.headers.get('etag')!;
    expect((await fetch(`${c.url}/llms.txt`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('the curl line it prints really places an order', async () => {
    const t = await (await fetch(`${c.url}/llms.txt`)).text();
    const line = t.split('\n').find((l) => l.startsWith('curl '))!;
    const fields = Object.fromEntries([...line.matchAll(/-d (\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
    const res = await fetch(`${c.url}/api/order`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^http:\/\/catalog\.test\/o\/[A-Za-z0-9_-]{43}$/);
  });

  it('stays under 1200 bytes with a long product list, pointing at catalog.json for the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cx-cat-prod-'));
    const many = Array.from({ length: 40 }, (_, i) => ({ ...JSON.parse(readFileSync(productsFile, 'utf8')).products[0], slug: `p-${i}`, name: `P ${i}` }));
    writeFileSync(join(dir, 'p.json'), JSON.stringify({ products: many }));
    const big = await startCatalog({ CATALOG_PRODUCTS: join(dir, 'p.json') });
    try {
      const t = await (await fetch(`${big.url}/llms.txt`)).text();
      expect(Buffer.byteLength(t)).toBeLessThan(1200);
      expect(t).toMatch(/^- and \d+ more in catalog\.json$/m);
      expect(t).toContain('- p-0: ');
      expect(t).toContain('curl -si');
    } finally {
      await big.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('order page, health and errors', () => {
  // Was one form on / offering every location for every product; now each product has its own
  // order page offering only its locations (issue 25), so the form and the server agree.
  it('GET / links each product to its order page, an HTML form that posts to /api/order', async () => {
    const res = await fetch(`${c.url}/`);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const h = await res.text();
    for (const p of fileProducts) expect(h).toContain(`href="/order/${p.slug}"`);
    const o = await (await fetch(`${c.url}/order/vps-s`)).text();
    expect(o).toContain('<form method="post" action="http://catalog.test/api/order">');
    expect(o).toContain('<input type="hidden" name="product" value="vps-s">');
    expect(o).toContain('value="hel1"');
  });

  it('GET /api/health is {"ok":true} with CORS', async () => {
    const res = await fetch(`${c.url}/api/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({ ok: true });
  });

  it('unknown route → 404 one line', async () => {
    const res = await fetch(`${c.url}/api/nope?x=1`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('err notfound no route GET /api/nope\n');
  });
});

describe('health when the database is unusable', () => {
  it('answers 503 {"ok":false}', async () => {
    const h = await startCatalog();
    try {
      expect((await fetch(`${h.url}/api/health`)).status).toBe(200);
      // Overwrite the database file in place (same inode) with bytes that are not SQLite.
      writeFileSync(join(h.dir, 'catalog.db'), Buffer.alloc(8192, 0x41));
      const res = await fetch(`${h.url}/api/health`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ ok: false });
    } finally {
      await h.stop();
    }
  });

  it('answers 503 when the database file was removed under the running server', async () => {
    const h = await startCatalog();
    try {
      rmSync(join(h.dir, 'catalog.db'));
      const res = await fetch(`${h.url}/api/health`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ ok: false });
    } finally {
      await h.stop();
    }
  });
});

describe('products file validated at start-up', () => {
  const write = (body: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), 'cx-cat-bad-'));
    const f = join(dir, 'products.json');
    writeFileSync(f, typeof body === 'string' ? body : JSON.stringify(body));
    return f;
  };
  const good = JSON.parse(readFileSync(productsFile, 'utf8')).products[0];

  it.each([
    ['not JSON', '{"products": [', /is not valid JSON/],
    ['no products', { products: [] }, /invalid at products: /],
    ['missing price', { products: [{ ...good, price_eur: undefined }] }, /invalid at products\[0\]\.price_eur: /],
    ['negative price', { products: [{ ...good, price_eur: -1 }] }, /invalid at products\[0\]\.price_eur: /],
    ['three decimals', { products: [{ ...good, price_eur: 1.234 }] }, /price_eur: at most two decimals/],
    ['bad slug', { products: [{ ...good, slug: 'Big Box' }] }, /products\[0\]\.slug: slug: 1-32/],
    ['unknown location', { products: [{ ...good, locations: ['ams1'] }] }, /products\[0\]\.locations\[0\]/],
    ['duplicate slug', { products: [good, good] }, /products\[1\]\.slug: slug vps-s listed twice/],
    ['typo in a field', { products: [{ ...good, prise_eur: 3 }] }, /products\[0\]: .*prise_eur/],
  ])('refuses %s with a message naming the field', (_name, body, msg) => {
    const f = write(body);
    expect(() => loadCatalogConfig({ CATALOG_PRODUCTS: f })).toThrow(msg);
  });

  it('a missing file is named', () => {
    expect(() => loadCatalogConfig({ CATALOG_PRODUCTS: '/nonexistent/p.json' })).toThrow(
      'catalog: cannot read products file /nonexistent/p.json (ENOENT); set CATALOG_PRODUCTS',
    );
  });
});
