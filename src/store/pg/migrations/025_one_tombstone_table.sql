-- PostgreSQL twin of src/store/sqlite/migrations/025_one_tombstone_table.sql, which moved the purge's
-- `tombstones` rows into `export_tombstones` and dropped the table. Here 020's twin never created
-- `tombstones` (no PostgreSQL database predates this migration): the purge writes export_tombstones
-- from the start, so there is nothing to move.
SELECT 1;
