// BTCPay Server Greenfield API: one invoice per order, priced in EUR (BTCPay converts), the buyer
// is sent to its checkout link and back to the tracking page. Webhooks carry `BTCPay-Sig:
// sha256=<hex HMAC-SHA256(secret, raw body)>`.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { CxError } from '../../core/kernel/errors.js';
import type { BtcpayConfig } from '../config.js';
import { CATALOG_LIMITS } from '../limits.js';
import { fmtEur } from '../products.js';
import { type PaymentAdapter, upstream } from './types.js';

export function btcpayAdapter(cfg: BtcpayConfig): PaymentAdapter {
  return {
    method: 'btcpay',
    missing: () => [
      ...(cfg.url ? [] : ['BTCPAY_URL']),
      ...(cfg.apiKey ? [] : ['BTCPAY_API_KEY']),
      ...(cfg.storeId ? [] : ['BTCPAY_STORE_ID']),
      // Payments are confirmed only by the signed webhook.
      ...(cfg.webhookSecret ? [] : ['BTCPAY_WEBHOOK_SECRET']),
    ],
    async createCheckout({ order, trackingUrl, description }) {
      const body = {
        amount: fmtEur(order.amount_cents),
        currency: 'EUR',
        metadata: { orderId: order.id, itemDesc: description, ...(order.email ? { buyerEmail: order.email } : {}) },
        checkout: { redirectURL: trackingUrl, redirectAutomatically: true },
      };
      let res: Response;
      try {
        res = await fetch(`${cfg.url}/api/v1/stores/${encodeURIComponent(cfg.storeId!)}/invoices`, {
          method: 'POST',
          headers: { authorization: `token ${cfg.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(CATALOG_LIMITS.provider_timeout_ms),
        });
      } catch {
        throw upstream('btcpay', 'did not answer');
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw upstream('btcpay', `answered ${res.status}`);
      }
      const inv = (await res.json().catch(() => null)) as { id?: unknown; checkoutLink?: unknown } | null;
      if (typeof inv?.id !== 'string' || typeof inv.checkoutLink !== 'string' || !/^https?:\/\//.test(inv.checkoutLink)) {
        throw upstream('btcpay', 'returned no checkout link');
      }
      return { provider_ref: inv.id, checkout_url: inv.checkoutLink };
    },
  };
}

export interface BtcpayWebhookEvent {
  type: string;
  invoiceId: string | null;
  storeId: string | null;
  orderId: string | null;
}

export function verifyBtcpayWebhook(cfg: BtcpayConfig, raw: Buffer, sigHeader: string | undefined): BtcpayWebhookEvent {
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(sigHeader?.trim() ?? '');
  if (!m) throw new CxError('bad', 'signature: BTCPay-Sig header missing or not sha256=<hex>');
  const want = createHmac('sha256', cfg.webhookSecret!).update(raw).digest();
  if (!timingSafeEqual(want, Buffer.from(m[1]!, 'hex'))) throw new CxError('bad', 'signature: BTCPay-Sig does not verify');
  let ev: { type?: unknown; invoiceId?: unknown; storeId?: unknown; metadata?: { orderId?: unknown } };
  try {
    ev = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new CxError('bad', 'json: malformed body');
  }
  const s = (v: unknown) => (typeof v === 'string' ? v : null);
  return { type: s(ev?.type) ?? '', invoiceId: s(ev?.invoiceId), storeId: s(ev?.storeId), orderId: s(ev?.metadata?.orderId) };
}
