-- Inbound webhook endpoints (src/core/webhooks/ports.ts; PostgreSQL twin of
-- src/store/sqlite/migrations/015_webhooks.sql): the secret is sealed (AES-256-GCM under a subkey
-- of the workspace key, AAD naming the row); events is the filter ('' = every event).
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  provider TEXT NOT NULL,
  topic TEXT NOT NULL,
  events TEXT NOT NULL,
  nonce BYTEA NOT NULL,
  ct BYTEA NOT NULL,
  created BIGINT NOT NULL,
  last BIGINT,
  ok BIGINT NOT NULL DEFAULT 0,
  dropped BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX webhooks_owner ON webhooks (owner, created);
-- Delivery keys (a hash of the provider's delivery id) of accepted deliveries: replays are
-- recognized while a key is kept, and the rows of the last minute and day are the rate counts.
CREATE TABLE webhook_deliveries (
  hook TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  key BYTEA NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (hook, key)
);
CREATE INDEX webhook_deliveries_hook_at ON webhook_deliveries (hook, at);
CREATE INDEX webhook_deliveries_at ON webhook_deliveries (at);
