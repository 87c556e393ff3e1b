CREATE TABLE identities (
  id TEXT PRIMARY KEY,
  name TEXT,
  created INTEGER NOT NULL,
  rep INTEGER NOT NULL DEFAULT 0,
  confirmed INTEGER NOT NULL DEFAULT 0,
  frozen INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE tokens (
  hash TEXT PRIMARY KEY,
  id TEXT NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  class TEXT NOT NULL CHECK (class IN ('user', 'url')),
  created INTEGER NOT NULL,
  revoked INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX tokens_by_id ON tokens(id);

CREATE TABLE spent_proofs (
  challenge TEXT PRIMARY KEY,
  exp INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX spent_proofs_exp ON spent_proofs(exp);
