-- Fix knowledge base: entries keyed by ErrSig signatures, libraries, votes, full-text search, demand.
CREATE TABLE kb_entries (
  n INTEGER PRIMARY KEY,             -- rowid, FTS key
  id TEXT NOT NULL UNIQUE,           -- public id: k + 6 chars
  sig TEXT NOT NULL,
  h TEXT NOT NULL,                   -- sha256(sig), 64 hex
  title TEXT NOT NULL,
  error TEXT NOT NULL,               -- scrubbed excerpt of the error output
  fix TEXT NOT NULL,
  eco TEXT NOT NULL,
  cls TEXT NOT NULL DEFAULT '',      -- error class (ModuleNotFoundError, E0382, TS2307 ...) for /err/{class}
  tags TEXT NOT NULL DEFAULT '',     -- space separated
  author TEXT NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  confirms INTEGER NOT NULL DEFAULT 0,
  fails INTEGER NOT NULL DEFAULT 0,
  hits INTEGER NOT NULL DEFAULT 0,
  hidden INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX kb_by_h ON kb_entries(h) WHERE hidden = 0;
CREATE INDEX kb_by_created ON kb_entries(created) WHERE hidden = 0;
CREATE INDEX kb_by_eco ON kb_entries(eco, created) WHERE hidden = 0;
CREATE INDEX kb_by_cls ON kb_entries(cls, created) WHERE hidden = 0;

CREATE TABLE kb_libs (
  entry INTEGER NOT NULL REFERENCES kb_entries(n) ON DELETE CASCADE,
  name TEXT NOT NULL,
  ver TEXT NOT NULL,
  PRIMARY KEY (entry, name)
) STRICT, WITHOUT ROWID;
CREATE INDEX kb_libs_by_name ON kb_libs(name, entry);

CREATE TABLE kb_votes (
  entry INTEGER NOT NULL REFERENCES kb_entries(n) ON DELETE CASCADE,
  voter TEXT NOT NULL,
  ok INTEGER NOT NULL,               -- 1 worked, 0 did not work
  created INTEGER NOT NULL,
  PRIMARY KEY (entry, voter)
) STRICT, WITHOUT ROWID;

CREATE VIRTUAL TABLE kb_fts USING fts5(title, error, fix, tags, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');

-- Demand: signatures looked up with no entry (POST /e, GET /e/{msg}, GET /h/{hex}).
CREATE TABLE kb_wanted (
  h TEXT PRIMARY KEY,
  sig TEXT,                          -- null when only the hash was asked
  libs TEXT NOT NULL DEFAULT '',
  misses INTEGER NOT NULL DEFAULT 1,
  first INTEGER NOT NULL,
  last INTEGER NOT NULL
) STRICT;
CREATE INDEX kb_wanted_by_last ON kb_wanted(last);

-- Digests: what changed in a library version, by topic, one fact per line; the best per
-- (lib, ver, topic) is served, ranked by score then recency.
CREATE TABLE kb_digests (
  lib TEXT NOT NULL,
  ver TEXT NOT NULL,
  topic TEXT NOT NULL,
  author TEXT NOT NULL,
  lines TEXT NOT NULL,
  score INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL,
  PRIMARY KEY (lib, ver, topic, author)
) STRICT, WITHOUT ROWID;
CREATE INDEX kb_digests_by_lib ON kb_digests(lib, created);
