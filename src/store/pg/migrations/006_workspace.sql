-- Agent workspace: notes, checkpoints, anchors, cached results, blobs, mail (PostgreSQL twin of
-- src/store/sqlite/migrations/006_workspace.sql: BYTEA for BLOB, BIGINT ms, BIGSERIAL row numbers;
-- the 0/1 flags stay INTEGER until their ports are written here: change them then, before release).
-- Notes and mail hold no plaintext: `ct` is AES-256-GCM ciphertext||tag under a workspace subkey,
-- with a per-row nonce and the row (kind, id, owner) as AAD. Reader networks are stored only as
-- keyed 16-byte tags. `rid` is the row number and the order of list cursors.
CREATE TABLE notes (
  rid BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  owner TEXT NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  nonce BYTEA NOT NULL,
  ct BYTEA NOT NULL,
  size INTEGER NOT NULL,
  created BIGINT NOT NULL,
  updated BIGINT NOT NULL
);
CREATE INDEX notes_owner ON notes(owner, rid);

-- Checkpoints: every save is a row with its own c… id; `seq` counts the saves of (owner, name).
-- `lost` = publication lost by the reader-network rule (owner below L2); it cannot be re-published.
CREATE TABLE checkpoints (
  rid BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  owner TEXT NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  seq INTEGER NOT NULL,
  body TEXT NOT NULL,
  size INTEGER NOT NULL,
  created BIGINT NOT NULL,
  exp BIGINT NOT NULL,
  published INTEGER NOT NULL DEFAULT 0,
  lost INTEGER NOT NULL DEFAULT 0,
  hidden INTEGER NOT NULL DEFAULT 0,
  UNIQUE (owner, name, seq)
);
CREATE INDEX checkpoints_owner ON checkpoints(owner, rid);
CREATE INDEX checkpoints_exp ON checkpoints(exp);
CREATE TABLE cp_readers (
  cp BIGINT NOT NULL REFERENCES checkpoints(rid) ON DELETE CASCADE,
  net BYTEA NOT NULL,
  PRIMARY KEY (cp, net)
);

-- Anchors: one claim per (key, identity). No rights attach to a claim.
CREATE TABLE anchors (
  key TEXT NOT NULL,
  owner TEXT NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  note TEXT NOT NULL,
  cp TEXT,
  created BIGINT NOT NULL,
  updated BIGINT NOT NULL,
  exp BIGINT NOT NULL,
  PRIMARY KEY (key, owner)
);
CREATE INDEX anchors_owner ON anchors(owner);
CREATE INDEX anchors_exp ON anchors(exp);

-- Cached results: one live row per (ns, key). Inline text or a blob hash; `to_id` hands the row
-- to one identity (everyone else gets the same 404 as for an unknown key).
CREATE TABLE cache (
  rid BIGSERIAL PRIMARY KEY,
  ns TEXT NOT NULL,
  key TEXT NOT NULL,
  producer TEXT NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('inline', 'blob')),
  text TEXT,
  blob TEXT,
  size INTEGER NOT NULL,
  to_id TEXT,
  hits INTEGER NOT NULL DEFAULT 0,
  created BIGINT NOT NULL,
  exp BIGINT NOT NULL,
  hidden INTEGER NOT NULL DEFAULT 0,
  UNIQUE (ns, key)
);
CREATE INDEX cache_producer ON cache(producer);
CREATE INDEX cache_exp ON cache(exp);
CREATE TABLE cache_nets (
  rid BIGINT NOT NULL REFERENCES cache(rid) ON DELETE CASCADE,
  net BYTEA NOT NULL,
  PRIMARY KEY (rid, net)
);

-- Blobs: content-addressed (sha256 hex); bytes apart from metadata so scans stay small.
CREATE TABLE blobs (
  hash TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  kind TEXT NOT NULL,
  owner TEXT NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  created BIGINT NOT NULL
);
CREATE INDEX blobs_owner ON blobs(owner);
CREATE TABLE blob_data (
  hash TEXT PRIMARY KEY REFERENCES blobs(hash) ON DELETE CASCADE,
  bytes BYTEA NOT NULL
);

-- Mail: subject and body sealed together. A message deleted by its recipient while a report on it
-- is open keeps its ciphertext (the review decides by locator) but leaves the inbox.
CREATE TABLE mail (
  rid BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  sender TEXT NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  recipient TEXT NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  nonce BYTEA NOT NULL,
  ct BYTEA NOT NULL,
  size INTEGER NOT NULL,
  created BIGINT NOT NULL,
  read_at BIGINT,
  deleted INTEGER NOT NULL DEFAULT 0,
  reported INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX mail_inbox ON mail(recipient, rid) WHERE deleted = 0;

-- Recipient reports: a locator and who, never plaintext. The review queue (later) reads these.
CREATE TABLE mail_reports (
  id BIGSERIAL PRIMARY KEY,
  msg TEXT NOT NULL,
  reporter TEXT NOT NULL,
  sender TEXT NOT NULL,
  reason TEXT NOT NULL,
  created BIGINT NOT NULL,
  status TEXT NOT NULL DEFAULT 'open',
  UNIQUE (msg, reporter)
);
CREATE INDEX mail_reports_open ON mail_reports(created) WHERE status = 'open';
