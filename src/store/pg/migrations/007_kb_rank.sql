-- PostgreSQL twin of src/store/sqlite/migrations/007_kb_rank.sql: folded into 003_kb.sql (kb_sig_hits,
-- the ranked kb_by_h index, no hits column), since no PostgreSQL database predates it.
SELECT 1;
