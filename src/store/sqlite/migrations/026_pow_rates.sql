-- Registration counts behind the adaptive PoW difficulty (src/core/platform/identity/pow-rate.ts): one row per
-- network and bucket of pow.window / 60 (bucket = its start, epoch ms), and the row of net '' counts
-- every network. In the store, so that every process on it (replicas on PostgreSQL) counts every
-- registration; buckets older than the window are purged with the spent proofs.
CREATE TABLE pow_regs (
  net TEXT NOT NULL,
  bucket INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (net, bucket)
) STRICT, WITHOUT ROWID;
CREATE INDEX pow_regs_bucket ON pow_regs(bucket);
