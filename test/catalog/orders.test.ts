// Form orders without a provider: every bad field, quotes, tracking (HTML escaped and JSON), 404s,
// 503 for unconfigured providers, the per-network quota, and the operator lifecycle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cat, OPS_TOKEN, order, startCatalog, track, trackingPath } from './helpers.js';

let c: Cat;
beforeAll(async () => {
  c = await startCatalog({ CATALOG_ORDERS_PER_HOUR: '1000' });
});
afterAll(async () => c.stop());

const ok = { product: 'vps-s', payment: 'quote', location: 'fsn1', email: 'buyer@example.org' };

describe('POST /api/order: every bad field is a one-line 400 naming it', () => {
  const cases: Array<[string, Record<string, string | undefined>, string]> = [
    ['product missing', { product: undefined }, 'err bad product: required, a slug from /api/catalog.json'],
    ['product empty', { product: '' }, 'err bad product: required, a slug from /api/catalog.json'],
    ['product unknown', { product: 'vps-zz' }, 'err bad product: unknown slug "vps-zz", see /api/catalog.json'],
    ['product unknown, hostile echo withheld', { product: '<script>alert(1)</script>\n' }, 'err bad product: unknown slug, see /api/catalog.json'],
    ['payment missing', { payment: undefined }, 'err bad payment: required, one of stripe, btcpay, monero or quote'],
    ['payment unknown', { payment: 'paypal' }, 'err bad payment: must be stripe, btcpay, monero or quote'],
    ['payment wrong case', { payment: 'Stripe' }, 'err bad payment: must be stripe, btcpay, monero or quote'],
    ['location missing', { location: undefined }, 'err bad location: required, one of fsn1, nbg1 or hel1'],
    ['location unknown', { location: 'ams1' }, 'err bad location: must be fsn1, nbg1 or hel1'],
    ['location not offered for the product', { product: 'ded-4', location: 'hel1' }, 'err bad location: hel1 not offered for ded-4 (fsn1, nbg1)'],
    ['email without @', { email: 'buyer.example.org' }, 'err bad email: not a valid address'],
    ['email without domain dot', { email: 'buyer@localhost' }, 'err bad email: not a valid address'],
    ['email with spaces', { email: 'bu yer@example.org' }, 'err bad email: not a valid address'],
    ['email too long', { email: 'a'.repeat(60) + '@' + 'b'.repeat(200) + '.org' }, 'err bad email: not a valid address'],
  ];
  it.each(cases)('%s', async (_name, change, line) => {
    const fields = Object.fromEntries(Object.entries({ ...ok, ...change }).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const res = await order(c.url, fields);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe(line + '\n');
  });

  it('a field given twice is refused', async () => {
    const res = await fetch(`${c.url}/api/order`, {
      method: 'POST',
      body: 'product=vps-s&product=vps-m&payment=quote&location=fsn1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('err bad product: give it once\n');
  });

  it('an empty body names the first field', async () => {
    const res = await fetch(`${c.url}/api/order`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('err bad product: required, a slug from /api/catalog.json\n');
  });

  it('JSON errors on Accept: application/json', async () => {
    const res = await order(c.url, { ...ok, location: 'x' }, { accept: 'application/json' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'bad',
      detail: 'location: must be fsn1, nbg1 or hel1',
      status: 400,
      line: 'err bad location: must be fsn1, nbg1 or hel1',
    });
  });

  it('other content types are 415, oversized bodies 413', async () => {
    const t = await fetch(`${c.url}/api/order`, { method: 'POST', body: 'product=vps-s', headers: { 'content-type': 'text/plain' } });
    expect(t.status).toBe(415);
    expect(await t.text()).toBe('err bad content-type: send application/x-www-form-urlencoded or application/json\n');
    const big = await order(c.url, { ...ok, pad: 'x'.repeat(5000) });
    expect(big.status).toBe(413);
    expect(await big.text()).toBe('err size body over 4096 bytes\n');
  });
});

describe('quote orders and tracking', () => {
  it('a quote is stored and redirected (303) straight to its private tracking page', async () => {
    const res = await order(c.url, ok);
    expect(res.status).toBe(303);
    const loc = res.headers.get('location')!;
    expect(loc).toMatch(/^http:\/\/catalog\.test\/o\/[A-Za-z0-9_-]{43}$/);
    expect(res.headers.get('link')).toBe(`<${loc}>; rel="monitor"`);
    const body = await res.text();
    expect(body).toMatch(
      /^ok o[0-9a-z]{9} pending_payment\nnext: http:\/\/catalog\.test\/o\/\S+\ntrack: http:\/\/catalog\.test\/o\/\S+ \(keep this link private\)\n$/,
    );

    const j = await track(c.url, trackingPath(res));
    expect(j).toMatchObject({
      status: 'pending_payment',
      product: { slug: 'vps-s', name: 'VPS S' },
      location: 'fsn1',
      location_city: 'Falkenstein DE',
      amount_eur: 5.9,
      billing_period: 'month',
      payment: 'quote',
      email: 'b***@example.org',
    });
    expect(j.id).toBe(body.split(' ')[1]);
    expect(j.pay_url).toBeUndefined();
    expect(j.timeline).toEqual([{ at: j.created, status: 'pending_payment', note: 'quote requested; the operator answers on this page' }]);
  });

  it('JSON answer to the order on Accept: application/json, still a 303', async () => {
    const res = await order(c.url, ok, { accept: 'application/json' });
    expect(res.status).toBe(303);
    const j = await res.json();
    expect(j).toMatchObject({ ok: true, status: 'pending_payment' });
    expect(j.next).toBe(res.headers.get('location'));
    expect(j.tracking_url).toBe(j.next);
  });

  it('a JSON body is accepted like the form', async () => {
    const res = await fetch(`${c.url}/api/order`, {
      method: 'POST',
      body: JSON.stringify({ ...ok, location: 'hel1' }),
      headers: { 'content-type': 'application/json' },
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect((await track(c.url, trackingPath(res))).location).toBe('hel1');
    const bad = await fetch(`${c.url}/api/order`, {
      method: 'POST',
      body: JSON.stringify({ ...ok, product: 5 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(await bad.text()).toBe('err bad product: must be a string\n');
  });

  it('the tracking page is HTML with product, location, amount, status and timeline, private and escaped', async () => {
    const res0 = await order(c.url, { ...ok, email: "'brien&co@example.org" });
    expect(res0.status).toBe(303);
    const path = trackingPath(res0);
    const id = (await track(c.url, path)).id;
    // The operator's note is shown to the buyer: it must arrive escaped.
    const n = await fetch(`${c.url}/api/admin/orders/${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OPS_TOKEN}` },
      body: new URLSearchParams({ note: 'Quote: <img src=x onerror=alert(1)> 49 EUR & "more"' }),
    });
    expect(n.status).toBe(200);
    const res = await fetch(`${c.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const h = await res.text();
    expect(h).toContain(`<h1>Order <code>${id}</code></h1>`);
    expect(h).toContain('<span class="st" id="status">pending_payment</span>');
    expect(h).toContain('VPS S (<code>vps-s</code>)');
    expect(h).toContain('fsn1 (Falkenstein DE)');
    expect(h).toContain('5.90 EUR per month');
    expect(h).toContain('quote requested; the operator answers on this page');
    expect(h).toContain('operator: Quote: &lt;img src=x onerror=alert(1)&gt; 49 EUR &amp; &quot;more&quot;');
    expect(h).toContain('&#39;***@example.org');
    expect(h).not.toContain('<img');
  });

  it('an unknown or malformed token is 404, and tokens never reach the 404 line', async () => {
    const unknown = await fetch(`${c.url}/o/${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe('err notfound order\n');
    const short = await fetch(`${c.url}/o/abc?f=json`);
    expect(short.status).toBe(404);
    expect(await short.json()).toMatchObject({ error: 'notfound', line: 'err notfound order' });
    const pay = await fetch(`${c.url}/o/${'B'.repeat(43)}/pay`);
    expect(pay.status).toBe(404);
    const deeper = await fetch(`${c.url}/o/${'C'.repeat(43)}/x/y`);
    expect(deeper.status).toBe(404);
    expect(await deeper.text()).toBe('err notfound no route GET /o/…\n');
  });

  it('/pay on a quote goes back to the tracking page', async () => {
    const path = trackingPath(await order(c.url, ok));
    const res = await fetch(`${c.url}${path}/pay`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`http://catalog.test${path}`);
  });
});

describe('unconfigured providers', () => {
  it.each([
    ['stripe', 'err unavailable payment stripe not configured: set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET'],
    ['btcpay', 'err unavailable payment btcpay not configured: set BTCPAY_URL, BTCPAY_API_KEY, BTCPAY_STORE_ID, BTCPAY_WEBHOOK_SECRET'],
    ['monero', 'err unavailable payment monero not configured: set MONERO_WALLET_RPC_URL, MONERO_EUR_PER_XMR'],
  ])('%s → 503 naming what is missing, nothing stored', async (payment, line) => {
    const before = (await (await fetch(`${c.url}/api/admin/orders?n=200`, { headers: { authorization: `Bearer ${OPS_TOKEN}` } })).json()).orders.length;
    const res = await order(c.url, { ...ok, payment });
    expect(res.status).toBe(503);
    expect(await res.text()).toBe(line + '\n');
    const after = (await (await fetch(`${c.url}/api/admin/orders?n=200`, { headers: { authorization: `Bearer ${OPS_TOKEN}` } })).json()).orders.length;
    expect(after).toBe(before);
  });

  it('webhooks without their secret → 503 naming it', async () => {
    const s = await fetch(`${c.url}/api/webhook/stripe`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    });
    expect(s.status).toBe(503);
    expect(await s.text()).toBe('err unavailable stripe webhook not configured: set STRIPE_WEBHOOK_SECRET\n');
    const b = await fetch(`${c.url}/api/webhook/btcpay`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(b.status).toBe(503);
    expect(await b.text()).toBe('err unavailable btcpay webhook not configured: set BTCPAY_WEBHOOK_SECRET\n');
  });
});

describe('operator lifecycle (ops token)', () => {
  const admin = (path: string, body?: Record<string, string>, token = OPS_TOKEN) =>
    fetch(`${c.url}/api/admin${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${token}` },
      ...(body ? { body: new URLSearchParams(body) } : {}),
    });

  it('refuses a missing or wrong token', async () => {
    const none = await fetch(`${c.url}/api/admin/orders`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="catalog"');
    expect(await none.text()).toBe('err auth ops token required\n');
    expect((await admin('/orders', undefined, 'wrong')).status).toBe(401);
  });

  it('walks pending_payment → paid → provisioning → active → cancelled; impossible moves are 409', async () => {
    const path = trackingPath(await order(c.url, ok));
    const id = (await track(c.url, path)).id;
    const skip = await admin(`/orders/${id}`, { status: 'active' });
    expect(skip.status).toBe(409);
    expect(await skip.text()).toBe('err dup order pending_payment: active not possible\n');
    for (const st of ['paid', 'provisioning', 'active']) {
      const r = await admin(`/orders/${id}`, { status: st, note: `step ${st}` });
      expect(await r.text()).toBe(`ok ${id} ${st}\n`);
    }
    const listed = await (await admin('/orders?status=active')).json();
    expect(listed.orders.map((o: { id: string }) => o.id)).toContain(id);
    expect(listed.orders.find((o: { id: string }) => o.id === id).email).toBe('buyer@example.org');
    const again = await admin(`/orders/${id}`, { status: 'active' });
    expect(again.status).toBe(409);
    expect(await admin(`/orders/${id}`, { status: 'cancelled', note: 'ended by the buyer' }).then((r) => r.text())).toBe(`ok ${id} cancelled\n`);
    const j = await track(c.url, path);
    expect(j.status).toBe('cancelled');
    expect(j.timeline.map((e: { status?: string }) => e.status)).toEqual(['pending_payment', 'paid', 'provisioning', 'active', 'cancelled']);
    expect(j.timeline[4].note).toBe('operator: ended by the buyer');
    const h = await (await fetch(`${c.url}${path}`)).text();
    expect(h).toContain('<span class="st" id="status">cancelled</span>');
  });

  it('bad operator input is one line', async () => {
    expect(await (await admin('/orders/onotthere', { status: 'paid' })).text()).toBe('err notfound order onotthere\n');
    expect(await (await admin('/orders?status=done')).text()).toBe('err bad status: must be pending_payment, paid, provisioning, active, cancelled\n');
    expect(await (await admin('/orders?n=0')).text()).toBe('err bad n: 1 to 200\n');
    const path = trackingPath(await order(c.url, ok));
    const id = (await track(c.url, path)).id;
    expect(await (await admin(`/orders/${id}`, {})).text()).toBe('err bad status or note: give at least one\n');
    expect(await (await admin(`/orders/${id}`, { note: 'x'.repeat(301) })).text()).toBe('err bad note: at most 300 characters\n');
  });
});

describe('per-network quota', () => {
  it('the third order in an hour from one /24 is 429 err quota with Retry-After', async () => {
    const q = await startCatalog({ CATALOG_ORDERS_PER_HOUR: '2' });
    try {
      for (let i = 0; i < 2; i++) expect((await order(q.url, ok)).status).toBe(303);
      // Bad input is answered before the quota is charged.
      expect((await order(q.url, { ...ok, product: 'nope' })).status).toBe(400);
      const res = await order(q.url, ok);
      expect(res.status).toBe(429);
      const wait = Number(res.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(1700);
      expect(wait).toBeLessThanOrEqual(1800);
      expect(await res.text()).toBe(`err quota orders: 2 per hour per network, retry in ${wait}s\n`);
      // The catalog and tracking stay readable.
      expect((await fetch(`${q.url}/api/catalog.json`)).status).toBe(200);
    } finally {
      await q.stop();
    }
  });
});
