-- Published identity signing keys (src/core/platform/trust/ports.ts): one Ed25519 key per identity, the
-- source of /a/{id}/did.json.
CREATE TABLE identity_keys (
  id TEXT PRIMARY KEY,
  pub TEXT NOT NULL,
  at INTEGER NOT NULL
) STRICT;
-- Signed confirmations of KB entries (conf1 statements by the confirming identity's published key):
-- one per entry and identity; the entry page counts distinct identities and distinct networks.
CREATE TABLE kb_signed_confirms (
  entry TEXT NOT NULL,
  id TEXT NOT NULL,
  pub TEXT NOT NULL,
  sig TEXT NOT NULL,
  net TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (entry, id)
) STRICT, WITHOUT ROWID;
