// What a buyer can order here, in one place for every view (order page, catalog.json, llms.txt):
// the locations some product is offered in, and each usable payment method with what it means.
import type { CatalogConfig, SellerConfig } from './config.js';
import { type Catalog, LOCATIONS } from './products.js';
import type { PaymentMethod } from './store.js';

export interface PaymentInfo {
  method: PaymentMethod;
  /** Short name for a person. */
  label: string;
  /** What happens when a buyer picks it, in one or two sentences. */
  how: string;
  /** The same in a few words, for llms.txt. */
  brief: string;
}

export interface Offer {
  catalog: Catalog;
  base: string;
  /** Locations at least one product can be ordered in, in the order of LOCATIONS. */
  locations: (typeof LOCATIONS)[number][];
  /** Usable methods only: configured providers, then quote. */
  payments: PaymentInfo[];
  seller: SellerConfig;
  termsUrl: string;
  privacyUrl: string;
  ordersPerHour: number;
}

function paymentInfo(m: PaymentMethod, cfg: CatalogConfig): PaymentInfo {
  switch (m) {
    case 'stripe':
      return {
        method: m,
        label: 'Card (Stripe)',
        brief: 'card',
        how: "You pay by card on Stripe's checkout page, then come back to your order page. The order is paid as soon as Stripe confirms the payment.",
      };
    case 'btcpay':
      return {
        method: m,
        label: 'Bitcoin (BTCPay Server)',
        brief: 'Bitcoin',
        how: "You pay a Bitcoin invoice priced in EUR on the seller's BTCPay Server page. The order is paid when the invoice settles.",
      };
    case 'monero':
      return {
        method: m,
        label: 'Monero (XMR)',
        brief: 'XMR',
        how: `After ordering you see an address and the exact amount in XMR at ${cfg.monero.eurPerXmr} EUR per XMR. The order is paid after ${cfg.monero.confirmations} confirmations; unpaid orders are cancelled after ${cfg.monero.ttlH} h.`,
      };
    case 'quote':
      return {
        method: m,
        label: 'Quote by email',
        brief: 'no payment now; reply by email',
        how: 'Nothing to pay now. The seller replies by email with an offer and how to pay; your email address is needed.',
      };
  }
}

export function buildOffer(cfg: CatalogConfig, usable: PaymentMethod[]): Offer {
  const used = new Set(cfg.catalog.products.flatMap((p) => p.locations));
  return {
    catalog: cfg.catalog,
    base: cfg.baseUrl,
    locations: LOCATIONS.filter((l) => used.has(l.id)),
    payments: usable.map((m) => paymentInfo(m, cfg)),
    seller: cfg.seller,
    termsUrl: cfg.seller.termsUrl ?? `${cfg.baseUrl}/terms`,
    privacyUrl: cfg.seller.privacyUrl ?? `${cfg.baseUrl}/privacy`,
    ordersPerHour: cfg.ordersPerHour,
  };
}

/** "mailto:" for an email contact, the URL itself otherwise. */
export const contactHref = (c: string) => (/^https?:\/\//.test(c) ? c : `mailto:${c}`);
