-- SQLite twin of src/store/pg/migrations/031_quota_leases.sql: SQLite keeps its quota buckets in the
-- memory of its one process (src/core/platform/quota/memory.ts), so there is nothing to change.
SELECT 1;
