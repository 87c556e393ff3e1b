-- Fix knowledge base (PostgreSQL twin of src/store/sqlite/migrations/003_kb.sql), in the shape the
-- SQLite file reaches after 007 (lookups counted per signature) and 009 (error texts apart): no
-- PostgreSQL database predates those, so their twins are empty and the tables start as they end.
CREATE TABLE kb_entries (
  n BIGSERIAL PRIMARY KEY,           -- publication order, page cursor
  id TEXT NOT NULL UNIQUE,           -- public id: k + 6 chars
  sig TEXT NOT NULL,
  h TEXT NOT NULL,                   -- sha256(sig), 64 hex
  title TEXT NOT NULL,
  fix TEXT NOT NULL,
  eco TEXT NOT NULL,
  cls TEXT NOT NULL DEFAULT '',
  tags TEXT[] NOT NULL DEFAULT '{}',
  author TEXT NOT NULL,
  created BIGINT NOT NULL,
  updated BIGINT NOT NULL,
  confirms INTEGER NOT NULL DEFAULT 0,
  fails INTEGER NOT NULL DEFAULT 0,
  hidden BOOLEAN NOT NULL DEFAULT FALSE
);
-- The best entries of a signature straight off the index, in rank order (007).
CREATE INDEX kb_by_h ON kb_entries(h, (confirms * 3 - fails * 2) DESC, created DESC) WHERE NOT hidden;
CREATE INDEX kb_by_created ON kb_entries(created) WHERE NOT hidden;
CREATE INDEX kb_by_eco ON kb_entries(eco, created) WHERE NOT hidden;
CREATE INDEX kb_by_cls ON kb_entries(cls, created) WHERE NOT hidden;
-- Profiles and space counters count KB entries per author (SQLite: in 005).
CREATE INDEX kb_by_author ON kb_entries(author) WHERE NOT hidden;
-- Feeds of one tag: whole tags (node.js is one).
CREATE INDEX kb_by_tags ON kb_entries USING GIN (tags);

-- Error texts apart from the entries (009): lookups and listings never read them.
CREATE TABLE kb_errors (
  n BIGINT PRIMARY KEY REFERENCES kb_entries(n) ON DELETE CASCADE,
  error TEXT NOT NULL
);

-- Full-text search: the words of title, error, fix and tags (src/store/pg/fts.ts), GIN-indexed.
-- Apart from the entries too, so lookups read narrow rows.
CREATE TABLE kb_search (
  n BIGINT PRIMARY KEY REFERENCES kb_entries(n) ON DELETE CASCADE,
  fts TSVECTOR NOT NULL
);
CREATE INDEX kb_search_fts ON kb_search USING GIN (fts);

CREATE TABLE kb_libs (
  entry BIGINT NOT NULL REFERENCES kb_entries(n) ON DELETE CASCADE,
  name TEXT NOT NULL,
  ver TEXT NOT NULL,
  PRIMARY KEY (entry, name)
);
CREATE INDEX kb_libs_by_name ON kb_libs(name, entry);

CREATE TABLE kb_votes (
  entry BIGINT NOT NULL REFERENCES kb_entries(n) ON DELETE CASCADE,
  voter TEXT NOT NULL,
  ok BOOLEAN NOT NULL,
  created BIGINT NOT NULL,
  PRIMARY KEY (entry, voter)
);

-- Lookups counted per signature (007).
CREATE TABLE kb_sig_hits (
  h TEXT PRIMARY KEY,
  hits BIGINT NOT NULL DEFAULT 0
);

-- Demand: signatures looked up with no entry.
CREATE TABLE kb_wanted (
  h TEXT PRIMARY KEY,
  sig TEXT,
  libs TEXT NOT NULL DEFAULT '',
  misses INTEGER NOT NULL DEFAULT 1,
  first BIGINT NOT NULL,
  last BIGINT NOT NULL
);
CREATE INDEX kb_wanted_by_last ON kb_wanted(last);

-- Digests: the best per (lib, ver, topic) is served, ranked by score then recency.
CREATE TABLE kb_digests (
  lib TEXT NOT NULL,
  ver TEXT NOT NULL,
  topic TEXT NOT NULL,
  author TEXT NOT NULL,
  lines TEXT NOT NULL,
  score INTEGER NOT NULL DEFAULT 0,
  created BIGINT NOT NULL,
  PRIMARY KEY (lib, ver, topic, author)
);
CREATE INDEX kb_digests_by_lib ON kb_digests(lib, created);
