// Orders: form validation (one line naming the field), creation with a private tracking token,
// the checkout at the chosen provider, and every status change through the lifecycle table.
import { createHash, randomBytes } from 'node:crypto';
import { isEmail } from './email.js';
import { CxError } from '../core/kernel/errors.js';
import type { CatalogConfig } from './config.js';
import { CATALOG_LIMITS } from './limits.js';
import { NEXT } from './lifecycle.js';
import { type Catalog, eurCents, LOCATION_IDS, type LocationId, type Product } from './products.js';
import type { PaymentAdapter } from './pay/types.js';
import { unconfigured } from './pay/types.js';
import { type CatalogStore, type Order, type OrderStatus, PAYMENTS, type PaymentMethod } from './store.js';

export interface OrderInput {
  product: Product;
  payment: PaymentMethod;
  location: LocationId;
  email: string | null;
}

const orList = (xs: readonly string[]) => `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`;
/** Echo a value only when it is short plain ASCII, so a detail line stays one harmless line. */
const echo = (v: string) => (/^[\x21-\x7e]{1,40}$/.test(v) ? ` "${v.replace(/"/g, "'")}"` : '');

function field(body: Record<string, unknown>, name: string): string | null {
  const v = body[name];
  if (Array.isArray(v)) throw new CxError('bad', `${name}: give it once`);
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') throw new CxError('bad', `${name}: must be a string`);
  return v;
}

/** Validates the order form; the error names the first bad field. Unknown fields are ignored. */
export function parseOrder(body: unknown, catalog: Catalog): OrderInput {
  if (body === undefined || body === null || body === '') body = {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new CxError('bad', 'body: send a form (application/x-www-form-urlencoded)');
  const b = body as Record<string, unknown>;

  const slug = field(b, 'product');
  if (slug === null) throw new CxError('bad', 'product: required, a slug from /api/catalog.json');
  const product = catalog.products.find((p) => p.slug === slug);
  if (!product) throw new CxError('bad', `product: unknown slug${echo(slug)}, see /api/catalog.json`);

  const payment = field(b, 'payment');
  if (payment === null) throw new CxError('bad', `payment: required, one of ${orList(PAYMENTS)}`);
  if (!(PAYMENTS as readonly string[]).includes(payment)) throw new CxError('bad', `payment: must be ${orList(PAYMENTS)}`);

  const location = field(b, 'location');
  if (location === null) throw new CxError('bad', `location: required, one of ${orList(product.locations)}`);
  if (!(LOCATION_IDS as readonly string[]).includes(location)) throw new CxError('bad', `location: must be ${orList(LOCATION_IDS)}`);
  if (!(product.locations as string[]).includes(location))
    throw new CxError('bad', `location: ${location} not offered for ${product.slug} (${product.locations.join(', ')})`);

  const email = field(b, 'email');
  if (email !== null && (email.length > CATALOG_LIMITS.email_max || !isEmail(email))) throw new CxError('bad', 'email: not a valid address');
  // A quote is answered by email: without an address the buyer would wait for nothing.
  if (email === null && payment === 'quote') throw new CxError('bad', 'email: required for a quote (the seller replies by email)');

  return { product, payment: payment as PaymentMethod, location: location as LocationId, email };
}

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
export const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
function orderId(): string {
  // 9 chars of base36 after the prefix: ~46 bits, enough for an operator-facing id.
  const bytes = randomBytes(9);
  return 'o' + Array.from(bytes, (b) => ID_ALPHABET[b % 36]).join('');
}

export interface OrdersDeps {
  cfg: CatalogConfig;
  store: CatalogStore;
  adapters: Record<Exclude<PaymentMethod, 'quote'>, PaymentAdapter>;
  now: () => number;
}

export interface Placed {
  order: Order;
  token: string;
  trackingUrl: string;
  /** Where the buyer goes next (303). */
  next: string;
}

export class Orders {
  constructor(private d: OrdersDeps) {}

  trackingUrl(token: string): string {
    return `${this.d.cfg.baseUrl}/o/${token}`;
  }

  /** Fails early (before quota and storage) when the provider cannot take payments. */
  checkAvailable(payment: PaymentMethod): void {
    if (payment === 'quote') return;
    const missing = this.d.adapters[payment].missing();
    if (missing.length) throw unconfigured(`payment ${payment}`, missing);
  }

  async place(input: OrderInput, net: string): Promise<Placed> {
    const { store, now } = this.d;
    const token = randomBytes(32).toString('base64url');
    const t = now();
    const order: Order = {
      id: orderId(),
      token_hash: tokenHash(token),
      product: input.product.slug,
      product_name: input.product.name,
      billing_period: input.product.billing_period,
      location: input.location,
      payment: input.payment,
      email: input.email,
      amount_cents: eurCents(input.product),
      status: 'pending_payment',
      provider_ref: null,
      checkout_url: null,
      xmr_address: null,
      xmr_atomic: null,
      xmr_rate: null,
      net,
      created: t,
      updated: t,
    };
    const trackingUrl = this.trackingUrl(token);
    await store.create(order, input.payment === 'quote' ? 'quote requested; the operator answers on this page' : `order placed; pay by ${input.payment}`);
    if (input.payment === 'quote') return { order, token, trackingUrl, next: trackingUrl };

    const adapter = this.d.adapters[input.payment];
    const description = `${input.product.name} in ${input.location}, one ${input.product.billing_period}, order ${order.id}`;
    try {
      const c = await adapter.createCheckout({ order, trackingUrl, description });
      await store.setCheckout(order.id, c, now());
      Object.assign(order, c);
    } catch (e) {
      const why = e instanceof CxError ? e.line : 'err internal';
      await store.transition(order.id, ['pending_payment'], 'cancelled', `checkout could not be opened (${why}); order again`, now());
      throw e;
    }
    return { order, token, trackingUrl, next: order.checkout_url ?? `${trackingUrl}/pay` };
  }

  /** A provider says the order is paid. Repeated deliveries are no-ops; a cancelled order keeps its status and gets a note. */
  async paid(order: Order, note: string): Promise<'paid' | 'already' | 'late'> {
    const { store, now } = this.d;
    if (await store.transition(order.id, ['pending_payment'], 'paid', note, now())) return 'paid';
    const cur = await store.byId(order.id);
    if (cur?.status === 'cancelled') {
      await store.note(order.id, `${note} after cancellation; the operator will restore or refund`, now());
      return 'late';
    }
    return 'already';
  }

  /** A provider says the checkout expired or failed: only a still-pending order is cancelled. */
  async failed(order: Order, note: string): Promise<boolean> {
    return this.d.store.transition(order.id, ['pending_payment'], 'cancelled', note, this.d.now());
  }

  /** Operator move or note; 409 when the lifecycle does not allow the move. */
  async operatorSet(id: string, to: OrderStatus | null, note: string | null): Promise<Order> {
    const { store, now } = this.d;
    const order = await store.byId(id);
    if (!order) throw new CxError('notfound', `order ${id.slice(0, 20)}`);
    if (to === null) {
      if (!note) throw new CxError('bad', 'status or note: give at least one');
      await store.note(id, `operator: ${note}`, now());
      return (await store.byId(id))!;
    }
    if (order.status === to || !NEXT[order.status].includes(to)) {
      throw new CxError('dup', `order ${order.status}: ${to} not possible`, 409);
    }
    // Compare-and-set on the status just read: a webhook landing meanwhile wins, the operator re-reads.
    const ok = await store.transition(id, [order.status], to, note ? `operator: ${note}` : 'operator', now());
    if (!ok) throw new CxError('dup', `order changed meanwhile, read it again`, 409);
    return (await store.byId(id))!;
  }
}
