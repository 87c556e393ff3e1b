-- Event bus outbox (src/store/sqlite/events.ts). A topic's head row hands out its ids: the write
-- that appends an event bumps the head in its own transaction, so ids are gapless and monotonic
-- per topic in commit order, and a rolled-back write leaves neither an event nor a gap. Heads stay
-- when retention prunes every event of a topic, so an id is never reused.
CREATE TABLE event_heads (
  topic TEXT PRIMARY KEY,
  head INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE events (
  topic TEXT NOT NULL,
  id INTEGER NOT NULL,
  time INTEGER NOT NULL,
  payload TEXT NOT NULL,
  PRIMARY KEY (topic, id)
) WITHOUT ROWID;

-- Job queue (src/store/sqlite/jobs.ts). One row per job until it is acked. `due`: when it may be
-- leased next (its run time while waiting, its lease deadline while leased), so an expired lease
-- is simply due again. state 'q' (queued or leased) or 'dead'. The idempotency key is held while
-- the row exists (queued, leased or dead).
CREATE TABLE jobs (
  n INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  queue TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'q',
  due INTEGER NOT NULL,
  tries INTEGER NOT NULL DEFAULT 0,
  max_tries INTEGER NOT NULL,
  lease TEXT,
  lease_until INTEGER,
  error TEXT,
  key TEXT,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);
CREATE INDEX jobs_due ON jobs(queue, state, due);
CREATE UNIQUE INDEX jobs_key ON jobs(queue, key) WHERE key IS NOT NULL;
