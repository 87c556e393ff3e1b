// Stripe Checkout Sessions through the official client. One-time payment of one billing period,
// priced inline from the catalog (no Price objects to keep in sync); the buyer returns to the
// tracking page. Webhooks are verified with the client's own signature check.
import Stripe from 'stripe';
import { CxError } from '../../core/kernel/errors.js';
import type { StripeConfig } from '../config.js';
import { CATALOG_LIMITS } from '../limits.js';
import { type PaymentAdapter, upstream } from './types.js';

function client(cfg: StripeConfig): Stripe {
  const opts: ConstructorParameters<typeof Stripe>[1] = {
    maxNetworkRetries: 1,
    timeout: CATALOG_LIMITS.provider_timeout_ms,
    telemetry: false,
  };
  if (cfg.apiBase) {
    const u = new URL(cfg.apiBase);
    opts.host = u.hostname;
    opts.protocol = u.protocol === 'http:' ? 'http' : 'https';
    opts.port = u.port || (u.protocol === 'http:' ? 80 : 443);
  }
  return new Stripe(cfg.secretKey!, opts);
}

export function stripeAdapter(cfg: StripeConfig): PaymentAdapter {
  let api: Stripe | null = null;
  return {
    method: 'stripe',
    // Without the webhook secret a payment could never mark its order paid: both are needed.
    missing: () => [...(cfg.secretKey ? [] : ['STRIPE_SECRET_KEY']), ...(cfg.webhookSecret ? [] : ['STRIPE_WEBHOOK_SECRET'])],
    async createCheckout({ order, trackingUrl, description }) {
      api ??= client(cfg);
      let s: Stripe.Checkout.Session;
      try {
        s = await api.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: 'eur',
                  unit_amount: order.amount_cents,
                  product_data: { name: order.product_name, description },
                },
              },
            ],
            client_reference_id: order.id,
            metadata: { order_id: order.id, product: order.product, location: order.location },
            ...(order.email ? { customer_email: order.email } : {}),
            success_url: `${trackingUrl}?paid=stripe`,
            cancel_url: trackingUrl,
          },
          // A retried create must not open a second session for the same order.
          { idempotencyKey: `order-${order.id}` },
        );
      } catch (e) {
        const err = e as { type?: string; statusCode?: number };
        throw upstream('stripe', err.statusCode ? `answered ${err.statusCode} (${err.type ?? 'error'})` : 'did not answer');
      }
      if (!s?.id || typeof s.url !== 'string') throw upstream('stripe', 'returned no checkout url');
      return { provider_ref: s.id, checkout_url: s.url };
    },
  };
}

export interface StripeWebhookEvent {
  type: string;
  sessionId: string | null;
  orderId: string | null;
  paymentStatus: string | null;
}

/** Verifies `Stripe-Signature` over the raw body and extracts what the order needs. */
export function verifyStripeWebhook(cfg: StripeConfig, raw: string, signature: string | undefined): StripeWebhookEvent {
  if (!signature) throw new CxError('bad', 'signature: Stripe-Signature header missing');
  let ev: Stripe.Event;
  try {
    ev = Stripe.webhooks.constructEvent(raw, signature, cfg.webhookSecret!, CATALOG_LIMITS.stripe_tolerance_s);
  } catch {
    throw new CxError('bad', 'signature: Stripe-Signature does not verify');
  }
  const obj = (ev.data?.object ?? {}) as {
    object?: string;
    id?: string;
    client_reference_id?: string | null;
    payment_status?: string;
    metadata?: Record<string, string> | null;
  };
  const isSession = obj.object === 'checkout.session';
  return {
    type: ev.type,
    sessionId: isSession && typeof obj.id === 'string' ? obj.id : null,
    orderId: isSession ? (obj.client_reference_id ?? obj.metadata?.order_id ?? null) : null,
    paymentStatus: isSession ? (obj.payment_status ?? null) : null,
  };
}
