-- Operator control state (PostgreSQL twin of src/store/sqlite/migrations/011_control.sql): freezes,
-- the operator's shed level and maintenance windows, shared by every replica.
CREATE TABLE control_freezes (
  kind TEXT PRIMARY KEY,
  actor TEXT NOT NULL,
  note TEXT NOT NULL,
  since BIGINT NOT NULL
);
-- One row at most: the level an operator set (absent when lifted).
CREATE TABLE control_shed (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  level INTEGER NOT NULL,
  reason TEXT NOT NULL,
  actor TEXT NOT NULL,
  since BIGINT NOT NULL
);
CREATE TABLE control_maintenance (
  id BIGSERIAL PRIMARY KEY,
  starts BIGINT NOT NULL,
  ends BIGINT NOT NULL,
  text TEXT NOT NULL,
  actor TEXT NOT NULL
);

-- PostgreSQL only: quota buckets, shared by the replicas (SQLite keeps them in the memory of its one
-- process). UNLOGGED: no WAL for the hottest writes of the service; a crash of the server empties
-- the table, and empty buckets start full, exactly as a SQLite restart does. cap and rate are kept
-- so that buckets full again can be dropped (they carry no information); `took` says whether the
-- last take was granted (the upsert's RETURNING sees only the new row).
CREATE UNLOGGED TABLE quota_buckets (
  id TEXT PRIMARY KEY,
  tokens DOUBLE PRECISION NOT NULL,
  t BIGINT NOT NULL,
  cap DOUBLE PRECISION NOT NULL,
  rate DOUBLE PRECISION NOT NULL,
  took BOOLEAN NOT NULL
);
