-- Retention sweep of A2A tasks: each batch seeks by state, oldest `updated` first.
CREATE INDEX a2a_tasks_sweep ON a2a_tasks(state, updated);

-- Push configs sealed at rest (AES-256-GCM): nonce || ciphertext || tag. Sealed rows keep
-- body = ''; rows written before this migration are sealed when the store opens (src/store/sqlite/a2a.ts).
ALTER TABLE a2a_push ADD COLUMN sealed BLOB;
