-- Private KB entries of a space (issue 39), kept apart from kb_entries so that no public read
-- (feeds, exports, mirror, hubs, wanted, sitemaps, counts) can reach them by a missing filter:
-- only the space port reads this table, always with the caller's spaces.
-- Roles: the creator of a space is its owner; owners invite and remove. Closed spaces are joined
-- only with an invite (a one-time token, stored as its sha256, scoped to one space, expiring).
ALTER TABLE spaces ADD COLUMN closed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE space_members ADD COLUMN role TEXT NOT NULL DEFAULT 'member';
UPDATE space_members SET role = 'owner' WHERE member = (SELECT creator FROM spaces WHERE spaces.slug = space_members.space);

CREATE TABLE space_invites (
  h TEXT PRIMARY KEY,               -- sha256 hex of the invite token
  space TEXT NOT NULL REFERENCES spaces(slug),
  role TEXT NOT NULL,
  by TEXT NOT NULL,
  created INTEGER NOT NULL,
  expires INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX space_invites_by_space ON space_invites(space, expires);

CREATE TABLE space_kb (
  id TEXT PRIMARY KEY,
  space TEXT NOT NULL REFERENCES spaces(slug),
  sig TEXT NOT NULL,
  h TEXT NOT NULL,
  ch TEXT NOT NULL,
  title TEXT NOT NULL,
  error TEXT NOT NULL,
  fix TEXT NOT NULL,
  eco TEXT NOT NULL,
  cls TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '',     -- space separated
  libs TEXT NOT NULL DEFAULT '',     -- name@ver, space separated
  author TEXT NOT NULL,
  created INTEGER NOT NULL,
  body TEXT NOT NULL                 -- lower-cased title, error, fix and tags: what retrieval reads
) STRICT, WITHOUT ROWID;
CREATE INDEX space_kb_by_h ON space_kb(h, space);
CREATE INDEX space_kb_by_ch ON space_kb(ch, space);
CREATE INDEX space_kb_by_space ON space_kb(space, created);
CREATE INDEX space_kb_by_author ON space_kb(author);
