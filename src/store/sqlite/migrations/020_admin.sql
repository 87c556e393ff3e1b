-- Operator state (src/store/sqlite/admin.ts, port src/core/admin/ports.ts): announcements, operator
-- marks on identities and status pages, registration policy per ASN, content origin, the durable
-- operator inbox, imported search demand, export tombstones; decisions on mail reports.

-- POST /admin/announce. `line`: the signed ann1 statement as published on g:sys; `maint`: the
-- control_maintenance window a maintenance announcement opened.
CREATE TABLE announcements (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('maintenance', 'incident', 'change', 'notice')),
  starts INTEGER NOT NULL,
  ends INTEGER NOT NULL,
  text TEXT NOT NULL,
  line TEXT NOT NULL DEFAULT '',
  maint INTEGER,
  created INTEGER NOT NULL
) STRICT;
CREATE INDEX announcements_ends ON announcements(ends);

-- Operator marks: `seed` (POST /admin/seed-root, ref = identity id), `st_hide` (POST /admin/st-hide,
-- ref = status page target). A row exists while the mark is on.
CREATE TABLE operator_marks (
  mark TEXT NOT NULL,
  ref TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  at INTEGER NOT NULL,
  PRIMARY KEY (mark, ref)
) STRICT, WITHOUT ROWID;

-- POST /admin/asn: registration policy of an autonomous system (the IP-to-ASN table is the
-- operator's file asn.csv in the data directory).
CREATE TABLE asn_policy (
  asn INTEGER PRIMARY KEY,
  class TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  at INTEGER NOT NULL
) STRICT;

-- Which root and which network created a piece of published content (GET /admin/origin).
CREATE TABLE content_origin (
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  root TEXT NOT NULL,
  net TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (kind, ref)
) STRICT, WITHOUT ROWID;
CREATE INDEX content_origin_root ON content_origin(root);
CREATE INDEX content_origin_at ON content_origin(at);

-- The operator inbox: `inbox.<kind>` bus events copied into durable rows (the bus prunes after
-- events.retention_h). seq is the inbox cursor; (kind, ref) is one item, later events update it.
CREATE TABLE inbox_items (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  scope TEXT NOT NULL DEFAULT '',
  title TEXT NOT NULL DEFAULT '',
  support_w REAL NOT NULL DEFAULT 0,
  groups INTEGER NOT NULL DEFAULT 0,
  url TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'open',
  created INTEGER NOT NULL,
  UNIQUE (kind, ref)
) STRICT;
CREATE INDEX inbox_items_day ON inbox_items(kind, created);
-- How far the inbox has copied each `inbox.<kind>` topic of the bus.
CREATE TABLE inbox_cursors (
  topic TEXT PRIMARY KEY,
  last INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- POST /admin/demand: search demand rows that passed strict scrubbing.
CREATE TABLE demand_queries (
  id INTEGER PRIMARY KEY,
  src TEXT NOT NULL,
  q TEXT NOT NULL,
  impressions INTEGER NOT NULL,
  clicks INTEGER NOT NULL,
  position REAL NOT NULL,
  page TEXT NOT NULL,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX demand_queries_src ON demand_queries(src, at);

-- Export tombstones (spec 2.2): what left the public data and why; no content.
CREATE TABLE tombstones (
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  removed_at INTEGER NOT NULL,
  reason TEXT NOT NULL,
  PRIMARY KEY (kind, id)
) STRICT, WITHOUT ROWID;
CREATE INDEX tombstones_at ON tombstones(removed_at);

-- Decisions on mail reports (POST /admin/x/decide): status goes open -> purge | freeze | dismiss.
ALTER TABLE mail_reports ADD COLUMN note TEXT NOT NULL DEFAULT '';
ALTER TABLE mail_reports ADD COLUMN decided INTEGER;
