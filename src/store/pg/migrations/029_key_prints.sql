-- Fingerprints of the secrets every replica must share (PostgreSQL twin of
-- src/store/sqlite/migrations/028_key_prints.sql): a truncated SHA-256 per secret, never the secret.
CREATE TABLE key_prints (
  name TEXT PRIMARY KEY,
  print TEXT NOT NULL,
  at BIGINT NOT NULL
);
