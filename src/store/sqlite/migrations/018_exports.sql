-- Open-data exports (src/core/exports): removals recorded as tombstones (ids only, no content).
-- A tombstone withholds its row from every later export (kind `identity`: every row the identity
-- authored); exports list the tombstones of the last export.tombstone_days. Kept after that window
-- so a removed row never comes back into an export.
CREATE TABLE export_tombstones (
  kind TEXT NOT NULL,               -- kb, task, digest, claim, identity
  id TEXT NOT NULL,                 -- k…, t…, <lib>@<ver>/<topic>/<author>, <entry>/<identity>, a…
  removed_at INTEGER NOT NULL,
  reason TEXT NOT NULL,
  PRIMARY KEY (kind, id)
) STRICT, WITHOUT ROWID;
CREATE INDEX export_tombstones_by_time ON export_tombstones(removed_at, kind, id);
