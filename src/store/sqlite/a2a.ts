// SQLite adapters for A2A tasks and push configs, hosted agent cards and inbound tasks.
import type { Statement } from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import type { A2aPushRecord, A2aStore, A2aTaskKey, A2aTaskRecord } from '../../core/a2a/ports.js';
import type { AgentCardRec, AgentRepo, InboundRec, InboundState } from '../../core/agents/ports.js';
import { pushSealer } from '../shared.js';
import { LIMIT, type Db } from './db.js';

interface TaskRow {
  id: string;
  owner: string;
  agent: string;
  context_id: string;
  state: string;
  state_at: number;
  body: string;
  created: number;
  updated: number;
}
const toTask = (r: TaskRow): A2aTaskRecord => ({
  id: r.id,
  owner: r.owner,
  agent: r.agent,
  contextId: r.context_id,
  state: r.state,
  stateAt: r.state_at,
  body: r.body,
  created: r.created,
  updated: r.updated,
});

interface PushRow {
  task: string;
  id: string;
  owner: string;
  agent: string;
  body: string;
  wire: string;
  created: number;
  sealed: Buffer | null;
}

/** `master` is the data directory's workspace key (workspace.key); `random` draws the nonces. */
export function sqliteA2a(db: Db, master: Buffer, random: (n: number) => Buffer = randomBytes): A2aStore {
  // Sealed at rest with a subkey of the workspace key, the AAD naming the row (src/store/shared.ts).
  const sealer = pushSealer(master, random);
  const sealPush = (task: string, id: string, owner: string, agent: string, body: string): Buffer => sealer.seal({ task, id, owner, agent }, body);
  /** The plaintext config, or null for a row that is unsealed or fails authentication (never used). */
  const openPush = (r: PushRow): string | null => sealer.open(r, r.sealed);
  // Rows from before migration 008 hold the config in plain text: sealed once, here, in one
  // transaction. secure_delete zeroes the freed plain text instead of leaving it in free space.
  const plainRows = db.prepare('SELECT * FROM a2a_push WHERE sealed IS NULL').all() as PushRow[];
  if (plainRows.length) {
    const setSealed = db.prepare("UPDATE a2a_push SET body = '', sealed = ? WHERE task = ? AND id = ?");
    const was = db.pragma('secure_delete', { simple: true }) as number;
    db.pragma('secure_delete = ON');
    try {
      db.transaction(() => {
        for (const r of plainRows) setSealed.run(sealPush(r.task, r.id, r.owner, r.agent, r.body), r.task, r.id);
      })();
    } finally {
      db.pragma(`secure_delete = ${Number(was)}`);
    }
  }

  const upsert = db.prepare(
    `INSERT INTO a2a_tasks (id, owner, agent, context_id, state, state_at, body, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state, state_at = excluded.state_at, body = excluded.body, updated = excluded.updated
     WHERE a2a_tasks.owner = excluded.owner AND a2a_tasks.agent = excluded.agent`,
  );
  const sel = db.prepare('SELECT * FROM a2a_tasks WHERE id = ? AND owner = ? AND agent = ?');
  const pushIns = db.prepare("INSERT OR REPLACE INTO a2a_push (task, id, owner, agent, body, wire, created, sealed) VALUES (?, ?, ?, ?, '', ?, ?, ?)");
  const pushSel = db.prepare('SELECT * FROM a2a_push WHERE task = ? AND owner = ? AND agent = ? ORDER BY created, id');
  const pushDelOne = db.prepare('DELETE FROM a2a_push WHERE task = ? AND owner = ? AND agent = ? AND id = ?');
  const pushDelAll = db.prepare('DELETE FROM a2a_push WHERE task = ? AND owner = ? AND agent = ?');
  const pushCount = db.prepare('SELECT count(*) AS n FROM a2a_push WHERE task = ? AND owner = ? AND agent = ?');
  const taskDel = db.prepare('DELETE FROM a2a_tasks WHERE id = ?');
  const pushDelTask = db.prepare('DELETE FROM a2a_push WHERE task = ?');
  // A hosted agent's inbox item is the same task seen from the owner's side: it goes with it, or an
  // abandoned open item would count against the agent's open-inbox limit for ever.
  const inboundDelTask = db.prepare('DELETE FROM agent_inbound WHERE task = ?');
  // One statement per state list: `state IN (...) AND updated < ?` seeks a2a_tasks_sweep per state.
  const sweepSel = new Map<number, Statement>();
  const pick = (states: readonly string[], before: number, n: number): A2aTaskKey[] => {
    if (n <= 0 || !states.length) return [];
    let st = sweepSel.get(states.length);
    if (!st)
      sweepSel.set(
        states.length,
        (st = db.prepare(`SELECT id, owner, agent FROM a2a_tasks WHERE state IN (${states.map(() => '?').join(', ')}) AND updated < ? ${LIMIT}`)),
      );
    return st.all(...states, before, n) as A2aTaskKey[];
  };
  const sweepTx = db.transaction((rule: Parameters<A2aStore['tasks']['sweep']>[0], max: number): A2aTaskKey[] => {
    const gone = pick(rule.final, rule.finalBefore, max);
    gone.push(...pick(rule.open, rule.openBefore, max - gone.length));
    for (const k of gone) {
      taskDel.run(k.id);
      pushDelTask.run(k.id);
      inboundDelTask.run(k.id);
    }
    return gone;
  });
  // Tasks that ever had a push config: every task event asks for the task's configs, and most
  // tasks have none, so those are answered without a query.
  const pushTasks = new Set(db.prepare('SELECT DISTINCT task FROM a2a_push').pluck().all() as string[]);
  const put = (t: A2aTaskRecord) => upsert.run(t.id, t.owner, t.agent, t.contextId, t.state, t.stateAt, t.body, t.created, t.updated);
  const putMany = db.transaction((recs: A2aTaskRecord[]) => {
    for (const t of recs) put(t);
  });
  return {
    tasks: {
      async save(t) {
        put(t);
      },
      async saveMany(recs) {
        putMany(recs);
      },
      async load(id, owner, agent) {
        const r = sel.get(id, owner, agent) as TaskRow | undefined;
        return r ? toTask(r) : null;
      },
      async list(q) {
        const where = ['owner = ?', 'agent = ?'];
        const args: unknown[] = [q.owner, q.agent];
        if (q.contextId) where.push('context_id = ?'), args.push(q.contextId);
        if (q.state) where.push('state = ?'), args.push(q.state);
        if (q.after !== undefined) where.push('state_at > ?'), args.push(q.after);
        const w = where.join(' AND ');
        const total = (db.prepare(`SELECT count(*) AS n FROM a2a_tasks WHERE ${w}`).get(...args) as { n: number }).n;
        const rows = db.prepare(`SELECT * FROM a2a_tasks WHERE ${w} ORDER BY updated DESC, id ${LIMIT} OFFSET ?`).all(...args, q.limit, q.offset) as TaskRow[];
        return { rows: rows.map(toTask), total };
      },
      async sweep(rule, max) {
        const gone = sweepTx(rule, max);
        for (const k of gone) pushTasks.delete(k.id);
        return gone;
      },
    },
    push: {
      async save(p) {
        pushIns.run(p.task, p.id, p.owner, p.agent, p.wire, p.created, sealPush(p.task, p.id, p.owner, p.agent, p.body));
        pushTasks.add(p.task);
      },
      async list(task, owner, agent) {
        if (!pushTasks.has(task)) return [];
        const out: A2aPushRecord[] = [];
        for (const r of pushSel.all(task, owner, agent) as PushRow[]) {
          const body = openPush(r);
          // A row that does not authenticate (moved, tampered, other key) is left out, never guessed at.
          if (body !== null) out.push({ task: r.task, id: r.id, owner: r.owner, agent: r.agent, body, wire: r.wire, created: r.created });
        }
        return out;
      },
      async delete(task, owner, agent, id) {
        if (id === undefined) pushDelAll.run(task, owner, agent);
        else pushDelOne.run(task, owner, agent, id);
      },
      async count(task, owner, agent) {
        return (pushCount.get(task, owner, agent) as { n: number }).n;
      },
    },
  };
}

interface CardRow {
  id: string;
  name: string;
  description: string;
  tags: string;
  inbound: number;
  created: number;
  updated: number;
}
const toCard = (r: CardRow): AgentCardRec => ({
  id: r.id,
  name: r.name,
  description: r.description,
  tags: r.tags ? r.tags.split(' ') : [],
  inbound: r.inbound === 1,
  created: r.created,
  updated: r.updated,
});
interface InRow {
  task: string;
  agent: string;
  sender: string;
  text: string;
  state: InboundState;
  answer: string | null;
  created: number;
  updated: number;
  synced: number;
}
const toIn = (r: InRow): InboundRec => ({ ...r, synced: r.synced === 1 });

export function sqliteAgents(db: Db): AgentRepo {
  const cardUp = db.prepare(
    `INSERT INTO agent_cards (id, name, description, tags, inbound, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description, tags = excluded.tags, inbound = excluded.inbound, updated = excluded.updated`,
  );
  const cardSel = db.prepare('SELECT * FROM agent_cards WHERE id = ?');
  const inIns = db.prepare('INSERT INTO agent_inbound (task, agent, sender, text, state, answer, created, updated, synced) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const inSel = db.prepare('SELECT * FROM agent_inbound WHERE task = ?');
  const inAppend = db.prepare("UPDATE agent_inbound SET text = text || ? , updated = ? WHERE task = ? AND state = 'open'");
  const inCount = db.prepare("SELECT count(*) AS n FROM agent_inbound WHERE agent = ? AND state = 'open'");
  const inSettle = db.prepare("UPDATE agent_inbound SET state = ?, answer = ?, updated = ?, synced = ? WHERE task = ? AND state = 'open'");
  const inSynced = db.prepare('UPDATE agent_inbound SET synced = 1 WHERE task = ?');
  const inPending = db.prepare("SELECT * FROM agent_inbound WHERE state = 'open' UNION ALL SELECT * FROM agent_inbound WHERE synced = 0 AND state <> 'open'");
  return {
    async upsertCard(c) {
      cardUp.run(c.id, c.name, c.description, c.tags.join(' '), c.inbound ? 1 : 0, c.created, c.updated);
    },
    async card(id) {
      const r = cardSel.get(id) as CardRow | undefined;
      return r ? toCard(r) : null;
    },
    async directory(q) {
      const where = ['c.inbound = 1', 'i.frozen = 0', 'i.rep >= ?', 'i.confirmed >= ?', 'i.created <= ?'];
      const args: unknown[] = [q.floor.rep, q.floor.confirmed, q.floor.createdBefore];
      // Tags are stored space-separated and carry no spaces themselves: pad and match a whole word.
      if (q.tag) where.push("(' ' || c.tags || ' ') LIKE ? ESCAPE '\\'"), args.push(`% ${q.tag.replace(/[\\%_]/g, (m) => '\\' + m)} %`);
      const from = `FROM agent_cards c JOIN identities i ON i.id = c.id WHERE ${where.join(' AND ')}`;
      const total = (db.prepare(`SELECT count(*) AS n ${from}`).get(...args) as { n: number }).n;
      const rows = db.prepare(`SELECT c.* ${from} ORDER BY c.updated DESC, c.id ${LIMIT} OFFSET ?`).all(...args, q.limit, q.offset) as CardRow[];
      return { rows: rows.map(toCard), total };
    },
    async addInbound(r) {
      inIns.run(r.task, r.agent, r.sender, r.text, r.state, r.answer, r.created, r.updated, r.synced ? 1 : 0);
    },
    async inbound(task) {
      const r = inSel.get(task) as InRow | undefined;
      return r ? toIn(r) : null;
    },
    async appendInbound(task, text, now) {
      return inAppend.run(text, now, task).changes === 1;
    },
    async inbox(agent, q) {
      const where = ['agent = ?'];
      const args: unknown[] = [agent];
      if (q.open) where.push("state = 'open'");
      if (q.before !== undefined) where.push('created < ?'), args.push(q.before);
      const rows = db.prepare(`SELECT * FROM agent_inbound WHERE ${where.join(' AND ')} ORDER BY created DESC, task ${LIMIT}`).all(...args, q.limit) as InRow[];
      return rows.map(toIn);
    },
    async countOpen(agent) {
      return (inCount.get(agent) as { n: number }).n;
    },
    async settle(task, state, answer, now) {
      // An answer has to reach the sender's task: it stays unsynced until the A2A face confirms.
      return inSettle.run(state, answer, now, state === 'canceled' ? 1 : 0, task).changes === 1;
    },
    async markSynced(task) {
      inSynced.run(task);
    },
    async pending() {
      return (inPending.all() as InRow[]).map(toIn);
    },
  };
}
