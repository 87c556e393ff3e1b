-- Event bus outbox and job queue (PostgreSQL twin of src/store/sqlite/migrations/010_events_jobs.sql).
-- A topic's head row hands out its ids: the write that appends an event bumps the head with
-- INSERT ... ON CONFLICT DO UPDATE ... RETURNING in its own transaction, which holds the head row's
-- lock until commit, so concurrent writers of one topic take consecutive ids in commit order and a
-- rolled-back write leaves neither an event nor a gap. Heads stay when retention prunes every event
-- of a topic, so an id is never reused. After commit a replica sends NOTIFY with '<topic> <id>'
-- only (never the payload); listeners read the rows by (topic, id), the primary key.
CREATE TABLE event_heads (
  topic TEXT PRIMARY KEY,
  head BIGINT NOT NULL
);

CREATE TABLE events (
  topic TEXT NOT NULL,
  id BIGINT NOT NULL,
  time BIGINT NOT NULL,
  payload JSONB NOT NULL,
  PRIMARY KEY (topic, id)
);
-- Retention by age: the first young event of a topic.
CREATE INDEX events_time ON events(topic, time);

-- Job queue: one row per job until it is acked. `due`: when it may be leased next (its run time
-- while waiting, its lease deadline while leased), so an expired lease is simply due again.
-- Leasing takes due rows with SELECT ... FOR UPDATE SKIP LOCKED: concurrent workers on any replica
-- each get different jobs without waiting on each other. state 'q' (queued or leased) or 'dead'.
CREATE TABLE jobs (
  n BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  queue TEXT NOT NULL,
  payload JSONB NOT NULL,
  state TEXT NOT NULL DEFAULT 'q',
  due BIGINT NOT NULL,
  tries INTEGER NOT NULL DEFAULT 0,
  max_tries INTEGER NOT NULL,
  lease TEXT,
  lease_until BIGINT,
  error TEXT,
  key TEXT,
  created BIGINT NOT NULL,
  updated BIGINT NOT NULL
);
CREATE INDEX jobs_due ON jobs(queue, state, due, n);
CREATE UNIQUE INDEX jobs_key ON jobs(queue, key) WHERE key IS NOT NULL;
