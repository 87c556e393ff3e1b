-- Outcomes of a space's private entries (PostgreSQL twin of
-- src/store/sqlite/migrations/033_space_kb_outcomes.sql): in the space's own tables, tallied as
-- public outcomes are, no reputation; the ErrSig version of each entry and its earlier hashes.
CREATE TABLE space_kb_outcomes (
  id TEXT NOT NULL REFERENCES space_kb(id) ON DELETE CASCADE,
  voter TEXT NOT NULL,
  kind TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  evidence TEXT,
  net TEXT NOT NULL DEFAULT '',
  root TEXT NOT NULL,
  created BIGINT NOT NULL,
  PRIMARY KEY (id, voter)
);
CREATE INDEX space_kb_outcomes_by_voter ON space_kb_outcomes(voter);

ALTER TABLE space_kb ADD COLUMN confirms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN fails INTEGER NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN changes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN w_worked DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN w_changes DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN w_failed DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN principals INTEGER NOT NULL DEFAULT 0;
ALTER TABLE space_kb ADD COLUMN disputed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE space_kb ADD COLUMN disputed_at BIGINT NOT NULL DEFAULT 0;

ALTER TABLE space_kb ADD COLUMN sigv INTEGER NOT NULL DEFAULT 0;
CREATE TABLE space_kb_alias (
  h TEXT NOT NULL,
  id TEXT NOT NULL REFERENCES space_kb(id) ON DELETE CASCADE,
  v INTEGER NOT NULL,
  PRIMARY KEY (h, id)
);
CREATE INDEX space_kb_alias_by_id ON space_kb_alias(id);
