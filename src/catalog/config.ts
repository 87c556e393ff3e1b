// Catalog configuration, from the environment only. A payment provider is "configured" when all
// of its required variables are set; the names of the missing ones are what a 503 reports.
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { CATALOG_LIMITS } from './limits.js';
import { type Catalog, loadProducts } from './products.js';

export interface StripeConfig {
  secretKey: string | null;
  webhookSecret: string | null;
  /** Only for tests and proxies: where the stripe client sends its calls (default api.stripe.com). */
  apiBase: string | null;
}
export interface BtcpayConfig {
  url: string | null;
  apiKey: string | null;
  storeId: string | null;
  webhookSecret: string | null;
}
export interface MoneroConfig {
  rpcUrl: string | null;
  rpcUser: string | null;
  rpcPassword: string | null;
  /** Exchange rate used to price an order in XMR at order time. */
  eurPerXmr: number | null;
  confirmations: number;
  pollS: number;
  ttlH: number;
}

/** Who sells, shown on every page, in catalog.json and llms.txt; null = the operator has not set it. */
export interface SellerConfig {
  name: string | null;
  /** Postal address of the seller (many jurisdictions require it on a shop). */
  address: string | null;
  /** An email address or an http(s) URL where buyers reach the seller. */
  contact: string | null;
  /** The operator's own terms and privacy pages; unset → the catalog's /terms and /privacy say so. */
  termsUrl: string | null;
  privacyUrl: string | null;
}

export interface CatalogConfig {
  baseUrl: string;
  seller: SellerConfig;
  productsFile: string;
  catalog: Catalog;
  ordersPerHour: number;
  stripe: StripeConfig;
  btcpay: BtcpayConfig;
  monero: MoneroConfig;
}

const defaultProducts = fileURLToPath(new URL('../../catalog/products.json', import.meta.url));

const str = (v: string | undefined): string | null => (v && v.trim() ? v.trim() : null);

function num(env: NodeJS.ProcessEnv, name: string, dflt: number, min: number): number {
  const v = env[name];
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min) throw new Error(`config: ${name} must be a number >= ${min}`);
  return n;
}

function url(env: NodeJS.ProcessEnv, name: string): string | null {
  const v = str(env[name]);
  if (!v) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new Error(`config: ${name} must be an http(s) URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`config: ${name} must be an http(s) URL`);
  return v.replace(/\/+$/, '');
}

const CONTACT_EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,190}\.[A-Za-z]{2,63}$/;

function contact(env: NodeJS.ProcessEnv): string | null {
  const v = str(env.CATALOG_CONTACT);
  if (v === null || CONTACT_EMAIL.test(v)) return v;
  if (/^https?:\/\//.test(v)) return url(env, 'CATALOG_CONTACT');
  throw new Error('config: CATALOG_CONTACT must be an email address or an http(s) URL');
}

function text(env: NodeJS.ProcessEnv, name: string, max: number): string | null {
  const v = str(env[name]);
  if (v !== null && (v.length > max || /[\x00-\x1f\x7f]/.test(v))) throw new Error(`config: ${name} must be one line of at most ${max} characters`);
  return v;
}

export function loadCatalogConfig(env: NodeJS.ProcessEnv): CatalogConfig {
  const port = env.CATALOG_PORT || '8081';
  const productsFile = resolve(env.CATALOG_PRODUCTS || defaultProducts);
  const rate = str(env.MONERO_EUR_PER_XMR);
  const eurPerXmr = rate === null ? null : num(env, 'MONERO_EUR_PER_XMR', 0, 0.000001);
  return {
    baseUrl: url(env, 'CATALOG_BASE_URL') ?? `http://localhost:${port}`,
    seller: {
      name: text(env, 'CATALOG_SELLER_NAME', 120),
      address: text(env, 'CATALOG_SELLER_ADDRESS', 200),
      contact: contact(env),
      termsUrl: url(env, 'CATALOG_TERMS_URL'),
      privacyUrl: url(env, 'CATALOG_PRIVACY_URL'),
    },
    productsFile,
    catalog: loadProducts(productsFile),
    ordersPerHour: Math.floor(num(env, 'CATALOG_ORDERS_PER_HOUR', CATALOG_LIMITS.orders_per_hour, 1)),
    stripe: {
      secretKey: str(env.STRIPE_SECRET_KEY),
      webhookSecret: str(env.STRIPE_WEBHOOK_SECRET),
      apiBase: url(env, 'STRIPE_API_BASE'),
    },
    btcpay: {
      url: url(env, 'BTCPAY_URL'),
      apiKey: str(env.BTCPAY_API_KEY),
      storeId: str(env.BTCPAY_STORE_ID),
      webhookSecret: str(env.BTCPAY_WEBHOOK_SECRET),
    },
    monero: {
      rpcUrl: url(env, 'MONERO_WALLET_RPC_URL'),
      rpcUser: str(env.MONERO_WALLET_RPC_USER),
      rpcPassword: str(env.MONERO_WALLET_RPC_PASSWORD),
      eurPerXmr,
      confirmations: Math.floor(num(env, 'MONERO_CONFIRMATIONS', CATALOG_LIMITS.monero_confirmations, 0)),
      pollS: num(env, 'MONERO_POLL_S', CATALOG_LIMITS.monero_poll_s, 0.05),
      ttlH: num(env, 'MONERO_ORDER_TTL_H', CATALOG_LIMITS.monero_ttl_h, 0.0001),
    },
  };
}
