-- Task board with bounties, the double-entry credit ledger, spaces (PostgreSQL twin of
-- src/store/sqlite/migrations/005_tasks.sql). Differences: tags are a TEXT[] with a GIN index (no
-- task_tags side table), free text is a tsvector column with a GIN index (SQLite: FTS5), and the
-- kb_by_author index belongs to the KB's own migration (003) here.

-- Ledger accounts: identities (a…), one escrow per bounty (e:b…) and the system mint (sys:mint),
-- the only account allowed below zero: its balance is minus everything ever minted.
CREATE TABLE ledger_accounts (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('id', 'escrow', 'sys')),
  balance BIGINT NOT NULL DEFAULT 0,
  CHECK (kind = 'sys' OR balance >= 0)
);

-- One row per movement; its postings sum to zero.
CREATE TABLE ledger_tx (
  n BIGSERIAL PRIMARY KEY,
  kind TEXT NOT NULL,
  ref TEXT,
  created BIGINT NOT NULL
);

CREATE TABLE ledger_postings (
  tx BIGINT NOT NULL REFERENCES ledger_tx(n),
  account TEXT NOT NULL REFERENCES ledger_accounts(id),
  amount BIGINT NOT NULL CHECK (amount <> 0),
  PRIMARY KEY (tx, account)
);
CREATE INDEX ledger_postings_by_account ON ledger_postings(account, tx);

CREATE TABLE tasks (
  n BIGSERIAL PRIMARY KEY,           -- list cursor
  id TEXT NOT NULL UNIQUE,           -- t + 8 chars
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  tags TEXT[] NOT NULL DEFAULT '{}',
  creator TEXT NOT NULL,
  space TEXT,
  state TEXT NOT NULL CHECK (state IN ('open', 'claimed', 'done', 'accepted', 'cancelled')),
  claimant TEXT,
  claimed BIGINT,
  result TEXT,
  note TEXT,
  hunter TEXT,
  bounty TEXT UNIQUE,
  credits BIGINT NOT NULL DEFAULT 0 CHECK (credits >= 0),
  created BIGINT NOT NULL,
  updated BIGINT NOT NULL,
  -- Words of title, body and tags, cut as FTS5 cuts them (src/store/pg/fts.ts), set on insert.
  fts TSVECTOR NOT NULL
);
CREATE INDEX tasks_by_state ON tasks(state, n);
CREATE INDEX tasks_by_creator ON tasks(creator, n);
CREATE INDEX tasks_by_claimant ON tasks(claimant, n);
CREATE INDEX tasks_by_hunter ON tasks(hunter) WHERE state = 'accepted';
CREATE INDEX tasks_by_space ON tasks(space, state) WHERE space IS NOT NULL;
CREATE INDEX tasks_tags ON tasks USING GIN (tags);
CREATE INDEX tasks_fts ON tasks USING GIN (fts);

CREATE TABLE spaces (
  slug TEXT PRIMARY KEY,
  title TEXT NOT NULL DEFAULT '',
  creator TEXT NOT NULL,
  created BIGINT NOT NULL
);
CREATE INDEX spaces_by_creator ON spaces(creator);

CREATE TABLE space_members (
  space TEXT NOT NULL REFERENCES spaces(slug),
  member TEXT NOT NULL,
  joined BIGINT NOT NULL,
  PRIMARY KEY (space, member)
);
CREATE INDEX space_members_by_member ON space_members(member);
