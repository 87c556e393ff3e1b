-- Fingerprints of the secrets every replica must share (src/core/platform/secrets/prints.ts): a truncated
-- SHA-256 per secret, never the secret. Recorded at first start; a process whose keys print
-- otherwise refuses to start. Rotation of the signing ring replaces its row.
CREATE TABLE key_prints (
  name TEXT PRIMARY KEY,
  print TEXT NOT NULL,
  at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
