// What the catalog tells machines: catalog JSON, llms.txt and the tracking JSON, all from the one
// Offer so they never disagree with the pages (src/catalog/pages.ts renders the HTML).
import { iso } from '../core/kernel/text.js';
import { STATUS_TEXT } from './lifecycle.js';
import { CATALOG_LIMITS } from './limits.js';
import type { Offer } from './offer.js';
import { fmtXmr } from './pay/monero.js';
import { eurCents, fmtEur, LOCATIONS, type Product } from './products.js';
import type { Order, OrderEvent } from './store.js';

export { iso };
export const city = (id: string) => LOCATIONS.find((l) => l.id === id);

export function catalogJson(o: Offer): object {
  const { catalog: cat, base, seller } = o;
  return {
    products: cat.products.map((p) => ({
      slug: p.slug,
      name: p.name,
      ...(p.description ? { description: p.description } : {}),
      price_eur: p.price_eur,
      billing_period: p.billing_period,
      cpu: p.cpu,
      vcpu: p.vcpu,
      ram_gb: p.ram_gb,
      disk_gb: p.disk_gb,
      traffic_tb: p.traffic_tb,
      locations: p.locations,
    })),
    currency: 'EUR',
    ...(cat.note ? { note: cat.note } : {}),
    locations: o.locations,
    payment: o.payments.map((m) => m.method),
    payment_methods: o.payments.map((m) => ({ id: m.method, label: m.label, how: m.how })),
    seller: { name: seller.name, address: seller.address, contact: seller.contact, terms: o.termsUrl, privacy: o.privacyUrl },
    order: {
      url: `${base}/api/order`,
      page: `${base}/order/{slug}`,
      method: 'POST',
      content_type: 'application/x-www-form-urlencoded',
      fields: {
        product: 'required: a slug from products',
        payment: `required: ${o.payments.map((m) => m.method).join(', ')}`,
        location: "required: one of the product's locations",
        email: 'required for quote (the seller replies by email); otherwise optional, where the seller writes about the order',
      },
      answer: '303 to the payment checkout (quote: to the tracking page); the Link header rel=monitor is the private tracking link',
      limit: `${o.ordersPerHour} orders per hour per network`,
    },
  };
}

function productLine(p: Product): string {
  return `- ${p.slug}: ${p.vcpu} ${p.cpu} vCPU, ${p.ram_gb} GB RAM, ${p.disk_gb} GB disk, ${p.traffic_tb} TB traffic, ${fmtEur(eurCents(p))} EUR/${p.billing_period} (${p.locations.join(' ')})`;
}

/** Under CATALOG_LIMITS.llms_bytes: product lines are dropped from the end when the list is long. */
export function llmsTxt(o: Offer): string {
  const { catalog: cat, base, seller } = o;
  const head = [
    '# Agent Commons hosting catalog',
    `> Servers in ${o.locations.map((l) => `${l.id} (${l.city} ${l.country})`).join(', ')}. ${cat.note ?? 'Prices in EUR.'}`,
    '',
    '## Products',
  ];
  const first = cat.products[0]!;
  const tail = [
    '',
    '## Order (no account, no key)',
    `curl -si -d product=${first.slug} -d location=${first.locations[0]} -d payment=quote -d email=you@example.org ${base}/api/order`,
    `payment: ${o.payments.map((m) => `${m.method} (${m.brief})`).join(', ')}. 303 to the checkout (quote: to the order page); keep the private link (Link rel=monitor, ?f=json). ${o.ordersPerHour} orders/h per network. Errors: one line \`err <code> <detail>\`.`,
    '',
    `Seller: ${seller.name ?? 'not set'}; contact: ${seller.contact ?? 'not set'}; terms: ${o.termsUrl}`,
    `Data: ${base}/api/catalog.json`,
    '',
  ];
  const lines = cat.products.map(productLine);
  const doc = (n: number) =>
    [...head, ...lines.slice(0, n), ...(n < lines.length ? [`- and ${lines.length - n} more in catalog.json`] : []), ...tail].join('\n');
  let n = lines.length;
  while (n > 0 && Buffer.byteLength(doc(n)) >= CATALOG_LIMITS.llms_bytes) n--;
  return doc(n);
}

/** A quote has nothing to pay yet: its pending state says what really happens next. */
export function statusText(o: Order): string {
  if (o.payment === 'quote' && o.status === 'pending_payment') return 'quote requested; the seller will reply by email, nothing to pay yet';
  return STATUS_TEXT[o.status];
}

export const canPay = (o: Order) => o.status === 'pending_payment' && o.payment !== 'quote' && !!o.provider_ref;

export function maskEmail(e: string | null): string | null {
  if (!e) return null;
  const at = e.lastIndexOf('@');
  return `${e.slice(0, 1)}***${e.slice(at)}`;
}

export function moneroUri(o: Order): string | null {
  if (!o.xmr_address || o.xmr_atomic === null) return null;
  return `monero:${o.xmr_address}?tx_amount=${fmtXmr(o.xmr_atomic)}&tx_description=${encodeURIComponent(`order ${o.id}`)}`;
}

export function trackingJson(o: Order, events: OrderEvent[], trackingUrl: string): object {
  const l = city(o.location);
  return {
    id: o.id,
    status: o.status,
    status_text: statusText(o),
    product: { slug: o.product, name: o.product_name },
    location: o.location,
    ...(l ? { location_city: `${l.city} ${l.country}` } : {}),
    billing_period: o.billing_period,
    amount_eur: o.amount_cents / 100,
    payment: o.payment,
    email: maskEmail(o.email),
    created: iso(o.created),
    updated: iso(o.updated),
    ...(canPay(o) ? { pay_url: `${trackingUrl}/pay` } : {}),
    ...(o.payment === 'monero' && o.xmr_address && o.xmr_atomic !== null
      ? { monero: { address: o.xmr_address, amount_xmr: fmtXmr(o.xmr_atomic), eur_per_xmr: Number(o.xmr_rate), uri: moneroUri(o) } }
      : {}),
    timeline: events.map((e) => ({ at: iso(e.at), ...(e.status ? { status: e.status } : {}), note: e.note })),
  };
}
