-- ErrSig v2 (PostgreSQL twin of src/store/sqlite/migrations/012_kb_sig_v2.sql): two levels of
-- signature, and the signatures of entries written under v1 kept resolving (kb_sig_alias).
ALTER TABLE kb_entries ADD COLUMN sigv INTEGER NOT NULL DEFAULT 1;
ALTER TABLE kb_entries ADD COLUMN ch TEXT NOT NULL DEFAULT '';
CREATE INDEX kb_by_ch ON kb_entries(ch, (confirms * 3 - fails * 2) DESC, created DESC) WHERE NOT hidden;
CREATE INDEX kb_by_sigv ON kb_entries(sigv);
CREATE TABLE kb_sig_alias (
  h TEXT NOT NULL,
  n BIGINT NOT NULL REFERENCES kb_entries(n) ON DELETE CASCADE,
  v INTEGER NOT NULL,
  PRIMARY KEY (h, n)
);
