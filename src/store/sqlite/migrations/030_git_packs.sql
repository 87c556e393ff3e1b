-- The git mirror's history kept in the store (src/core/gitmirror/mirror.ts): one row per commit of
-- the default branch, in order, with the pack of the objects that commit added (git pack-objects
-- <commit> ^<parent>). Any process rebuilds the same repository from these rows alone: replicas on
-- several hosts serve the same commits with no directory shared.
CREATE TABLE git_packs (
  seq INTEGER PRIMARY KEY,
  commit_id TEXT NOT NULL UNIQUE,
  parent TEXT,
  time INTEGER NOT NULL,
  pack BLOB NOT NULL
) STRICT;
