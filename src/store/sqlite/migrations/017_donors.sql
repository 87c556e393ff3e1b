-- Replicated compute jobs (src/core/compute/donors.ts): k of n replicas run by donors that lease a
-- slot, sign their result (dsig) and are paid when they agree with the quorum; the server signs an
-- att1 receipt; receipts of a donor later proven dishonest are revoked (kept compute.att_keep_d).

CREATE TABLE cjobs (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  ver INTEGER NOT NULL,
  wasm TEXT NOT NULL,
  caller TEXT NOT NULL,
  input BLOB NOT NULL,
  in_hash TEXT NOT NULL,
  k INTEGER NOT NULL,
  n INTEGER NOT NULL,
  price INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'done', 'failed')),
  out_hash TEXT,
  output BLOB,
  receipt TEXT,
  created INTEGER NOT NULL,
  ended INTEGER
) STRICT, WITHOUT ROWID;
CREATE INDEX cjobs_open ON cjobs(state, created);

CREATE TABLE cjob_slots (
  job TEXT NOT NULL REFERENCES cjobs(id) ON DELETE CASCADE,
  slot INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'leased', 'done')),
  lease TEXT UNIQUE,
  donor TEXT,
  pub TEXT,
  deadline INTEGER,
  out_hash TEXT,
  output BLOB,
  dsig TEXT,
  at INTEGER,
  PRIMARY KEY (job, slot)
) STRICT, WITHOUT ROWID;

CREATE TABLE donors (
  id TEXT PRIMARY KEY,
  trusted INTEGER NOT NULL DEFAULT 0,
  good INTEGER NOT NULL DEFAULT 0,
  bad INTEGER NOT NULL DEFAULT 0,
  updated INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE donor_reports (
  job TEXT NOT NULL,
  donor TEXT NOT NULL,
  out_hash TEXT NOT NULL,
  quorum TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (job, donor)
) STRICT, WITHOUT ROWID;

CREATE TABLE att_revoked (
  job TEXT PRIMARY KEY,
  line TEXT NOT NULL,
  reason TEXT NOT NULL,
  at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX att_revoked_at ON att_revoked(at);
