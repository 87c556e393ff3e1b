// Provider webhooks. They read the raw body (signatures are over the exact bytes), verify it,
// then move the order through the lifecycle. Unknown events and orders answer 200 `ok ignored`
// so providers stop retrying; a bad signature is 400, an unset secret 503.
import type { FastifyInstance } from 'fastify';
import type { CatalogConfig } from './config.js';
import { TEXT } from './http.js';
import { CATALOG_LIMITS } from './limits.js';
import type { Orders } from './orders.js';
import { verifyBtcpayWebhook } from './pay/btcpay.js';
import { verifyStripeWebhook } from './pay/stripe.js';
import { unconfigured } from './pay/types.js';
import type { CatalogStore, Order } from './store.js';

export async function registerWebhooks(app: FastifyInstance, cfg: CatalogConfig, store: CatalogStore, orders: Orders, now: () => number): Promise<void> {
  await app.register(async (w) => {
    w.removeAllContentTypeParsers();
    w.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: CATALOG_LIMITS.webhook_body }, (_req, body, done) => done(null, body));
    const ok = (line: string) => line.replace(/[^\w .:-]/g, '').slice(0, 120) + '\n';

    w.post('/api/webhook/stripe', { bodyLimit: CATALOG_LIMITS.webhook_body }, async (req, reply) => {
      if (!cfg.stripe.webhookSecret) throw unconfigured('stripe webhook', ['STRIPE_WEBHOOK_SECRET']);
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const sig = req.headers['stripe-signature'];
      const ev = verifyStripeWebhook(cfg.stripe, raw.toString('utf8'), typeof sig === 'string' ? sig : undefined);
      reply.type(TEXT);
      let order: Order | null = ev.sessionId ? await store.byProviderRef('stripe', ev.sessionId) : null;
      if (!order && ev.orderId) {
        const o = await store.byId(ev.orderId);
        order = o?.payment === 'stripe' ? o : null;
      }
      if (!order) return ok(`ok ignored ${ev.type}`);
      switch (ev.type) {
        case 'checkout.session.completed':
          if (ev.paymentStatus === 'paid' || ev.paymentStatus === 'no_payment_required') {
            return ok(`ok ${order.id} ${await orders.paid(order, 'stripe: checkout completed, paid')}`);
          }
          await store.note(order.id, 'stripe: checkout completed, payment still processing', now());
          return ok(`ok ${order.id} noted`);
        case 'checkout.session.async_payment_succeeded':
          return ok(`ok ${order.id} ${await orders.paid(order, 'stripe: payment succeeded')}`);
        case 'checkout.session.async_payment_failed':
          return ok(`ok ${order.id} ${(await orders.failed(order, 'stripe: payment failed')) ? 'cancelled' : 'unchanged'}`);
        case 'checkout.session.expired':
          return ok(`ok ${order.id} ${(await orders.failed(order, 'stripe: checkout expired unpaid')) ? 'cancelled' : 'unchanged'}`);
      }
      return ok(`ok ignored ${ev.type}`);
    });

    w.post('/api/webhook/btcpay', { bodyLimit: CATALOG_LIMITS.webhook_body }, async (req, reply) => {
      if (!cfg.btcpay.webhookSecret) throw unconfigured('btcpay webhook', ['BTCPAY_WEBHOOK_SECRET']);
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const sig = req.headers['btcpay-sig'];
      const ev = verifyBtcpayWebhook(cfg.btcpay, raw, typeof sig === 'string' ? sig : undefined);
      reply.type(TEXT);
      if (cfg.btcpay.storeId && ev.storeId && ev.storeId !== cfg.btcpay.storeId) return ok('ok ignored other store');
      const order = ev.invoiceId ? await store.byProviderRef('btcpay', ev.invoiceId) : null;
      if (!order) return ok(`ok ignored ${ev.type || 'event'}`);
      switch (ev.type) {
        case 'InvoiceSettled':
          return ok(`ok ${order.id} ${await orders.paid(order, 'btcpay: invoice settled')}`);
        case 'InvoiceProcessing':
        case 'InvoiceReceivedPayment':
          if (order.status === 'pending_payment') await store.note(order.id, 'btcpay: payment seen, waiting for confirmations', now());
          return ok(`ok ${order.id} noted`);
        case 'InvoiceExpired':
        case 'InvoiceInvalid':
          return ok(
            `ok ${order.id} ${(await orders.failed(order, `btcpay: invoice ${ev.type === 'InvoiceExpired' ? 'expired' : 'invalid'}`)) ? 'cancelled' : 'unchanged'}`,
          );
      }
      return ok(`ok ignored ${ev.type || 'event'}`);
    });
  });
}
