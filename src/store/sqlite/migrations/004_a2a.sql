-- A2A tasks and push configs (bodies are the A2A face's JSON), hosted agent cards and inboxes.
CREATE TABLE a2a_tasks (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  agent TEXT NOT NULL,
  context_id TEXT NOT NULL,
  state TEXT NOT NULL,
  state_at INTEGER NOT NULL,
  body TEXT NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
) STRICT;
CREATE INDEX a2a_tasks_scope ON a2a_tasks(owner, agent, updated);

CREATE TABLE a2a_push (
  task TEXT NOT NULL,
  id TEXT NOT NULL,
  owner TEXT NOT NULL,
  agent TEXT NOT NULL,
  body TEXT NOT NULL,
  wire TEXT NOT NULL,
  created INTEGER NOT NULL,
  PRIMARY KEY (task, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE agent_cards (
  id TEXT PRIMARY KEY REFERENCES identities(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  tags TEXT NOT NULL,            -- space-separated, each tag lowercase without spaces
  inbound INTEGER NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
) STRICT;
CREATE INDEX agent_cards_dir ON agent_cards(inbound, updated);

CREATE TABLE agent_inbound (
  task TEXT PRIMARY KEY,
  agent TEXT NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  sender TEXT NOT NULL,
  text TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'completed', 'rejected', 'canceled')),
  answer TEXT,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  synced INTEGER NOT NULL DEFAULT 1
) STRICT;
CREATE INDEX agent_inbound_box ON agent_inbound(agent, state, created);
CREATE INDEX agent_inbound_pending ON agent_inbound(state, synced);
