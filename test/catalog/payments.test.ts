// An order per payment method against local fake providers (Stripe API, BTCPay Greenfield,
// monero-wallet-rpc), with signed webhooks (or wallet polling) moving the order to paid.
import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BTCPAY_KEY, BTCPAY_STORE, fakeBtcpay, fakeMonero, fakeStripe, STRIPE_KEY } from './fakes.js';
import { type Cat, order, startCatalog, track, trackingPath, waitFor } from './helpers.js';

const base = { product: 'vps-m', location: 'nbg1', email: 'agent@example.org' };

describe('stripe', () => {
  const WHSEC = 'whsec_test_secret_0123456789';
  let fake: Awaited<ReturnType<typeof fakeStripe>>;
  let c: Cat;
  beforeAll(async () => {
    fake = await fakeStripe();
    c = await startCatalog({ STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_WEBHOOK_SECRET: WHSEC, STRIPE_API_BASE: fake.url });
  });
  afterAll(async () => {
    await c.stop();
    await fake.close();
  });

  const hook = (payload: string, sig?: string) =>
    fetch(`${c.url}/api/webhook/stripe`, {
      method: 'POST',
      body: payload,
      headers: { 'content-type': 'application/json', ...(sig ? { 'stripe-signature': sig } : {}) },
    });
  const event = (type: string, session: { id: string; client_reference_id?: string; payment_status?: string }) =>
    JSON.stringify({ id: `evt_${Math.random().toString(36).slice(2)}`, object: 'event', type, data: { object: { object: 'checkout.session', ...session } } });
  const sign = (payload: string, secret = WHSEC) => Stripe.webhooks.generateTestHeaderString({ payload, secret });

  it('catalog lists stripe once it is configured', async () => {
    const j = await (await fetch(`${c.url}/api/catalog.json`)).json();
    expect(j.payment).toEqual(['stripe', 'quote']);
  });

  it('an order opens a Checkout Session priced from the catalog and redirects (303) to it', async () => {
    const res = await order(c.url, { ...base, payment: 'stripe' });
    expect(res.status).toBe(303);
    const s = fake.sessions.at(-1)!;
    expect(res.headers.get('location')).toBe(s.url);
    const path = trackingPath(res);
    const j = await track(c.url, path);
    const call = fake.calls.at(-1)!;
    expect(call.path).toBe('/v1/checkout/sessions');
    expect(call.headers['idempotency-key']).toBe(`order-${j.id}`);
    const f = s.form;
    expect(f.get('mode')).toBe('payment');
    expect(f.get('line_items[0][quantity]')).toBe('1');
    expect(f.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(f.get('line_items[0][price_data][unit_amount]')).toBe('1090');
    expect(f.get('line_items[0][price_data][product_data][name]')).toBe('VPS M');
    expect(f.get('client_reference_id')).toBe(j.id);
    expect(f.get('metadata[order_id]')).toBe(j.id);
    expect(f.get('customer_email')).toBe('agent@example.org');
    expect(f.get('success_url')).toBe(`http://catalog.test${path}?paid=stripe`);
    expect(f.get('cancel_url')).toBe(`http://catalog.test${path}`);
    expect(j).toMatchObject({ status: 'pending_payment', payment: 'stripe', amount_eur: 10.9, pay_url: `http://catalog.test${path}/pay` });
    // The tracking page offers to resume the payment at the same session.
    const pay = await fetch(`${c.url}${path}/pay`, { redirect: 'manual' });
    expect(pay.status).toBe(303);
    expect(pay.headers.get('location')).toBe(s.url);
  });

  it('a bad, missing or foreign signature is refused and changes nothing', async () => {
    const path = trackingPath(await order(c.url, { ...base, payment: 'stripe' }));
    const s = fake.sessions.at(-1)!;
    const payload = event('checkout.session.completed', { id: s.id, payment_status: 'paid' });
    const none = await hook(payload);
    expect(none.status).toBe(400);
    expect(await none.text()).toBe('err bad signature: Stripe-Signature header missing\n');
    const foreign = await hook(payload, sign(payload, 'whsec_someone_else'));
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toBe('err bad signature: Stripe-Signature does not verify\n');
    // Signed, then altered on the way.
    const tampered = await hook(payload.replace('"paid"', '"paid" '), sign(payload));
    expect(tampered.status).toBe(400);
    const old = await hook(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC, timestamp: Math.floor(Date.now() / 1000) - 3600 }));
    expect(old.status).toBe(400);
    expect((await track(c.url, path)).status).toBe('pending_payment');
  });

  it('a signed checkout.session.completed moves the order to paid; a redelivery is a no-op', async () => {
    const path = trackingPath(await order(c.url, { ...base, payment: 'stripe' }));
    const s = fake.sessions.at(-1)!;
    const { id } = await track(c.url, path);
    const payload = event('checkout.session.completed', { id: s.id, client_reference_id: id, payment_status: 'paid' });
    const res = await hook(payload, sign(payload));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(`ok ${id} paid\n`);
    const j = await track(c.url, path);
    expect(j.status).toBe('paid');
    expect(j.pay_url).toBeUndefined();
    expect(j.timeline.at(-1)).toMatchObject({ status: 'paid', note: 'stripe: checkout completed, paid' });
    expect(await (await hook(payload, sign(payload))).text()).toBe(`ok ${id} already\n`);
    // Back from Stripe: the page shows the status; /pay no longer sends anyone to pay.
    const h = await (await fetch(`${c.url}${path}?paid=stripe`)).text();
    expect(h).toContain('<span class="st" id="status">paid</span>');
    expect((await fetch(`${c.url}${path}/pay`, { redirect: 'manual' })).headers.get('location')).toBe(`http://catalog.test${path}`);
  });

  it('an unpaid completion waits; async success pays; expiry cancels; unknown sessions are ignored', async () => {
    const p1 = trackingPath(await order(c.url, { ...base, payment: 'stripe' }));
    const s1 = fake.sessions.at(-1)!;
    const done = event('checkout.session.completed', { id: s1.id, payment_status: 'unpaid' });
    expect(await (await hook(done, sign(done))).text()).toMatch(/^ok o\w+ noted\n$/);
    expect((await track(c.url, p1)).status).toBe('pending_payment');
    const later = event('checkout.session.async_payment_succeeded', { id: s1.id, payment_status: 'paid' });
    expect(await (await hook(later, sign(later))).text()).toMatch(/^ok o\w+ paid\n$/);
    expect((await track(c.url, p1)).status).toBe('paid');

    const p2 = trackingPath(await order(c.url, { ...base, payment: 'stripe' }));
    const s2 = fake.sessions.at(-1)!;
    const exp = event('checkout.session.expired', { id: s2.id });
    expect(await (await hook(exp, sign(exp))).text()).toMatch(/^ok o\w+ cancelled\n$/);
    expect((await track(c.url, p2)).status).toBe('cancelled');
    // A payment that still arrives after cancellation is noted for the operator, status kept.
    const late = event('checkout.session.completed', { id: s2.id, payment_status: 'paid' });
    expect(await (await hook(late, sign(late))).text()).toMatch(/^ok o\w+ late\n$/);
    const j2 = await track(c.url, p2);
    expect(j2.status).toBe('cancelled');
    expect(j2.timeline.at(-1).note).toBe('stripe: checkout completed, paid after cancellation; the operator will restore or refund');

    const other = event('checkout.session.completed', { id: 'cs_test_unknown', payment_status: 'paid' });
    expect(await (await hook(other, sign(other))).text()).toBe('ok ignored checkout.session.completed\n');
    const pi = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.created', data: { object: { object: 'payment_intent', id: 'pi_1' } } });
    expect(await (await hook(pi, sign(pi))).text()).toBe('ok ignored payment_intent.created\n');
  });

  it('a provider refusal is 502 one line, and the stored order is cancelled', async () => {
    const bad = await startCatalog({ STRIPE_SECRET_KEY: 'sk_test_wrong', STRIPE_WEBHOOK_SECRET: WHSEC, STRIPE_API_BASE: fake.url });
    try {
      const res = await order(bad.url, { ...base, payment: 'stripe' });
      expect(res.status).toBe(502);
      expect(await res.text()).toMatch(/^err upstream stripe answered 401 \(\w+\)\n$/);
      const list = await (await fetch(`${bad.url}/api/admin/orders`, { headers: { authorization: 'Bearer cxo_ops_test_token_for_catalog' } })).json();
      expect(list.orders).toHaveLength(1);
      expect(list.orders[0].status).toBe('cancelled');
    } finally {
      await bad.stop();
    }
  });
});

describe('btcpay', () => {
  const SECRET = 'btcpay-webhook-secret';
  let fake: Awaited<ReturnType<typeof fakeBtcpay>>;
  let c: Cat;
  beforeAll(async () => {
    fake = await fakeBtcpay();
    c = await startCatalog({ BTCPAY_URL: fake.url + '/', BTCPAY_API_KEY: BTCPAY_KEY, BTCPAY_STORE_ID: BTCPAY_STORE, BTCPAY_WEBHOOK_SECRET: SECRET });
  });
  afterAll(async () => {
    await c.stop();
    await fake.close();
  });

  const hook = (body: object | string, sig?: string) => {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    return fetch(`${c.url}/api/webhook/btcpay`, {
      method: 'POST',
      body: raw,
      headers: { 'content-type': 'application/json', ...(sig !== undefined ? { 'btcpay-sig': sig } : {}) },
    });
  };
  const sig = (raw: string, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  const ev = (type: string, invoiceId: string, storeId = BTCPAY_STORE) =>
    JSON.stringify({ deliveryId: 'd1', webhookId: 'w1', isRedelivery: false, type, timestamp: 1700000000, storeId, invoiceId, metadata: {} });

  it('an order creates a Greenfield invoice in EUR and redirects (303) to its checkout link', async () => {
    const res = await order(c.url, { ...base, payment: 'btcpay' });
    expect(res.status).toBe(303);
    const inv = fake.invoices.at(-1)!;
    expect(res.headers.get('location')).toBe(inv.checkoutLink);
    const path = trackingPath(res);
    const j = await track(c.url, path);
    expect(fake.calls.at(-1)!.path).toBe(`/api/v1/stores/${BTCPAY_STORE}/invoices`);
    expect(inv.req).toMatchObject({
      amount: '10.90',
      currency: 'EUR',
      metadata: { orderId: j.id, buyerEmail: 'agent@example.org' },
      checkout: { redirectURL: `http://catalog.test${path}`, redirectAutomatically: true },
    });
    expect(inv.req.metadata.itemDesc).toBe(`VPS M in nbg1, one month, order ${j.id}`);
  });

  it('BTCPay-Sig must verify: missing, malformed or wrong is 400', async () => {
    const path = trackingPath(await order(c.url, { ...base, payment: 'btcpay' }));
    const raw = ev('InvoiceSettled', fake.invoices.at(-1)!.id);
    const none = await hook(raw);
    expect(none.status).toBe(400);
    expect(await none.text()).toBe('err bad signature: BTCPay-Sig header missing or not sha256=<hex>\n');
    expect((await hook(raw, 'sha1=abc')).status).toBe(400);
    const wrong = await hook(raw, sig(raw, 'not-the-secret'));
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toBe('err bad signature: BTCPay-Sig does not verify\n');
    expect((await hook(raw + ' ', sig(raw))).status).toBe(400);
    expect((await track(c.url, path)).status).toBe('pending_payment');
  });

  it('signed InvoiceProcessing notes, InvoiceSettled moves to paid', async () => {
    const path = trackingPath(await order(c.url, { ...base, payment: 'btcpay' }));
    const inv = fake.invoices.at(-1)!;
    const { id } = await track(c.url, path);
    const proc = ev('InvoiceProcessing', inv.id);
    expect(await (await hook(proc, sig(proc))).text()).toBe(`ok ${id} noted\n`);
    expect((await track(c.url, path)).status).toBe('pending_payment');
    const settled = ev('InvoiceSettled', inv.id);
    const res = await hook(settled, sig(settled));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(`ok ${id} paid\n`);
    const j = await track(c.url, path);
    expect(j.status).toBe('paid');
    expect(j.timeline.map((e: { note: string }) => e.note)).toEqual([
      'order placed; pay by btcpay',
      'btcpay: payment seen, waiting for confirmations',
      'btcpay: invoice settled',
    ]);
  });

  it('InvoiceExpired cancels; other stores and unknown invoices are ignored', async () => {
    const path = trackingPath(await order(c.url, { ...base, payment: 'btcpay' }));
    const inv = fake.invoices.at(-1)!;
    const foreign = ev('InvoiceExpired', inv.id, 'OtherStore');
    expect(await (await hook(foreign, sig(foreign))).text()).toBe('ok ignored other store\n');
    const unknown = ev('InvoiceSettled', 'NoSuchInvoice');
    expect(await (await hook(unknown, sig(unknown))).text()).toBe('ok ignored InvoiceSettled\n');
    const exp = ev('InvoiceExpired', inv.id);
    expect(await (await hook(exp, sig(exp))).text()).toMatch(/^ok o\w+ cancelled\n$/);
    expect((await track(c.url, path)).status).toBe('cancelled');
  });

  it('a BTCPay server that answers an error is 502', async () => {
    const bad = await startCatalog({ BTCPAY_URL: fake.url, BTCPAY_API_KEY: 'wrong', BTCPAY_STORE_ID: BTCPAY_STORE, BTCPAY_WEBHOOK_SECRET: SECRET });
    try {
      const res = await order(bad.url, { ...base, payment: 'btcpay' });
      expect(res.status).toBe(502);
      expect(await res.text()).toBe('err upstream btcpay answered 401\n');
    } finally {
      await bad.stop();
    }
  });
});

describe('monero', () => {
  const login = { user: 'shop', pass: 'wallet-rpc-pass' };
  let fake: Awaited<ReturnType<typeof fakeMonero>>;
  let c: Cat;
  beforeAll(async () => {
    fake = await fakeMonero(login);
    c = await startCatalog({
      MONERO_WALLET_RPC_URL: fake.url,
      MONERO_WALLET_RPC_USER: login.user,
      MONERO_WALLET_RPC_PASSWORD: login.pass,
      MONERO_EUR_PER_XMR: '150',
      MONERO_CONFIRMATIONS: '10',
      MONERO_POLL_S: '0.1',
    });
  });
  afterAll(async () => {
    await c.stop();
    await fake.close();
  });

  it('an order gets an integrated address (digest login) and a payment page on our side', async () => {
    const res = await order(c.url, { ...base, payment: 'monero' });
    expect(res.status).toBe(303);
    const path = trackingPath(res);
    expect(res.headers.get('location')).toBe(`http://catalog.test${path}/pay`);
    expect(fake.unauthorized).toBeGreaterThan(0);
    const addr = fake.addresses.at(-1)!;
    const page = await fetch(`${c.url}${path}/pay`);
    expect(page.status).toBe(200);
    const h = await page.text();
    // 10.90 EUR at 150 EUR/XMR = 0.0726666… XMR, rounded up to 1e-6.
    expect(h).toContain('<strong id="amount">0.072667 XMR</strong>');
    expect(h).toContain(`<code id="address">${addr.address}</code>`);
    expect(h).toContain(`href="monero:${addr.address}?tx_amount=0.072667&amp;tx_description=order%20`);
    const j = await track(c.url, path);
    expect(j.monero).toMatchObject({ address: addr.address, amount_xmr: '0.072667', eur_per_xmr: 150 });
    expect(j.pay_url).toBe(`http://catalog.test${path}/pay`);
  });

  it('the wallet poll marks the order paid once the payment has enough confirmations', async () => {
    const path = trackingPath(await order(c.url, { ...base, payment: 'monero' }));
    const addr = fake.addresses.at(-1)!;
    // Short payment first, then the rest in the pool, then mined but too shallow.
    fake.payments.push({ payment_id: addr.payment_id, amount: 40_000_000_000, block_height: fake.height - 20, tx_hash: 'aa'.repeat(32) });
    fake.payments.push({ payment_id: addr.payment_id, amount: 32_667_000_000, block_height: 0, tx_hash: 'bb'.repeat(32) });
    await new Promise((r) => setTimeout(r, 400));
    expect((await track(c.url, path)).status).toBe('pending_payment');
    fake.payments[fake.payments.length - 1]!.block_height = fake.height - 2;
    await new Promise((r) => setTimeout(r, 400));
    expect((await track(c.url, path)).status).toBe('pending_payment');
    fake.height += 10;
    const j = await waitFor(
      () => track(c.url, path),
      (v) => v.status === 'paid',
    );
    expect(j.status).toBe('paid');
    expect(j.timeline.at(-1).note).toBe(`monero payment confirmed: 0.072667 XMR, tx ${'aa'.repeat(6)} ${'bb'.repeat(6)}`);
    expect(fake.calls.some((x) => x.body.includes('"get_bulk_payments"') && x.body.includes(addr.payment_id))).toBe(true);
  });

  it('an unpaid Monero order is cancelled after MONERO_ORDER_TTL_H', async () => {
    const short = await startCatalog({
      MONERO_WALLET_RPC_URL: fake.url,
      MONERO_WALLET_RPC_USER: login.user,
      MONERO_WALLET_RPC_PASSWORD: login.pass,
      MONERO_EUR_PER_XMR: '150',
      MONERO_POLL_S: '0.1',
      MONERO_ORDER_TTL_H: '0.0003',
    });
    try {
      const path = trackingPath(await order(short.url, { ...base, payment: 'monero' }));
      const j = await waitFor(
        () => track(short.url, path),
        (v) => v.status === 'cancelled',
        6000,
      );
      expect(j.status).toBe('cancelled');
      expect(j.timeline.at(-1).note).toBe('no full Monero payment within 0.0003 h');
    } finally {
      await short.stop();
    }
  });

  it('a wallet that refuses the login is 502', async () => {
    const bad = await startCatalog({
      MONERO_WALLET_RPC_URL: fake.url,
      MONERO_WALLET_RPC_USER: login.user,
      MONERO_WALLET_RPC_PASSWORD: 'wrong',
      MONERO_EUR_PER_XMR: '150',
    });
    try {
      const res = await order(bad.url, { ...base, payment: 'monero' });
      expect(res.status).toBe(502);
      expect(await res.text()).toBe('err upstream monero wallet answered 401\n');
    } finally {
      await bad.stop();
    }
  });
});
