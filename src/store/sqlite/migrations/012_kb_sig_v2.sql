-- ErrSig v2: two levels of signature, and the signatures of entries written under v1 kept resolving.
-- sigv is the ErrSig version that made an entry's sig (0: unknown). Entries below the current
-- version are re-signed from their error text when the server starts (src/core/kb/resign.ts): that
-- needs the algorithm, which lives in JavaScript, so it cannot happen in this SQL. ch is the hash
-- of the coarse signature ('' until re-signed). An old hash an entry answered to stays in
-- kb_sig_alias, so a client still computing v1 hashes (GET /h/{hex}) finds the entry.
ALTER TABLE kb_entries ADD COLUMN sigv INTEGER NOT NULL DEFAULT 1;
ALTER TABLE kb_entries ADD COLUMN ch TEXT NOT NULL DEFAULT '';
CREATE INDEX kb_by_ch ON kb_entries(ch, (confirms * 3 - fails * 2) DESC, created DESC) WHERE hidden = 0;
CREATE INDEX kb_by_sigv ON kb_entries(sigv);
CREATE TABLE kb_sig_alias (
  h TEXT NOT NULL,                   -- sha256 of a signature the entry had under an earlier version
  n INTEGER NOT NULL REFERENCES kb_entries(n) ON DELETE CASCADE,
  v INTEGER NOT NULL,                -- the version that made that signature
  PRIMARY KEY (h, n)
) STRICT, WITHOUT ROWID;
