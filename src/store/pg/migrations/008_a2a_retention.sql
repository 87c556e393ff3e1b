-- Retention sweep of A2A tasks: each batch seeks by state, oldest `updated` first (PostgreSQL twin
-- of src/store/sqlite/migrations/008_a2a_retention.sql).
CREATE INDEX a2a_tasks_sweep ON a2a_tasks(state, updated);

-- Push configs sealed at rest (AES-256-GCM): nonce || ciphertext || tag; body stays ''. Unlike
-- SQLite, no row here was ever written in plain text (every PostgreSQL writer seals), so the
-- adapter has no sealing pass at open.
ALTER TABLE a2a_push ADD COLUMN sealed BYTEA;
