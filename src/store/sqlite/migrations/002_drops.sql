-- Dead drops. No secret and no body in clear: `key` is HMAC-SHA256(server key, secret), `ct` is
-- AES-256-GCM ciphertext||tag under a per-drop key, `wkey` an HMAC of the write key.
-- A burn deletes the row; expired rows are purged by a background sweep (index on exp).
CREATE TABLE drops (
  key BLOB PRIMARY KEY,
  owner TEXT,
  wkey BLOB,
  nonce BLOB NOT NULL,
  ct BLOB NOT NULL,
  size INTEGER NOT NULL,
  exp INTEGER NOT NULL,
  reads INTEGER NOT NULL CHECK (reads >= 0),
  once INTEGER NOT NULL,
  masked INTEGER NOT NULL DEFAULT 0,
  ver INTEGER NOT NULL DEFAULT 1,
  created INTEGER NOT NULL
) STRICT;
CREATE INDEX drops_exp ON drops(exp);
CREATE INDEX drops_owner ON drops(owner) WHERE owner IS NOT NULL;
