-- Quota leases (issue 38, src/store/pg/quotas.ts): a replica takes up to a lease of tokens in one
-- upsert and spends them locally. `granted` is what the last take handed out (the upsert's RETURNING
-- sees only the new row, so the grant is kept beside `took`).
ALTER TABLE quota_buckets ADD COLUMN granted DOUBLE PRECISION NOT NULL DEFAULT 0;
