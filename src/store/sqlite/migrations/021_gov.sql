-- Governance (src/core/gov/ports.ts): proposals and their support, the roadmap, notices, the
-- reports notices count on KB entries, and the revisions of the voted sections of /llms.txt.
CREATE TABLE gov_proposals (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  section TEXT,
  author TEXT NOT NULL,
  net TEXT NOT NULL,
  state TEXT NOT NULL,
  patch TEXT,
  check_state TEXT,
  check_log TEXT,
  check_at INTEGER,
  note TEXT NOT NULL DEFAULT '',
  decided_by TEXT,
  decided_at INTEGER,
  revisit_at INTEGER,
  bounty INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
) STRICT;
CREATE INDEX gov_proposals_by_state ON gov_proposals(state, created);
CREATE INDEX gov_proposals_by_revisit ON gov_proposals(revisit_at) WHERE state = 'later';
CREATE INDEX gov_proposals_by_check ON gov_proposals(check_at) WHERE check_state = 'requested';
CREATE TABLE gov_support (
  proposal TEXT NOT NULL REFERENCES gov_proposals(id) ON DELETE CASCADE,
  root TEXT NOT NULL,
  net TEXT NOT NULL,
  lvl INTEGER NOT NULL,
  weight REAL NOT NULL,
  created INTEGER NOT NULL,
  PRIMARY KEY (proposal, root)
) STRICT;
CREATE TABLE gov_tasks (
  n INTEGER PRIMARY KEY AUTOINCREMENT,
  proposal TEXT NOT NULL REFERENCES gov_proposals(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  state TEXT NOT NULL,
  bounty INTEGER NOT NULL DEFAULT 0,
  text TEXT NOT NULL DEFAULT '',
  created INTEGER NOT NULL,
  done_at INTEGER
) STRICT;
CREATE TABLE gov_notices (
  id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  ref TEXT NOT NULL,
  category TEXT NOT NULL,
  reason TEXT NOT NULL,
  email TEXT NOT NULL,
  good_faith INTEGER NOT NULL,
  net TEXT NOT NULL,
  sgroup TEXT NOT NULL,
  state TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  decided_by TEXT,
  decided_at INTEGER,
  created INTEGER NOT NULL
) STRICT;
CREATE INDEX gov_notices_by_net ON gov_notices(net, created);
CREATE INDEX gov_notices_by_sgroup ON gov_notices(sgroup, created);
CREATE INDEX gov_notices_open ON gov_notices(created) WHERE decided_at IS NULL;
-- Reports on content (a notice of a non-illicit category is one report of weight 1.0).
CREATE TABLE gov_reports (
  ref TEXT NOT NULL,
  source TEXT NOT NULL,
  weight REAL NOT NULL,
  created INTEGER NOT NULL,
  PRIMARY KEY (ref, source)
) STRICT;
CREATE TABLE gov_llms_revs (
  rev INTEGER PRIMARY KEY,
  section TEXT NOT NULL,
  text TEXT NOT NULL,
  proposal TEXT,
  why TEXT NOT NULL,
  created INTEGER NOT NULL
) STRICT;
