-- The git mirror's history kept in the store (PostgreSQL twin of
-- src/store/sqlite/migrations/029_git_packs.sql): one row per commit, with the pack of its new objects.
CREATE TABLE git_packs (
  seq INTEGER PRIMARY KEY,
  commit_id TEXT NOT NULL UNIQUE,
  parent TEXT,
  time BIGINT NOT NULL,
  pack BYTEA NOT NULL
);
