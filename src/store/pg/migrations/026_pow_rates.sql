-- Registration counts behind the adaptive PoW difficulty (PostgreSQL twin of
-- src/store/sqlite/migrations/026_pow_rates.sql): one row per network and bucket of pow.window / 60
-- (bucket = its start, epoch ms); net '' counts every network. Shared by the replicas, so each one's
-- challenges price every replica's registrations.
CREATE TABLE pow_regs (
  net TEXT NOT NULL,
  bucket BIGINT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (net, bucket)
);
CREATE INDEX pow_regs_bucket ON pow_regs(bucket);
