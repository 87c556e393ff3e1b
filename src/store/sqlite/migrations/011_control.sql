-- Operator control state (src/core/platform/control/ports.ts): freezes, the operator's shed level and
-- maintenance windows, kept so that a restart (and every process on this file) sees them.
CREATE TABLE control_freezes (
  kind TEXT PRIMARY KEY,
  actor TEXT NOT NULL,
  note TEXT NOT NULL,
  since INTEGER NOT NULL
) STRICT;
-- One row at most: the level an operator set (absent when lifted).
CREATE TABLE control_shed (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  level INTEGER NOT NULL,
  reason TEXT NOT NULL,
  actor TEXT NOT NULL,
  since INTEGER NOT NULL
) STRICT;
CREATE TABLE control_maintenance (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  starts INTEGER NOT NULL,
  ends INTEGER NOT NULL,
  text TEXT NOT NULL,
  actor TEXT NOT NULL
) STRICT;
