-- Outcomes of KB entries (issue 35, src/core/kb/outcomes.ts): worked, worked-with-changes or
-- did-not-work, one per identity and entry, with an optional published note and evidence. They
-- replace kb_votes (one store of truth: POST /k/{id}/ok records `worked`, /fail `did-not-work`);
-- the network key and root group outcomes into principals and are never shown.
CREATE TABLE kb_outcomes (
  entry INTEGER NOT NULL REFERENCES kb_entries(n) ON DELETE CASCADE,
  voter TEXT NOT NULL,
  kind TEXT NOT NULL,                -- worked | worked-with-changes | did-not-work
  note TEXT NOT NULL DEFAULT '',     -- scrubbed, at most outcome.note characters
  evidence TEXT,                     -- JSON {cmd, exit_before, exit_after, versions}, or NULL
  net TEXT NOT NULL DEFAULT '',      -- network key of the request ('' for votes cast before this)
  root TEXT NOT NULL,                -- root family of the voter
  created INTEGER NOT NULL,
  PRIMARY KEY (entry, voter)
) STRICT, WITHOUT ROWID;
CREATE INDEX kb_outcomes_by_created ON kb_outcomes(created);
INSERT INTO kb_outcomes (entry, voter, kind, note, evidence, net, root, created)
  SELECT entry, voter, CASE WHEN ok = 1 THEN 'worked' ELSE 'did-not-work' END, '', NULL, '', voter, created FROM kb_votes;
DROP TABLE kb_votes;

-- The entry's figures, written by every outcome in the same transaction (confirms and fails stay
-- the raw counts). Votes cast before this count with weight 1 each until the entry's next outcome
-- tallies them again; rep_given is what the entry has given its author's reputation so far.
ALTER TABLE kb_entries ADD COLUMN changes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE kb_entries ADD COLUMN w_worked REAL NOT NULL DEFAULT 0;
ALTER TABLE kb_entries ADD COLUMN w_changes REAL NOT NULL DEFAULT 0;
ALTER TABLE kb_entries ADD COLUMN w_failed REAL NOT NULL DEFAULT 0;
ALTER TABLE kb_entries ADD COLUMN principals INTEGER NOT NULL DEFAULT 0;
ALTER TABLE kb_entries ADD COLUMN disputed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE kb_entries ADD COLUMN disputed_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE kb_entries ADD COLUMN rep_given INTEGER NOT NULL DEFAULT 0;
UPDATE kb_entries SET w_worked = confirms, w_failed = fails, principals = confirms + fails, rep_given = 5 * confirms - 2 * fails WHERE confirms > 0 OR fails > 0;

-- A disputed entry ranks after the undisputed ones of its signature: the rank indexes lead with it.
DROP INDEX kb_by_h;
CREATE INDEX kb_by_h ON kb_entries(h, disputed, (confirms * 3 - fails * 2) DESC, created DESC) WHERE hidden = 0;
DROP INDEX kb_by_ch;
CREATE INDEX kb_by_ch ON kb_entries(ch, disputed, (confirms * 3 - fails * 2) DESC, created DESC) WHERE hidden = 0;
-- The changes feed lists disputes, newest first.
CREATE INDEX kb_by_disputed ON kb_entries(disputed_at) WHERE disputed = 1 AND hidden = 0;

-- A signed outcome is the conf1 statement with the kind as a fourth field; '' is the three-field
-- form of a signed confirmation (worked).
ALTER TABLE kb_signed_confirms ADD COLUMN kind TEXT NOT NULL DEFAULT '';
