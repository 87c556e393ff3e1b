-- Open-data exports (PostgreSQL twin of src/store/sqlite/migrations/018_exports.sql): removals as
-- tombstones (ids only, no content), withholding their rows from every later export, kept for good;
-- and (PostgreSQL only) the export files themselves, which replicas share: SQLite's adapter keeps
-- them as files in its data directory (src/store/files/exports.ts), a replica's disk is its own.
-- kind and id compare COLLATE "C" (bytes, as SQLite's BINARY): the keyset pages come in one order
-- whatever the cluster's locale.
CREATE TABLE export_tombstones (
  kind TEXT COLLATE "C" NOT NULL,   -- kb, task, digest, claim, identity, cp
  id TEXT COLLATE "C" NOT NULL,     -- k…, t…, <lib>@<ver>/<topic>/<author>, <entry>/<identity>, a…
  removed_at BIGINT NOT NULL,
  reason TEXT NOT NULL,
  PRIMARY KEY (kind, id)
);
CREATE INDEX export_tombstones_by_time ON export_tombstones(removed_at, kind, id);

-- Export files in chunks (BYTEA, at most 1 MiB each, so neither a write nor a ranged read holds a
-- whole file). `fid` names one writing of a file (the draft's token). state: `draft` while written,
-- `live` once its draft is committed (one live file per date and name: a commit turns the date's
-- live files `old` and the draft's `live` in one transaction, so readers see a whole export or none),
-- `old` when replaced or removed: kept a while for streams still reading it, then swept.
CREATE TABLE export_files (
  fid TEXT NOT NULL,
  name TEXT COLLATE "C" NOT NULL,
  date TEXT COLLATE "C" NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('draft', 'live', 'old')),
  size BIGINT NOT NULL DEFAULT 0,
  mtime BIGINT NOT NULL,
  PRIMARY KEY (fid, name)
);
CREATE UNIQUE INDEX export_files_live ON export_files(date, name) WHERE state = 'live';
CREATE INDEX export_files_sweep ON export_files(state, mtime) WHERE state <> 'live';
CREATE TABLE export_chunks (
  fid TEXT NOT NULL,
  name TEXT COLLATE "C" NOT NULL,
  seq INTEGER NOT NULL,
  pos BIGINT NOT NULL,                 -- offset of the chunk's first byte in the file
  bytes BYTEA NOT NULL,
  PRIMARY KEY (fid, name, seq),
  FOREIGN KEY (fid, name) REFERENCES export_files(fid, name) ON DELETE CASCADE
);
