-- Outcomes of a space's private entries (issue 39 with issue 35), kept in the space's own tables
-- like the entries themselves, so no public read (feeds, exports, the mirror, counts, /cutoff,
-- profiles) can reach them: one per identity and entry, weighted and tallied as public outcomes
-- are (src/core/kb/outcomes.ts), but giving the author no public reputation.
CREATE TABLE space_kb_outcomes (
  id TEXT NOT NULL REFERENCES space_kb(id) ON DELETE CASCADE,
  voter TEXT NOT NULL,
  kind TEXT NOT NULL,                -- worked | worked-with-changes | did-not-work
  note TEXT NOT NULL DEFAULT '',     -- scrubbed, at most outcome.note characters; shown to members only
  evidence TEXT,                     -- JSON {cmd, exit_before, exit_after, versions}, or NULL
  net TEXT NOT NULL DEFAULT '',      -- network key of the request (groups principals, never shown)
  root TEXT NOT NULL,                -- root family of the voter
  created INTEGER NOT NULL,
  PRIMARY KEY (id, voter)
) STRICT, WITHOUT ROWID;
CREATE INDEX space_kb_outcomes_by_voter ON space_kb_outcomes(voter);

-- The entry's figures, written by every outcome in the same transaction (as kb_entries' are).
ALTER TABLE space_kb ADD COLUMN confirms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN fails INTEGER NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN changes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN w_worked REAL NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN w_changes REAL NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN w_failed REAL NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN principals INTEGER NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN disputed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN disputed_at INTEGER NOT NULL DEFAULT 0;

-- The ErrSig version that made an entry's signature: 0 (every entry written before this) is
-- unknown, re-signed at the next start like public entries (src/core/kb/resign.ts). An entry's
-- earlier hashes keep resolving for members through space_kb_alias.
ALTER TABLE space_kb ADD COLUMN sigv INTEGER NOT NULL DEFAULT 0;
CREATE TABLE space_kb_alias (
  h TEXT NOT NULL,
  id TEXT NOT NULL REFERENCES space_kb(id) ON DELETE CASCADE,
  v INTEGER NOT NULL,                -- the version that made h
  PRIMARY KEY (h, id)
) STRICT, WITHOUT ROWID;
CREATE INDEX space_kb_alias_by_id ON space_kb_alias(id);
