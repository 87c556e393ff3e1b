-- Operator state (PostgreSQL twin of src/store/sqlite/migrations/020_admin.sql): announcements,
-- operator marks, registration policy per ASN, content origin, the durable operator inbox, imported
-- search demand; decisions on mail reports. Unlike SQLite's 020 it creates no `tombstones` table:
-- SQLite's 025 later folded it into export_tombstones (018), and no PostgreSQL database predates
-- that, so the purge writes export_tombstones from the start (025's twin is empty).

CREATE TABLE announcements (
  id BIGSERIAL PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('maintenance', 'incident', 'change', 'notice')),
  starts BIGINT NOT NULL,
  ends BIGINT NOT NULL,
  text TEXT NOT NULL,
  line TEXT NOT NULL DEFAULT '',
  maint BIGINT,
  created BIGINT NOT NULL
);
CREATE INDEX announcements_ends ON announcements(ends);

-- Marks: `seed` (ref = identity id), `st_hide` (ref = status page target); a row while the mark is
-- on. ref orders COLLATE "C" (bytes, as SQLite's BINARY).
CREATE TABLE operator_marks (
  mark TEXT NOT NULL,
  ref TEXT COLLATE "C" NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  at BIGINT NOT NULL,
  PRIMARY KEY (mark, ref)
);
CREATE INDEX operator_marks_ref ON operator_marks(ref);

-- Registration policy of an autonomous system (ASNs reach 2^32: BIGINT).
CREATE TABLE asn_policy (
  asn BIGINT PRIMARY KEY,
  class TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  at BIGINT NOT NULL
);

-- Which root and which network created a piece of published content; the first writer is kept.
CREATE TABLE content_origin (
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  root TEXT NOT NULL,
  net TEXT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (kind, ref)
);
CREATE INDEX content_origin_ref ON content_origin(ref);
CREATE INDEX content_origin_root ON content_origin(root);
CREATE INDEX content_origin_at ON content_origin(at);

-- The operator inbox: `inbox.<kind>` bus events copied into durable rows. seq is the inbox cursor;
-- (kind, ref) is one item, later events update it.
CREATE TABLE inbox_items (
  seq BIGSERIAL PRIMARY KEY,
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  scope TEXT NOT NULL DEFAULT '',
  title TEXT NOT NULL DEFAULT '',
  support_w DOUBLE PRECISION NOT NULL DEFAULT 0,
  groups INTEGER NOT NULL DEFAULT 0,
  url TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'open',
  created BIGINT NOT NULL,
  UNIQUE (kind, ref)
);
CREATE INDEX inbox_items_day ON inbox_items(kind, created);
CREATE INDEX inbox_items_ref ON inbox_items(ref);
-- How far the inbox has copied each `inbox.<kind>` topic of the bus.
CREATE TABLE inbox_cursors (
  topic TEXT PRIMARY KEY,
  last BIGINT NOT NULL
);
-- The inbox topics among the bus's heads (one per topic, personal ones included), found without a
-- scan whatever the collation (a prefix range on the primary key needs the C locale).
CREATE INDEX event_heads_inbox ON event_heads(topic) WHERE starts_with(topic, 'inbox.');

-- Search demand rows that passed strict scrubbing.
CREATE TABLE demand_queries (
  id BIGSERIAL PRIMARY KEY,
  src TEXT NOT NULL,
  q TEXT NOT NULL,
  impressions INTEGER NOT NULL,
  clicks INTEGER NOT NULL,
  position DOUBLE PRECISION NOT NULL,
  page TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX demand_queries_src ON demand_queries(src, at);

-- Decisions on mail reports (POST /admin/x/decide): status goes open -> purge | freeze | dismiss.
ALTER TABLE mail_reports ADD COLUMN note TEXT NOT NULL DEFAULT '';
ALTER TABLE mail_reports ADD COLUMN decided BIGINT;
