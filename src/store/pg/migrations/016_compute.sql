-- Donated compute (PostgreSQL twin of src/store/sqlite/migrations/016_compute.sql): operator blobs,
-- services and their versions, L2 ok reports, call records. BYTEA for BLOB, BIGINT ms, JSONB for the
-- manifest. Names are compared and ordered COLLATE "C" (bytes, as SQLite's BINARY does), so pages of
-- names come in the same order whatever the cluster's locale.

-- Operator blobs (PUT /admin/blob), owned by the system, pinned by the admin. Read through BlobRepo.
CREATE TABLE op_blobs (
  hash TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  kind TEXT NOT NULL,
  created BIGINT NOT NULL,
  pinned_by TEXT NOT NULL,
  pin TEXT,
  note TEXT
);
CREATE TABLE op_blob_data (
  hash TEXT PRIMARY KEY REFERENCES op_blobs(hash) ON DELETE CASCADE,
  bytes BYTEA NOT NULL
);

-- A service name: its owner (`admin` or the identity that first published it) and its stable version.
CREATE TABLE svc_names (
  name TEXT COLLATE "C" PRIMARY KEY,
  owner TEXT NOT NULL,
  stable INTEGER,
  created BIGINT NOT NULL
);

-- Versions: `<name>@<ver>`, the wasm blob hash, the manifest, the KAT gate.
CREATE TABLE svc_versions (
  name TEXT COLLATE "C" NOT NULL REFERENCES svc_names(name),
  ver INTEGER NOT NULL,
  wasm TEXT NOT NULL,
  manifest JSONB NOT NULL,
  publisher TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'ok', 'failed')),
  kats INTEGER NOT NULL,
  log TEXT,
  created BIGINT NOT NULL,
  checked BIGINT,
  PRIMARY KEY (name, ver)
);
CREATE INDEX svc_versions_by_publisher ON svc_versions(publisher);

-- L2 ok reports (svcok1): one per version and identity. `by` is a reserved word here: quoted.
CREATE TABLE svc_oks (
  name TEXT COLLATE "C" NOT NULL,
  ver INTEGER NOT NULL,
  "by" TEXT COLLATE "C" NOT NULL,
  pub TEXT NOT NULL,
  sig TEXT NOT NULL,
  note TEXT,
  at BIGINT NOT NULL,
  PRIMARY KEY (name, ver, "by"),
  FOREIGN KEY (name, ver) REFERENCES svc_versions(name, ver)
);
CREATE INDEX svc_oks_by ON svc_oks("by");

-- Calls: what ran, for whom, with what outcome (GET /v1/run/{id}); purged after compute.keep_d.
CREATE TABLE svc_calls (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  ver INTEGER NOT NULL,
  caller TEXT NOT NULL,
  in_hash TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
  code TEXT,
  detail TEXT,
  output BYTEA,
  out_hash TEXT,
  ms INTEGER NOT NULL,
  charged BIGINT NOT NULL,
  donor TEXT NOT NULL,
  created BIGINT NOT NULL
);
CREATE INDEX svc_calls_created ON svc_calls(created);
CREATE INDEX svc_calls_caller ON svc_calls(caller);
