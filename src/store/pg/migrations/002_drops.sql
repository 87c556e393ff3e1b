-- Dead drops (PostgreSQL twin of src/store/sqlite/migrations/002_drops.sql). No secret and no body
-- in clear: `key` is HMAC-SHA256(server key, secret), `ct` AES-256-GCM ciphertext||tag under a
-- per-drop key, `wkey` an HMAC of the write key. A burn deletes the row; expired rows are purged.
CREATE TABLE drops (
  key BYTEA PRIMARY KEY,
  owner TEXT,
  wkey BYTEA,
  nonce BYTEA NOT NULL,
  ct BYTEA NOT NULL,
  size INTEGER NOT NULL,
  exp BIGINT NOT NULL,
  reads INTEGER NOT NULL CHECK (reads >= 0),
  once BOOLEAN NOT NULL,
  masked INTEGER NOT NULL DEFAULT 0,
  ver INTEGER NOT NULL DEFAULT 1,
  created BIGINT NOT NULL
);
CREATE INDEX drops_exp ON drops(exp);
CREATE INDEX drops_owner ON drops(owner) WHERE owner IS NOT NULL;
