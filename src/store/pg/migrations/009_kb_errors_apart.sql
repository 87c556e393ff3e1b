-- PostgreSQL twin of src/store/sqlite/migrations/009_kb_errors_apart.sql: folded into 003_kb.sql
-- (kb_errors), since no PostgreSQL database predates it.
SELECT 1;
