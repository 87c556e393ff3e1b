-- Injection-report map (PostgreSQL twin of src/store/sqlite/migrations/022_inj.sql): one row per
-- (host, payload hash, root, UTC day), never the payload text; disputes by hosts' owners. Both are
-- swept after inj.keep_d days. Hosts and hashes compare COLLATE "C" (bytes, as SQLite's BINARY):
-- the lists tie-break on them and a hash prefix is a range of them.
CREATE TABLE inj_reports (
  host TEXT COLLATE "C" NOT NULL,
  domain TEXT COLLATE "C" NOT NULL,
  ph TEXT COLLATE "C" NOT NULL,
  root TEXT NOT NULL,
  day BIGINT NOT NULL,
  net TEXT NOT NULL,
  flags TEXT NOT NULL,
  lvl INTEGER NOT NULL,
  weight DOUBLE PRECISION NOT NULL,
  created BIGINT NOT NULL,
  PRIMARY KEY (host, ph, root, day)
);
CREATE INDEX inj_reports_by_created ON inj_reports(created);
CREATE INDEX inj_reports_by_domain ON inj_reports(domain, created);
CREATE INDEX inj_reports_by_ph ON inj_reports(ph, created);
CREATE INDEX inj_reports_by_root ON inj_reports(root);
CREATE TABLE inj_disputes (
  id BIGSERIAL PRIMARY KEY,
  host TEXT COLLATE "C" NOT NULL,
  domain TEXT COLLATE "C" NOT NULL,
  root TEXT NOT NULL,
  note TEXT NOT NULL,
  created BIGINT NOT NULL
);
CREATE INDEX inj_disputes_by_host ON inj_disputes(host, created);
CREATE INDEX inj_disputes_by_domain ON inj_disputes(domain, created);
CREATE INDEX inj_disputes_by_created ON inj_disputes(created);
CREATE INDEX inj_disputes_by_root ON inj_disputes(root);
