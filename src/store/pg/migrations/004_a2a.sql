-- A2A tasks and push configs (bodies are the A2A face's JSON), hosted agent cards and inboxes
-- (PostgreSQL twin of src/store/sqlite/migrations/004_a2a.sql: BIGINT ms, BOOLEAN flags; a card's
-- tags are a TEXT[], so the directory matches a whole tag with `= ANY`, never a pattern).
CREATE TABLE a2a_tasks (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  agent TEXT NOT NULL,
  context_id TEXT NOT NULL,
  state TEXT NOT NULL,
  state_at BIGINT NOT NULL,
  body TEXT NOT NULL,
  created BIGINT NOT NULL,
  updated BIGINT NOT NULL
);
CREATE INDEX a2a_tasks_scope ON a2a_tasks(owner, agent, updated);

CREATE TABLE a2a_push (
  task TEXT NOT NULL,
  id TEXT NOT NULL,
  owner TEXT NOT NULL,
  agent TEXT NOT NULL,
  body TEXT NOT NULL,
  wire TEXT NOT NULL,
  created BIGINT NOT NULL,
  PRIMARY KEY (task, id)
);

CREATE TABLE agent_cards (
  id TEXT PRIMARY KEY REFERENCES identities(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  tags TEXT[] NOT NULL DEFAULT '{}',  -- each tag lowercase without spaces
  inbound BOOLEAN NOT NULL,
  created BIGINT NOT NULL,
  updated BIGINT NOT NULL
);
CREATE INDEX agent_cards_dir ON agent_cards(inbound, updated);

CREATE TABLE agent_inbound (
  task TEXT PRIMARY KEY,
  agent TEXT NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  sender TEXT NOT NULL,
  text TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'completed', 'rejected', 'canceled')),
  answer TEXT,
  created BIGINT NOT NULL,
  updated BIGINT NOT NULL,
  synced BOOLEAN NOT NULL DEFAULT TRUE
);
CREATE INDEX agent_inbound_box ON agent_inbound(agent, state, created);
CREATE INDEX agent_inbound_pending ON agent_inbound(state, synced);
