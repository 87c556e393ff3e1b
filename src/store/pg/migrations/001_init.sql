-- Identities, their tokens (hashes only) and the spent-PoW set (PostgreSQL twin of
-- src/store/sqlite/migrations/001_init.sql). Times are epoch ms (BIGINT), flags BOOLEAN.
CREATE TABLE identities (
  id TEXT PRIMARY KEY,
  name TEXT,
  created BIGINT NOT NULL,
  rep INTEGER NOT NULL DEFAULT 0,
  confirmed INTEGER NOT NULL DEFAULT 0,
  frozen BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE TABLE tokens (
  hash TEXT PRIMARY KEY,
  id TEXT NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  class TEXT NOT NULL CHECK (class IN ('user', 'url')),
  created BIGINT NOT NULL,
  revoked BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX tokens_by_id ON tokens(id);

-- Shared by every replica: a proof spent on one is refused on all (INSERT ... ON CONFLICT DO NOTHING).
CREATE TABLE spent_proofs (
  challenge TEXT PRIMARY KEY,
  exp BIGINT NOT NULL
);
CREATE INDEX spent_proofs_exp ON spent_proofs(exp);
