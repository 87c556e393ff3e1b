-- Lookups are counted per signature (one row to bump, not one per entry), and the best entries of
-- a signature are read straight off an index in rank order instead of ranking its rows in memory.
CREATE TABLE kb_sig_hits (
  h TEXT PRIMARY KEY,                -- sha256(sig)
  hits INTEGER NOT NULL DEFAULT 0
) STRICT, WITHOUT ROWID;
INSERT INTO kb_sig_hits (h, hits) SELECT h, max(hits) FROM kb_entries GROUP BY h HAVING max(hits) > 0;
DROP INDEX kb_by_h;
CREATE INDEX kb_by_h ON kb_entries(h, (confirms * 3 - fails * 2) DESC, created DESC) WHERE hidden = 0;
ALTER TABLE kb_entries DROP COLUMN hits;
