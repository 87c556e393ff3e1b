-- Swarm subscriptions and the key-value sink (src/store/pg/swarm.ts; PostgreSQL twin of
-- src/store/sqlite/migrations/014_swarm.sql, BIGINT for times, seqs and counters). Topic lines
-- themselves are bus events (topic `ps:<topic>`, table events); a subscription keeps its own cursor
-- (the last seq it handled) and moves it only forward, compare-and-set, in the same transaction as
-- a kv: write, so a kv: entry is written once per line and never goes back. Work-queue items are
-- jobs (queue `wq:<owner>:<name>`); mb: deliveries are mail rows with an id derived from (sub, seq).
CREATE TABLE swarm_subs (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  topic TEXT NOT NULL,
  sink TEXT NOT NULL,
  target TEXT,
  filter TEXT,
  mode TEXT NOT NULL CHECK (mode IN ('each', 'digest')),
  hop_max INTEGER NOT NULL,
  credits_day INTEGER NOT NULL,
  expires BIGINT NOT NULL,
  created BIGINT NOT NULL,
  cursor BIGINT NOT NULL,
  delivered BIGINT NOT NULL DEFAULT 0,
  filtered BIGINT NOT NULL DEFAULT 0,
  missed BIGINT NOT NULL DEFAULT 0,
  dropped BIGINT NOT NULL DEFAULT 0,
  -- digest: when the pending lines are due (NULL: nothing pending)
  due BIGINT,
  -- fn: credits spent on day `spent_on` (UTC day number)
  spent_on INTEGER NOT NULL DEFAULT 0,
  spent INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX swarm_subs_topic ON swarm_subs(topic);
CREATE INDEX swarm_subs_owner ON swarm_subs(owner, created);
CREATE INDEX swarm_subs_due ON swarm_subs(due) WHERE due IS NOT NULL;
CREATE INDEX swarm_subs_expires ON swarm_subs(expires);

CREATE TABLE swarm_kv (
  owner TEXT NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  ns TEXT NOT NULL,
  k TEXT NOT NULL,
  value TEXT NOT NULL,
  topic TEXT NOT NULL,
  seq BIGINT NOT NULL,
  by TEXT NOT NULL,
  hop INTEGER NOT NULL,
  missed BIGINT NOT NULL DEFAULT 0,
  writes BIGINT NOT NULL DEFAULT 1,
  updated BIGINT NOT NULL,
  PRIMARY KEY (owner, ns, k)
);
