-- Error texts apart from the entries. Lookups, searches and listings never read them, and they are
-- the largest column (up to 16 KiB against a fix's 4000 chars), so entry rows stay small and a
-- page holds more of them: a KB lookup reads fewer pages. A database upgraded in place keeps its
-- old page layout until VACUUM; new ones are compact from the start.
CREATE TABLE kb_errors (
  n INTEGER PRIMARY KEY REFERENCES kb_entries(n) ON DELETE CASCADE,
  error TEXT NOT NULL
) STRICT;
INSERT INTO kb_errors (n, error) SELECT n, error FROM kb_entries;
ALTER TABLE kb_entries DROP COLUMN error;
