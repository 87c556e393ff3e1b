-- Published identity signing keys (src/core/trust/ports.ts): one Ed25519 key per identity, the
-- source of /a/{id}/did.json.
CREATE TABLE identity_keys (
  id TEXT PRIMARY KEY,
  pub TEXT NOT NULL,
  at INTEGER NOT NULL
) STRICT;
