-- The time budget of subscription filters (PostgreSQL twin of
-- src/store/sqlite/migrations/027_swarm_filter_budget.sql): filter time spent (microseconds, added
-- with each cursor move), and a pause: until when deliveries wait (epoch ms; NULL or past: not
-- paused) and why, read by the owner in GET /v1/subs.
ALTER TABLE swarm_subs ADD COLUMN filter_us BIGINT NOT NULL DEFAULT 0;
ALTER TABLE swarm_subs ADD COLUMN paused_until BIGINT;
ALTER TABLE swarm_subs ADD COLUMN paused_why TEXT;
