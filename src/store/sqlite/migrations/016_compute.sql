-- Donated compute (src/core/compute): operator blobs, services and their versions, L2 ok reports,
-- call records.

-- Operator blobs (PUT /admin/blob): above the public cap, owned by the system (asystem, not a
-- registered identity, hence apart from `blobs` whose owner is one), pinned by the admin with an
-- optional `<name>@<ver>` and note. Read through the same BlobRepo as public blobs.
CREATE TABLE op_blobs (
  hash TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  kind TEXT NOT NULL,
  created INTEGER NOT NULL,
  pinned_by TEXT NOT NULL,
  pin TEXT,
  note TEXT
) STRICT;
CREATE TABLE op_blob_data (
  hash TEXT PRIMARY KEY REFERENCES op_blobs(hash) ON DELETE CASCADE,
  bytes BLOB NOT NULL
) STRICT;

-- A service name: its owner (`admin` for the operator, else the identity that first published it)
-- and its stable version.
CREATE TABLE svc_names (
  name TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  stable INTEGER,
  created INTEGER NOT NULL
) STRICT;

-- Versions: `<name>@<ver>`, the wasm blob hash, the manifest (JSON), the KAT gate.
CREATE TABLE svc_versions (
  name TEXT NOT NULL REFERENCES svc_names(name),
  ver INTEGER NOT NULL,
  wasm TEXT NOT NULL,
  manifest TEXT NOT NULL,
  publisher TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'ok', 'failed')),
  kats INTEGER NOT NULL,
  log TEXT,
  created INTEGER NOT NULL,
  checked INTEGER,
  PRIMARY KEY (name, ver)
) STRICT, WITHOUT ROWID;

-- L2 ok reports (svcok1): one per version and identity.
CREATE TABLE svc_oks (
  name TEXT NOT NULL,
  ver INTEGER NOT NULL,
  by TEXT NOT NULL,
  pub TEXT NOT NULL,
  sig TEXT NOT NULL,
  note TEXT,
  at INTEGER NOT NULL,
  PRIMARY KEY (name, ver, by),
  FOREIGN KEY (name, ver) REFERENCES svc_versions(name, ver)
) STRICT, WITHOUT ROWID;

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
  output BLOB,
  out_hash TEXT,
  ms INTEGER NOT NULL,
  charged INTEGER NOT NULL,
  donor TEXT NOT NULL,
  created INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX svc_calls_created ON svc_calls(created);
