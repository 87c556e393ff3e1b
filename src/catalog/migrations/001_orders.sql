-- Orders of the hosting catalog. Prices and names are copied at order time so later edits of
-- catalog/products.json never change an existing order. Only the SHA-256 of the tracking token
-- is kept.
CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  product TEXT NOT NULL,
  product_name TEXT NOT NULL,
  billing_period TEXT NOT NULL,
  location TEXT NOT NULL,
  payment TEXT NOT NULL CHECK (payment IN ('stripe', 'btcpay', 'monero', 'quote')),
  email TEXT,
  amount_cents INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending_payment', 'paid', 'provisioning', 'active', 'cancelled')),
  provider_ref TEXT,
  checkout_url TEXT,
  xmr_address TEXT,
  xmr_atomic INTEGER,
  xmr_rate TEXT,
  net TEXT NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);
CREATE UNIQUE INDEX orders_provider_ref ON orders (payment, provider_ref) WHERE provider_ref IS NOT NULL;
CREATE INDEX orders_status ON orders (status, created);

CREATE TABLE order_events (
  id INTEGER PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders (id),
  at INTEGER NOT NULL,
  status TEXT,
  note TEXT NOT NULL
);
CREATE INDEX order_events_order ON order_events (order_id, id);
