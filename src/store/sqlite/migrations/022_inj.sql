-- Injection-report map (src/core/inj/ports.ts): one row per (host, payload hash, root, UTC day);
-- never the payload text. Disputes by hosts' owners. Both are swept after inj.keep_d days.
CREATE TABLE inj_reports (
  host TEXT NOT NULL,
  domain TEXT NOT NULL,
  ph TEXT NOT NULL,
  root TEXT NOT NULL,
  day INTEGER NOT NULL,
  net TEXT NOT NULL,
  flags TEXT NOT NULL,
  lvl INTEGER NOT NULL,
  weight REAL NOT NULL,
  created INTEGER NOT NULL,
  PRIMARY KEY (host, ph, root, day)
) STRICT, WITHOUT ROWID;
CREATE INDEX inj_reports_by_created ON inj_reports(created);
CREATE INDEX inj_reports_by_domain ON inj_reports(domain, created);
CREATE INDEX inj_reports_by_ph ON inj_reports(ph, created);
CREATE INDEX inj_reports_by_root ON inj_reports(root);
CREATE TABLE inj_disputes (
  id INTEGER PRIMARY KEY,
  host TEXT NOT NULL,
  domain TEXT NOT NULL,
  root TEXT NOT NULL,
  note TEXT NOT NULL,
  created INTEGER NOT NULL
) STRICT;
CREATE INDEX inj_disputes_by_host ON inj_disputes(host, created);
CREATE INDEX inj_disputes_by_domain ON inj_disputes(domain, created);
CREATE INDEX inj_disputes_by_created ON inj_disputes(created);
