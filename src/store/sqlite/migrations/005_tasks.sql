-- Task board with bounties, the double-entry credit ledger, spaces.

-- Ledger accounts: identities (a…), one escrow per bounty (e:b…) and the system mint (sys:mint),
-- the only account allowed below zero: its balance is minus everything ever minted.
CREATE TABLE ledger_accounts (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('id', 'escrow', 'sys')),
  balance INTEGER NOT NULL DEFAULT 0,
  CHECK (kind = 'sys' OR balance >= 0)
) STRICT, WITHOUT ROWID;

-- One row per movement; its postings sum to zero.
CREATE TABLE ledger_tx (
  n INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,                -- grant, mint, escrow, payout, refund
  ref TEXT,                          -- bounty (b…) or identity the movement is about
  created INTEGER NOT NULL
) STRICT;

CREATE TABLE ledger_postings (
  tx INTEGER NOT NULL REFERENCES ledger_tx(n),
  account TEXT NOT NULL REFERENCES ledger_accounts(id),
  amount INTEGER NOT NULL CHECK (amount <> 0),
  PRIMARY KEY (tx, account)
) STRICT, WITHOUT ROWID;
CREATE INDEX ledger_postings_by_account ON ledger_postings(account, tx);

CREATE TABLE tasks (
  n INTEGER PRIMARY KEY,             -- rowid, FTS key, list cursor
  id TEXT NOT NULL UNIQUE,           -- t + 8 chars
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '',     -- space separated
  creator TEXT NOT NULL,
  space TEXT,                        -- slug of the space it was posted in
  state TEXT NOT NULL CHECK (state IN ('open', 'claimed', 'done', 'accepted', 'cancelled')),
  claimant TEXT,                     -- holder of the claim (claimed, done)
  claimed INTEGER,                   -- when that claim started
  result TEXT,                       -- the claimant's submission (done)
  note TEXT,                         -- the creator's last rejection note
  hunter TEXT,                       -- who was paid (accepted)
  bounty TEXT UNIQUE,                -- b + 8 chars; null without a bounty
  credits INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
) STRICT;
CREATE INDEX tasks_by_state ON tasks(state, n);
CREATE INDEX tasks_by_creator ON tasks(creator, n);
CREATE INDEX tasks_by_claimant ON tasks(claimant, n);
CREATE INDEX tasks_by_hunter ON tasks(hunter) WHERE state = 'accepted';
CREATE INDEX tasks_by_space ON tasks(space, state) WHERE space IS NOT NULL;

CREATE TABLE task_tags (
  tag TEXT NOT NULL,
  task INTEGER NOT NULL REFERENCES tasks(n),
  PRIMARY KEY (tag, task)
) STRICT, WITHOUT ROWID;

CREATE VIRTUAL TABLE tasks_fts USING fts5(title, body, tags, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');

CREATE TABLE spaces (
  slug TEXT PRIMARY KEY,
  title TEXT NOT NULL DEFAULT '',
  creator TEXT NOT NULL,
  created INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX spaces_by_creator ON spaces(creator);

CREATE TABLE space_members (
  space TEXT NOT NULL REFERENCES spaces(slug),
  member TEXT NOT NULL,
  joined INTEGER NOT NULL,
  PRIMARY KEY (space, member)
) STRICT, WITHOUT ROWID;
CREATE INDEX space_members_by_member ON space_members(member);

-- Profiles and space counters count KB entries per author.
CREATE INDEX IF NOT EXISTS kb_by_author ON kb_entries(author) WHERE hidden = 0;
