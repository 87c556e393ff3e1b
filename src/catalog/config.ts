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

export interface CatalogConfig {
  baseUrl: string;
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

export function loadCatalogConfig(env: NodeJS.ProcessEnv): CatalogConfig {
  const port = env.CATALOG_PORT || '8081';
  const productsFile = resolve(env.CATALOG_PRODUCTS || defaultProducts);
  const rate = str(env.MONERO_EUR_PER_XMR);
  const eurPerXmr = rate === null ? null : num(env, 'MONERO_EUR_PER_XMR', 0, 0.000001);
  return {
    baseUrl: url(env, 'CATALOG_BASE_URL') ?? `http://localhost:${port}`,
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
