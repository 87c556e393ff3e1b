// The catalog's pages for people: product list, one order page per product, order tracking, the
// Monero payment page, terms, privacy and error pages. No script anywhere: every page works with
// JavaScript off. Every value that reaches HTML goes through esc(); nothing is raw.
import type { CxError } from '../core/kernel/errors.js';
import { CATALOG_LIMITS } from './limits.js';
import { contactHref, type Offer, type PaymentInfo } from './offer.js';
import { fmtXmr } from './pay/monero.js';
import { eurCents, fmtEur, LOCATIONS, type Product } from './products.js';
import type { Order, OrderEvent, PaymentMethod } from './store.js';
import { canPay, city, iso, maskEmail, moneroUri, statusText } from './views.js';
import { esc } from '../http/html.js';

/** A small icon, so browsers do not log a 404 for /favicon.ico on every page. */
export const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b57d0"/><path d="M4 5h8M4 8h8M4 11h8" stroke="#fff" stroke-width="1.5"/></svg>';

// Colours keep a contrast of at least 4.5:1 on white (WCAG AA); focus is always visible.
const STYLE = [
  'html{-webkit-text-size-adjust:100%}',
  'body{font:16px/1.5 system-ui,sans-serif;max-width:62rem;margin:0 auto;padding:0 1rem;color:#1a1a1a;background:#fff}',
  'a{color:#0b57d0}a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}',
  'header{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:baseline;border-bottom:1px solid #ddd;padding:.75rem 0;margin-bottom:1rem}',
  'header .site{font-weight:700;color:#1a1a1a;text-decoration:none}footer{border-top:1px solid #ddd;margin:2rem 0 1rem;padding-top:.75rem;font-size:.9rem;color:#4a4a4a}',
  'footer p{margin:.25rem 0}.unset{color:#8a1c00}',
  'h1{font-size:1.6rem;line-height:1.25}h2{font-size:1.25rem;margin-top:2rem}',
  'table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem .5rem;text-align:left;vertical-align:top}thead th{border-bottom:2px solid #999}',
  'code{font:.875rem ui-monospace,monospace;background:#f2f2f2;padding:0 .2em;border-radius:3px}',
  '.nw,.slug{white-space:nowrap}.num{text-align:right;white-space:nowrap}.long{overflow-wrap:anywhere}',
  '.muted{color:#4a4a4a}.price{font-weight:700;white-space:nowrap}',
  '.btn,button{display:inline-block;font:inherit;font-weight:600;background:#0b57d0;color:#fff;border:0;border-radius:6px;padding:.5rem 1rem;text-decoration:none;cursor:pointer}',
  'fieldset{border:1px solid #ccc;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}legend{font-weight:600;padding:0 .25rem}',
  '.choice{display:flex;gap:.5rem;align-items:flex-start;margin:.5rem 0}.choice input{margin-top:.35rem}.choice span{display:block}',
  'label.field{display:block;font-weight:600;margin:1rem 0 .25rem}input[type=email]{font:inherit;width:100%;max-width:24rem;padding:.4rem;border:1px solid #767676;border-radius:4px;box-sizing:border-box}',
  '.box{border-left:4px solid #0b57d0;background:#f0f4fb;padding:.5rem 1rem;margin:1rem 0}.err{border-left-color:#b3261e;background:#fcefee}',
  'dl.specs{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem}dl.specs dt{font-weight:600}dl.specs dd{margin:0}',
  'dl.pay dd{margin:0 0 .75rem}',
  '.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}',
  // Phones: wide tables (products, timeline) become one card per row, each cell labelled.
  '@media (max-width:40rem){.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}',
  '.stack tr{display:block;border:1px solid #ccc;border-radius:6px;margin:0 0 1rem;padding:.5rem .75rem}',
  '.stack td,.stack th{display:block;border:0;padding:.15rem 0;text-align:left}.stack td[data-l]::before{content:attr(data-l) ": ";font-weight:600}}',
].join('');

function seller(o: Offer): string {
  const s = o.seller;
  const unset = (what: string, v: string) => `<span class="unset">${esc(what)} not set by the operator (<code>${esc(v)}</code>)</span>`;
  return `<footer>
<p>Seller: ${s.name ? esc(s.name) : unset('name', 'CATALOG_SELLER_NAME')}${s.address ? `, ${esc(s.address)}` : ''}</p>
<p>Contact: ${s.contact ? `<a href="${esc(contactHref(s.contact))}">${esc(s.contact)}</a>` : unset('contact', 'CATALOG_CONTACT')}</p>
<p><a href="${esc(o.termsUrl)}">Terms of sale</a> · <a href="${esc(o.privacyUrl)}">Privacy</a> · <a href="/api/catalog.json">catalog.json</a> · <a href="/llms.txt">llms.txt</a></p>
</footer>`;
}

function shell(o: Offer, title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><link rel="icon" href="/favicon.svg"><title>${esc(title)} · Hosting catalog</title><style>${STYLE}</style></head><body>
<header><a class="site" href="/">Hosting catalog</a><span class="muted">${o.seller.name ? esc(o.seller.name) : 'servers for agents and people'}</span></header>
<main>
${body}
</main>
${seller(o)}
</body></html>
`;
}

const COUNTRY: Record<string, string> = { DE: 'Germany', FI: 'Finland' };
const price = (p: Product) => `${fmtEur(eurCents(p))} EUR / ${p.billing_period}`;
const place = (id: string) => {
  const l = city(id);
  return l ? `${l.city} (${l.id})` : id;
};

export function indexHtml(o: Offer): string {
  const rows = o.catalog.products
    .map(
      (p) => `<tr><th scope="row">${esc(p.name)} <code class="slug">${esc(p.slug)}</code></th>
<td data-l="vCPU" class="nw">${esc(p.vcpu)} ${esc(p.cpu)}</td><td data-l="RAM" class="nw">${esc(p.ram_gb)} GB</td><td data-l="Disk" class="nw">${esc(p.disk_gb)} GB</td><td data-l="Traffic" class="nw">${esc(p.traffic_tb)} TB</td>
<td data-l="Locations">${p.locations.map((l) => `<span class="nw">${esc(place(l))}</span>`).join(', ')}</td><td data-l="Price" class="price">${esc(price(p))}</td>
<td><a class="btn" href="/order/${esc(p.slug)}">Order<span class="sr"> ${esc(p.name)}</span></a></td></tr>`,
    )
    .join('\n');
  return shell(
    o,
    'Servers',
    `<h1>Servers by the month</h1>
${o.catalog.note ? `<p>${esc(o.catalog.note)}</p>` : ''}
<table class="products stack"><caption class="sr">Products, specifications and prices</caption>
<thead><tr><th scope="col">Product</th><th scope="col">vCPU</th><th scope="col">RAM</th><th scope="col">Disk</th><th scope="col">Traffic</th><th scope="col">Locations</th><th scope="col">Price</th><th scope="col"><span class="sr">Order</span></th></tr></thead>
<tbody>
${rows}
</tbody></table>
<h2>Where the servers are</h2>
<ul>${o.locations.map((l) => `<li>${esc(l.city)}, ${esc(COUNTRY[l.country] ?? l.country)} (<code>${esc(l.id)}</code>)</li>`).join('')}</ul>
<p class="muted">Each order page offers only the locations its product is available in.</p>
<h2>How to pay</h2>
${paymentList(o.payments)}
<h2>For agents and scripts</h2>
<p>The same catalog as <a href="/api/catalog.json">JSON</a> and as a short <a href="/llms.txt">text summary</a>. Order without an account:</p>
<p><code class="long">curl -si -d product=${esc(o.catalog.products[0]!.slug)} -d location=${esc(o.catalog.products[0]!.locations[0]!)} -d payment=quote -d email=you@example.org ${esc(o.base)}/api/order</code></p>`,
  );
}

function paymentList(ps: PaymentInfo[]): string {
  return `<dl class="pay">${ps.map((m) => `<dt><strong>${esc(m.label)}</strong></dt><dd>${esc(m.how)}</dd>`).join('')}</dl>`;
}

export function orderHtml(o: Offer, p: Product): string {
  const onlyQuote = o.payments.length === 1 && o.payments[0]!.method === 'quote';
  const radio = (name: string, value: string, id: string, checked: boolean, label: string, hint: string) =>
    `<div class="choice"><input type="radio" name="${name}" id="${id}" value="${esc(value)}"${checked ? ' checked' : ''}${hint ? ` aria-describedby="${id}-h"` : ''}><label for="${id}"><span>${label}</span>${hint ? `<span class="muted" id="${id}-h">${esc(hint)}</span>` : ''}</label></div>`;
  const locs = p.locations.map((id, i) => {
    const l = LOCATIONS.find((x) => x.id === id)!;
    return radio('location', id, `loc-${id}`, i === 0, `${esc(l.city)}, ${esc(l.country)} <code>${esc(id)}</code>`, '');
  });
  const pays = o.payments.map((m, i) => radio('payment', m.method, `pay-${m.method}`, i === 0, esc(m.label), m.how));
  const others = LOCATIONS.filter((l) => !p.locations.includes(l.id));
  return shell(
    o,
    `Order ${p.name}`,
    `<p><a href="/">← All servers</a></p>
<h1>Order ${esc(p.name)}</h1>
${p.description ? `<p>${esc(p.description)}</p>` : ''}
<dl class="specs"><dt>vCPU</dt><dd>${esc(p.vcpu)} ${esc(p.cpu)}</dd><dt>RAM</dt><dd>${esc(p.ram_gb)} GB</dd><dt>Disk</dt><dd>${esc(p.disk_gb)} GB</dd><dt>Traffic</dt><dd>${esc(p.traffic_tb)} TB</dd><dt>Price</dt><dd class="price">${esc(price(p))}</dd></dl>
<form method="post" action="${esc(o.base)}/api/order">
<input type="hidden" name="product" value="${esc(p.slug)}">
<fieldset><legend>Location</legend>
${locs.join('\n')}
${others.length ? `<p class="muted">Not available for this product in ${others.map((l) => esc(l.city)).join(', ')}.</p>` : ''}
</fieldset>
<fieldset><legend>Payment</legend>
${pays.join('\n')}
</fieldset>
<label class="field" for="email">Email${onlyQuote ? '' : ' (needed for a quote)'}</label>
<input type="email" id="email" name="email" autocomplete="email" maxlength="${CATALOG_LIMITS.email_max}"${onlyQuote ? ' required' : ''} aria-describedby="email-h">
<p class="muted" id="email-h">Where the seller writes to you about this order. This site passes it on only to the payment provider you choose.</p>
<p>By ordering you accept the seller's <a href="${esc(o.termsUrl)}">terms of sale</a>. Your order page link is private: keep it.</p>
<p><button type="submit">Place order</button></p>
</form>`,
  );
}

const PAYMENT_LABEL: Record<PaymentMethod, string> = {
  stripe: 'Card (Stripe)',
  btcpay: 'Bitcoin (BTCPay Server)',
  monero: 'Monero (XMR)',
  quote: 'Quote by email',
};

/** What happens next, in words, for the order's state. */
function nextStep(o: Order, trackingUrl: string, justPaid: boolean): string {
  if (o.payment === 'quote' && o.status === 'pending_payment') {
    return `<div class="box"><p><strong>Quote requested.</strong> Nothing to pay now. The seller will reply by email${o.email ? ` to <strong>${esc(maskEmail(o.email)!)}</strong>` : ''} with a price and how to pay. Replies also appear on this page.</p></div>`;
  }
  if (canPay(o)) {
    const back = justPaid ? '<p>Thank you. The payment provider will confirm the payment in a moment; reload this page.</p>' : '';
    return `<div class="box">${back}<p>Waiting for your payment (${esc(PAYMENT_LABEL[o.payment])}).</p><p><a class="btn" href="${esc(trackingUrl)}/pay">Pay now</a></p></div>`;
  }
  return '';
}

export function trackingHtml(off: Offer, o: Order, events: OrderEvent[], trackingUrl: string, justPaid: boolean): string {
  const l = city(o.location);
  const timeline = events
    .map(
      (e) =>
        `<tr><td class="nw">${esc(iso(e.at))}</td><td>${e.status ? `<span class="st">${esc(e.status)}</span>` : ''}</td><td class="long">${esc(e.note)}</td></tr>`,
    )
    .join('\n');
  return shell(
    off,
    `Order ${o.id}`,
    `<h1>Order <code>${esc(o.id)}</code></h1>
<p>Status: <span class="st" id="status">${esc(o.status)}</span>: ${esc(statusText(o))}</p>
${nextStep(o, trackingUrl, justPaid)}
<table>
<tr><th scope="row">product</th><td>${esc(o.product_name)} (<code>${esc(o.product)}</code>)</td></tr>
<tr><th scope="row">location</th><td>${esc(o.location)}${l ? ` (${esc(l.city)} ${esc(l.country)})` : ''}</td></tr>
<tr><th scope="row">amount</th><td>${esc(fmtEur(o.amount_cents))} EUR per ${esc(o.billing_period)}</td></tr>
<tr><th scope="row">payment</th><td>${esc(PAYMENT_LABEL[o.payment])}</td></tr>
${o.email ? `<tr><th scope="row">email</th><td>${esc(maskEmail(o.email)!)}</td></tr>` : ''}
<tr><th scope="row">created</th><td>${esc(iso(o.created))}</td></tr>
</table>
<h2>Timeline</h2>
<table class="stack"><thead><tr><th scope="col">when</th><th scope="col">status</th><th scope="col">what</th></tr></thead>
<tbody>
${timeline}
</tbody></table>
<p>Keep this link private: it is the only access to this order. JSON: <a href="?f=json">?f=json</a></p>`,
  );
}

export function moneroPayHtml(off: Offer, o: Order, trackingUrl: string, confirmations: number, ttlH: number): string {
  const uri = moneroUri(o)!;
  return shell(
    off,
    `Pay order ${o.id} with Monero`,
    `<h1>Pay order <code>${esc(o.id)}</code> with Monero</h1>
<p>Send exactly <strong id="amount">${esc(fmtXmr(o.xmr_atomic!))} XMR</strong> (${esc(fmtEur(o.amount_cents))} EUR at ${esc(o.xmr_rate ?? '')} EUR/XMR) to this address, within ${esc(ttlH)} h:</p>
<p class="long"><code id="address">${esc(o.xmr_address!)}</code></p>
<p><a href="${esc(uri)}">Open in a wallet</a></p>
<p>The order becomes paid after ${esc(confirmations)} confirmations. <a href="${esc(trackingUrl)}">Track the order</a>.</p>`,
  );
}

export function termsHtml(o: Offer): string {
  return shell(
    o,
    'Terms of sale',
    `<h1>Terms of sale</h1>
<div class="box err"><p><strong>The operator of this catalog has not published terms of sale</strong> (<code>CATALOG_TERMS_URL</code> is not set). Before you pay, ask the seller for them${o.seller.contact ? `: <a href="${esc(contactHref(o.seller.contact))}">${esc(o.seller.contact)}</a>` : ''}.</p></div>
<h2>What this software does in any case</h2>
<ul>
<li>Prices are in EUR for one billing period, as listed; an order pays for one period and nothing renews automatically.</li>
<li>A server is set up by the seller after the payment is confirmed; the order page shows each step.</li>
<li>A quote costs nothing: the seller replies by email with an offer.</li>
</ul>`,
  );
}

export function privacyHtml(o: Offer): string {
  return shell(
    o,
    'Privacy',
    `<h1>Privacy</h1>
<div class="box err"><p><strong>The operator of this catalog has not published a privacy policy</strong> (<code>CATALOG_PRIVACY_URL</code> is not set).</p></div>
<h2>What this software stores about an order</h2>
<ul>
<li>The product, location, payment method, amount, the times and every status change.</li>
<li>The email address you give, shown masked on the order page.</li>
<li>The network prefix of your IP address (IPv4 /24, IPv6 /48), to limit orders per network; not the full address.</li>
<li>The private order link only as a hash: nobody can recover it from the database.</li>
</ul>
<p>No cookies, no analytics, no scripts, no third-party content. A payment provider you choose (Stripe, BTCPay Server) receives the amount, a description of the order and your email.</p>`,
  );
}

const ERROR_TITLE: Record<string, string> = {
  bad: 'The order could not be placed',
  quota: 'Too many orders from your network',
  unavailable: 'Not available right now',
  upstream: 'The payment provider did not answer',
  notfound: 'Not found',
  size: 'Too much data',
  internal: 'Something went wrong on our side',
};

/** The error page a browser sees: the reason, the machine line, and the way back. */
export function errorHtml(o: Offer, err: CxError, back: { href: string; label: string }): string {
  const title = ERROR_TITLE[err.code] ?? 'Request refused';
  const extra =
    err.code === 'upstream'
      ? '<p>Nothing was charged. The order was cancelled; you can order again.</p>'
      : err.code === 'quota'
        ? '<p>Please wait and try again later.</p>'
        : '';
  return shell(
    o,
    title,
    `<h1>${esc(title)}</h1>
<div class="box err"><p id="reason">${esc(err.detail)}</p></div>
${extra}
<p><a href="${esc(back.href)}">${esc(back.label)}</a></p>
<p class="muted">For scripts: <code class="long">${esc(err.line)}</code></p>`,
  );
}
