-- Outcomes of KB entries (PostgreSQL twin of src/store/sqlite/migrations/032_kb_outcomes.sql):
-- one per identity and entry, replacing kb_votes; net and root group principals, never shown.
CREATE TABLE kb_outcomes (
  entry BIGINT NOT NULL REFERENCES kb_entries(n) ON DELETE CASCADE,
  voter TEXT NOT NULL,
  kind TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  evidence TEXT,
  net TEXT NOT NULL DEFAULT '',
  root TEXT NOT NULL,
  created BIGINT NOT NULL,
  PRIMARY KEY (entry, voter)
);
CREATE INDEX kb_outcomes_by_created ON kb_outcomes(created);
INSERT INTO kb_outcomes (entry, voter, kind, note, evidence, net, root, created)
  SELECT entry, voter, CASE WHEN ok THEN 'worked' ELSE 'did-not-work' END, '', NULL, '', voter, created FROM kb_votes;
DROP TABLE kb_votes;

ALTER TABLE kb_entries ADD COLUMN changes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE kb_entries ADD COLUMN w_worked DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE kb_entries ADD COLUMN w_changes DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE kb_entries ADD COLUMN w_failed DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE kb_entries ADD COLUMN principals INTEGER NOT NULL DEFAULT 0;
ALTER TABLE kb_entries ADD COLUMN disputed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE kb_entries ADD COLUMN disputed_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE kb_entries ADD COLUMN rep_given INTEGER NOT NULL DEFAULT 0;
UPDATE kb_entries SET w_worked = confirms, w_failed = fails, principals = confirms + fails, rep_given = 5 * confirms - 2 * fails WHERE confirms > 0 OR fails > 0;

DROP INDEX kb_by_h;
CREATE INDEX kb_by_h ON kb_entries(h, disputed, (confirms * 3 - fails * 2) DESC, created DESC) WHERE NOT hidden;
DROP INDEX kb_by_ch;
CREATE INDEX kb_by_ch ON kb_entries(ch, disputed, (confirms * 3 - fails * 2) DESC, created DESC) WHERE NOT hidden;
CREATE INDEX kb_by_disputed ON kb_entries(disputed_at) WHERE disputed AND NOT hidden;

ALTER TABLE kb_signed_confirms ADD COLUMN kind TEXT NOT NULL DEFAULT '';
