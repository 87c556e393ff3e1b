// What the catalog shows: catalog JSON, llms.txt, the order form page, the tracking page and the
// Monero payment page. Every value that reaches HTML goes through esc(); nothing is raw.
import { STATUS_TEXT } from './lifecycle.js';
import { CATALOG_LIMITS } from './limits.js';
import { fmtXmr } from './pay/monero.js';
import { type Catalog, eurCents, fmtEur, LOCATIONS, type Product } from './products.js';
import type { Order, OrderEvent, PaymentMethod } from './store.js';

export function esc(s: string | number): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const city = (id: string) => LOCATIONS.find((l) => l.id === id);

export function catalogJson(cat: Catalog, base: string, payments: PaymentMethod[], ordersPerHour: number): object {
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
    locations: LOCATIONS,
    payment: payments,
    order: {
      url: `${base}/api/order`,
      method: 'POST',
      content_type: 'application/x-www-form-urlencoded',
      fields: {
        product: 'required: a slug from products',
        payment: `required: ${payments.join(', ')}`,
        location: "required: one of the product's locations",
        email: 'optional: where the operator writes about the order',
      },
      answer: '303 to the payment checkout (quote: to the tracking page); the Link header rel=monitor is the private tracking link',
      limit: `${ordersPerHour} orders per hour per network`,
    },
  };
}

function productLine(p: Product): string {
  return `- ${p.slug}: ${p.vcpu} ${p.cpu} vCPU, ${p.ram_gb} GB RAM, ${p.disk_gb} GB disk, ${p.traffic_tb} TB traffic, ${fmtEur(eurCents(p))} EUR/${p.billing_period} (${p.locations.join(' ')})`;
}

/** Under CATALOG_LIMITS.llms_bytes: product lines are dropped from the end when the list is long. */
export function llmsTxt(cat: Catalog, base: string, payments: PaymentMethod[], ordersPerHour: number): string {
  const head = [
    '# Agent Commons hosting catalog',
    `> Servers in ${LOCATIONS.map((l) => `${l.id} (${l.city} ${l.country})`).join(', ')}. ${cat.note ?? 'Prices in EUR.'}`,
    '',
    '## Products',
  ];
  const tail = [
    '',
    '## Order (no account, no key)',
    `curl -si -d product=${cat.products[0]!.slug} -d location=${cat.products[0]!.locations[0]} -d payment=quote -d email=you@example.org ${base}/api/order`,
    `payment: ${payments.join(', ')}. 303 to the checkout, or for quote to the tracking page; keep the private tracking link (Link rel=monitor, ?f=json). ${ordersPerHour} orders/h per network. Errors: one line \`err <code> <detail>\`.`,
    '',
    `Data: ${base}/api/catalog.json`,
    '',
  ];
  const lines = cat.products.map(productLine);
  const size = (n: number) => Buffer.byteLength([...head, ...lines.slice(0, n), ...(n < lines.length ? [`- and ${lines.length - n} more in catalog.json`] : []), ...tail].join('\n'));
  let n = lines.length;
  while (n > 0 && size(n) >= CATALOG_LIMITS.llms_bytes) n--;
  return [...head, ...lines.slice(0, n), ...(n < lines.length ? [`- and ${lines.length - n} more in catalog.json`] : []), ...tail].join('\n');
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}code{font:14px ui-monospace,monospace;background:#f4f4f4;word-break:break-all}.st{font-weight:600}label{display:block;margin:.4rem 0}';

function shell(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${esc(title)}</title><style>${STYLE}</style></head><body>
${body}
</body></html>
`;
}

export function indexHtml(cat: Catalog, base: string, payments: PaymentMethod[]): string {
  const rows = cat.products
    .map((p) => `<tr><td><code>${esc(p.slug)}</code></td><td>${esc(p.name)}</td><td>${esc(p.vcpu)} ${esc(p.cpu)}</td><td>${esc(p.ram_gb)} GB</td><td>${esc(p.disk_gb)} GB</td><td>${esc(p.traffic_tb)} TB</td><td>${esc(p.locations.join(' '))}</td><td>${esc(fmtEur(eurCents(p)))} EUR/${esc(p.billing_period)}</td></tr>`)
    .join('\n');
  const opt = (v: string, label: string) => `<option value="${esc(v)}">${esc(label)}</option>`;
  return shell(
    'Hosting catalog',
    `<h1>Hosting catalog</h1>
${cat.note ? `<p>${esc(cat.note)}</p>` : ''}
<table><tr><th>slug</th><th>name</th><th>vCPU</th><th>RAM</th><th>disk</th><th>traffic</th><th>locations</th><th>price</th></tr>
${rows}</table>
<h2>Order</h2>
<form method="post" action="${esc(base)}/api/order">
<label>product <select name="product">${cat.products.map((p) => opt(p.slug, `${p.name} (${fmtEur(eurCents(p))} EUR)`)).join('')}</select></label>
<label>location <select name="location">${LOCATIONS.map((l) => opt(l.id, `${l.id} ${l.city}`)).join('')}</select></label>
<label>payment <select name="payment">${payments.map((m) => opt(m, m)).join('')}</select></label>
<label>email (optional) <input type="email" name="email" maxlength="${CATALOG_LIMITS.email_max}"></label>
<button>Order</button>
</form>
<p><a href="${esc(base)}/api/catalog.json">catalog.json</a> · <a href="${esc(base)}/llms.txt">llms.txt</a></p>`,
  );
}

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
    status_text: STATUS_TEXT[o.status],
    product: { slug: o.product, name: o.product_name },
    location: o.location,
    ...(l ? { location_city: `${l.city} ${l.country}` } : {}),
    billing_period: o.billing_period,
    amount_eur: o.amount_cents / 100,
    payment: o.payment,
    email: maskEmail(o.email),
    created: iso(o.created),
    updated: iso(o.updated),
    ...(o.status === 'pending_payment' && o.payment !== 'quote' && o.provider_ref ? { pay_url: `${trackingUrl}/pay` } : {}),
    ...(o.payment === 'monero' && o.xmr_address && o.xmr_atomic !== null
      ? { monero: { address: o.xmr_address, amount_xmr: fmtXmr(o.xmr_atomic), eur_per_xmr: Number(o.xmr_rate), uri: moneroUri(o) } }
      : {}),
    timeline: events.map((e) => ({ at: iso(e.at), ...(e.status ? { status: e.status } : {}), note: e.note })),
  };
}

export function trackingHtml(o: Order, events: OrderEvent[], trackingUrl: string, justPaid: boolean): string {
  const l = city(o.location);
  const pay =
    o.status === 'pending_payment' && o.payment !== 'quote' && o.provider_ref
      ? `<p><a href="${esc(trackingUrl)}/pay">Pay now (${esc(o.payment)})</a></p>`
      : '';
  const back = justPaid && o.status === 'pending_payment' ? '<p>Thank you. The payment provider will confirm the payment in a moment; reload this page.</p>' : '';
  const timeline = events
    .map((e) => `<tr><td>${esc(iso(e.at))}</td><td>${e.status ? `<span class="st">${esc(e.status)}</span>` : ''}</td><td>${esc(e.note)}</td></tr>`)
    .join('\n');
  return shell(
    `Order ${o.id}`,
    `<h1>Order <code>${esc(o.id)}</code></h1>
<p>Status: <span class="st" id="status">${esc(o.status)}</span>: ${esc(STATUS_TEXT[o.status])}</p>
${back}${pay}
<table>
<tr><th>product</th><td>${esc(o.product_name)} (<code>${esc(o.product)}</code>)</td></tr>
<tr><th>location</th><td>${esc(o.location)}${l ? ` (${esc(l.city)} ${esc(l.country)})` : ''}</td></tr>
<tr><th>amount</th><td>${esc(fmtEur(o.amount_cents))} EUR per ${esc(o.billing_period)}</td></tr>
<tr><th>payment</th><td>${esc(o.payment)}</td></tr>
${o.email ? `<tr><th>email</th><td>${esc(maskEmail(o.email)!)}</td></tr>` : ''}
<tr><th>created</th><td>${esc(iso(o.created))}</td></tr>
</table>
<h2>Timeline</h2>
<table><tr><th>when</th><th>status</th><th>what</th></tr>
${timeline}</table>
<p>Keep this link private: it is the only access to this order. JSON: <a href="?f=json">?f=json</a></p>`,
  );
}

export function moneroPayHtml(o: Order, trackingUrl: string, confirmations: number, ttlH: number): string {
  const uri = moneroUri(o)!;
  return shell(
    `Pay order ${o.id} with Monero`,
    `<h1>Pay order <code>${esc(o.id)}</code> with Monero</h1>
<p>Send exactly <strong id="amount">${esc(fmtXmr(o.xmr_atomic!))} XMR</strong> (${esc(fmtEur(o.amount_cents))} EUR at ${esc(o.xmr_rate ?? '')} EUR/XMR) to this address, within ${esc(ttlH)} h:</p>
<p><code id="address">${esc(o.xmr_address!)}</code></p>
<p><a href="${esc(uri)}">Open in a wallet</a></p>
<p>The order becomes paid after ${esc(confirmations)} confirmations. <a href="${esc(trackingUrl)}">Track the order</a>.</p>`,
  );
}
