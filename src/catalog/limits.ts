// Every number of the hosting catalog (Part B). The commons table (src/core/kernel/limits.ts) is
// Part A's; the catalog runs on its own port and keeps its own, published in llms.txt.
const KiB = 1024;

export const CATALOG_LIMITS = {
  /** Orders per network (IPv4 /24, IPv6 /48) per hour; also the burst. CATALOG_ORDERS_PER_HOUR overrides. */
  orders_per_hour: 10,
  /** Order form body. */
  order_body: 4 * KiB,
  /** One path segment (tracking tokens are 43 chars); longer is 414 err bad. */
  url_param: 100,
  /** At shutdown, requests on open connections get 503 err busy (Connection: close) this long. */
  shutdown_drain_ms: 500,
  /** Provider webhook body (Stripe events are a few KiB). */
  webhook_body: 256 * KiB,
  /** Operator note on an order. */
  note_max: 300,
  email_max: 254,
  products_max: 100,
  price_eur_max: 100_000,
  /** /api/catalog.json and /llms.txt: public max-age. */
  catalog_max_age_s: 300,
  /** /llms.txt must stay under this many bytes (as Part A's). */
  llms_bytes: 1200,
  /** Timeout of one call to a payment provider. */
  provider_timeout_ms: 15_000,
  /** Stripe webhook timestamp tolerance. */
  stripe_tolerance_s: 300,
  /** Monero: confirmations before an order counts as paid; poll period; unpaid orders cancelled after. */
  monero_confirmations: 10,
  monero_poll_s: 60,
  monero_ttl_h: 24,
  /** Pending Monero orders checked per poll. */
  monero_poll_batch: 100,
  /** Operator order list page. */
  admin_list_max: 200,
  /** Quota buckets kept in memory before full ones are pruned. */
  quota_keys: 100_000,
} as const;
