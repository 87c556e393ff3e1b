-- Governance (PostgreSQL twin of src/store/sqlite/migrations/021_gov.sql): proposals and their
-- support, the roadmap, notices, the reports notices count, the revisions of the voted sections of
-- /llms.txt. Ids and nets compare COLLATE "C" (bytes, as SQLite's BINARY) where lists order by them.
CREATE TABLE gov_proposals (
  id TEXT COLLATE "C" PRIMARY KEY,
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
  check_at BIGINT,
  note TEXT NOT NULL DEFAULT '',
  decided_by TEXT,
  decided_at BIGINT,
  revisit_at BIGINT,
  bounty BIGINT NOT NULL DEFAULT 0,
  created BIGINT NOT NULL,
  updated BIGINT NOT NULL
);
CREATE INDEX gov_proposals_by_state ON gov_proposals(state, created);
CREATE INDEX gov_proposals_by_revisit ON gov_proposals(revisit_at) WHERE state = 'later';
CREATE INDEX gov_proposals_by_check ON gov_proposals(check_at) WHERE check_state = 'requested';
CREATE INDEX gov_proposals_by_author ON gov_proposals(author);
CREATE TABLE gov_support (
  proposal TEXT COLLATE "C" NOT NULL REFERENCES gov_proposals(id) ON DELETE CASCADE,
  root TEXT NOT NULL,
  net TEXT COLLATE "C" NOT NULL,
  lvl INTEGER NOT NULL,
  weight DOUBLE PRECISION NOT NULL,
  created BIGINT NOT NULL,
  PRIMARY KEY (proposal, root)
);
CREATE INDEX gov_support_root ON gov_support(root);
CREATE INDEX gov_support_created ON gov_support(created);
CREATE TABLE gov_tasks (
  n BIGSERIAL PRIMARY KEY,
  proposal TEXT COLLATE "C" NOT NULL REFERENCES gov_proposals(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  state TEXT NOT NULL,
  bounty BIGINT NOT NULL DEFAULT 0,
  text TEXT NOT NULL DEFAULT '',
  created BIGINT NOT NULL,
  done_at BIGINT
);
CREATE TABLE gov_notices (
  id TEXT COLLATE "C" PRIMARY KEY,
  url TEXT NOT NULL,
  ref TEXT NOT NULL,
  category TEXT NOT NULL,
  reason TEXT NOT NULL,
  email TEXT NOT NULL,
  good_faith BOOLEAN NOT NULL,
  net TEXT NOT NULL,
  sgroup TEXT NOT NULL,
  state TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  decided_by TEXT,
  decided_at BIGINT,
  created BIGINT NOT NULL
);
CREATE INDEX gov_notices_by_net ON gov_notices(net, created);
CREATE INDEX gov_notices_by_sgroup ON gov_notices(sgroup, created);
CREATE INDEX gov_notices_open ON gov_notices(created) WHERE decided_at IS NULL;
-- Reports on content (a notice of a non-illicit category is one report of weight 1.0).
CREATE TABLE gov_reports (
  ref TEXT NOT NULL,
  source TEXT NOT NULL,
  weight DOUBLE PRECISION NOT NULL,
  created BIGINT NOT NULL,
  PRIMARY KEY (ref, source)
);
CREATE TABLE gov_llms_revs (
  rev INTEGER PRIMARY KEY,
  section TEXT NOT NULL,
  text TEXT NOT NULL,
  proposal TEXT,
  why TEXT NOT NULL,
  created BIGINT NOT NULL
);
