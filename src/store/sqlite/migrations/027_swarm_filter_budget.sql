-- The time budget of subscription filters (src/core/swarm/budget.ts): the filter time a
-- subscription has cost (microseconds, added with each cursor move), and a pause: until when its
-- deliveries wait (epoch ms; NULL or past: not paused) and why, in words its owner reads in
-- GET /v1/subs. A pause ends by itself at paused_until; the row keeps the last reason.
ALTER TABLE swarm_subs ADD COLUMN filter_us INTEGER NOT NULL DEFAULT 0;
ALTER TABLE swarm_subs ADD COLUMN paused_until INTEGER;
ALTER TABLE swarm_subs ADD COLUMN paused_why TEXT;
