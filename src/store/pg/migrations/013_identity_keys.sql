-- Published identity signing keys and signed confirmations of KB entries (PostgreSQL twin of
-- src/store/sqlite/migrations/013_identity_keys.sql).
CREATE TABLE identity_keys (
  id TEXT PRIMARY KEY,
  pub TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE TABLE kb_signed_confirms (
  entry TEXT NOT NULL,
  id TEXT NOT NULL,
  pub TEXT NOT NULL,
  sig TEXT NOT NULL,
  net TEXT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (entry, id)
);
