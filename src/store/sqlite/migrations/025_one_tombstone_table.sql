-- One table of removals: the purge wrote its own `tombstones`, the exports read `export_tombstones`.
-- The exports' table stays (its index serves the export's paging); the purge's rows move into it.
INSERT INTO export_tombstones (kind, id, removed_at, reason)
  SELECT kind, id, removed_at, reason FROM tombstones WHERE true
  ON CONFLICT (kind, id) DO UPDATE SET removed_at = excluded.removed_at, reason = excluded.reason;
DROP TABLE tombstones;
