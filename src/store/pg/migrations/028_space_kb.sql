-- Private KB entries of a space (PostgreSQL twin of src/store/sqlite/migrations/028_space_kb.sql):
-- apart from kb_entries so no public read reaches them; roles, closed spaces and invites.
ALTER TABLE spaces ADD COLUMN closed BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE space_members ADD COLUMN role TEXT NOT NULL DEFAULT 'member';
UPDATE space_members m SET role = 'owner' FROM spaces s WHERE s.slug = m.space AND s.creator = m.member;

CREATE TABLE space_invites (
  h TEXT PRIMARY KEY,
  space TEXT NOT NULL REFERENCES spaces(slug),
  role TEXT NOT NULL,
  by TEXT NOT NULL,
  created BIGINT NOT NULL,
  expires BIGINT NOT NULL
);
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
  tags TEXT NOT NULL DEFAULT '',
  libs TEXT NOT NULL DEFAULT '',
  author TEXT NOT NULL,
  created BIGINT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX space_kb_by_h ON space_kb(h, space);
CREATE INDEX space_kb_by_ch ON space_kb(ch, space);
CREATE INDEX space_kb_by_space ON space_kb(space, created);
CREATE INDEX space_kb_by_author ON space_kb(author);
