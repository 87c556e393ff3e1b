// A2A tasks and push configs, hosted agent cards and inbound tasks on PostgreSQL (ports:
// src/core/a2a/ports.ts, src/core/agents/ports.ts; migrations 004 and 008). Push configs are
// sealed at rest exactly as in the SQLite adapter (src/store/shared.ts). An inbound task settles
// with one conditional UPDATE (state = 'open'), so of concurrent answers on any replica one wins;
// the retention sweep deletes rows it has locked (SKIP LOCKED), so two replicas sweeping at once
// never both report the same task.
import { randomBytes } from 'node:crypto';
import type { A2aPushRecord, A2aStore, A2aTaskKey, A2aTaskRecord } from '../../core/a2a/ports.js';
import type { AgentCardRec, AgentRepo, InboundRec } from '../../core/agents/ports.js';
import { pushSealer } from '../shared.js';
import type { Q, Sql } from './sql.js';

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
const TASK = 'id, owner, agent, context_id, state, state_at, body, created, updated';

interface PushRow {
  task: string;
  id: string;
  owner: string;
  agent: string;
  wire: string;
  created: number;
  sealed: Buffer | null;
}

/**
 * `master` is the workspace key (config.workspaceKey, the same file every replica reads); without
 * it push configs can be neither saved nor read (they throw), the tasks work.
 */
export function pgA2a(sql: Sql, master: Buffer | null, random: (n: number) => Buffer = randomBytes): A2aStore {
  const sealer = master ? pushSealer(master, random) : null;
  const needKey = () => {
    if (!sealer) throw new Error('postgres adapter: A2A push configs need the workspace key (opts.workspaceKey)');
    return sealer;
  };
  const put = (q: Q, t: A2aTaskRecord) =>
    // A task of another (owner, agent) scope under the same id is left alone: no row changes.
    q.query(
      `INSERT INTO a2a_tasks AS t (id, owner, agent, context_id, state, state_at, body, created, updated) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state, state_at = excluded.state_at, body = excluded.body, updated = excluded.updated
       WHERE t.owner = excluded.owner AND t.agent = excluded.agent`,
      [t.id, t.owner, t.agent, t.contextId, t.state, t.stateAt, t.body, t.created, t.updated],
    );
  // Oldest first within a state list; rows another sweep holds are skipped, not waited for.
  const take = async (q: Q, states: readonly string[], before: number, n: number): Promise<A2aTaskKey[]> => {
    if (n <= 0 || !states.length) return [];
    return (
      await q.query<A2aTaskKey>(
        `DELETE FROM a2a_tasks WHERE id IN (
           SELECT id FROM a2a_tasks WHERE state = ANY($1::text[]) AND updated < $2 ORDER BY updated, id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING id, owner, agent`,
        [states, before, n],
      )
    ).rows;
  };
  return {
    tasks: {
      async save(t) {
        await put(sql, t);
      },
      async saveMany(recs) {
        await sql.tx(async (q) => {
          for (const t of recs) await put(q, t);
        });
      },
      async load(id, owner, agent) {
        const r = (await sql.query<TaskRow>(`SELECT ${TASK} FROM a2a_tasks WHERE id = $1 AND owner = $2 AND agent = $3`, [id, owner, agent])).rows[0];
        return r ? toTask(r) : null;
      },
      async list(q) {
        const where = ['owner = $1', 'agent = $2'];
        const args: unknown[] = [q.owner, q.agent];
        const add = (cond: string, v: unknown) => (args.push(v), where.push(cond.replace('?', `$${args.length}`)));
        if (q.contextId) add('context_id = ?', q.contextId);
        if (q.state) add('state = ?', q.state);
        if (q.after !== undefined) add('state_at > ?', q.after);
        const w = where.join(' AND ');
        const total = (await sql.query<{ n: number }>(`SELECT count(*) AS n FROM a2a_tasks WHERE ${w}`, args)).rows[0]!.n;
        const n = args.length;
        const rows = (
          await sql.query<TaskRow>(`SELECT ${TASK} FROM a2a_tasks WHERE ${w} ORDER BY updated DESC, id LIMIT $${n + 1} OFFSET $${n + 2}`, [
            ...args,
            q.limit,
            q.offset,
          ])
        ).rows;
        return { rows: rows.map(toTask), total };
      },
      async sweep(rule, max) {
        return sql.tx(async (q) => {
          const gone = await take(q, rule.final, rule.finalBefore, max);
          gone.push(...(await take(q, rule.open, rule.openBefore, max - gone.length)));
          if (gone.length) {
            const ids = gone.map((k) => k.id);
            await q.query('DELETE FROM a2a_push WHERE task = ANY($1::text[])', [ids]);
            // A hosted agent's inbox item is the same task seen from the owner's side: it goes with it,
            // or an abandoned open item would count against the agent's open-inbox limit for ever.
            await q.query('DELETE FROM agent_inbound WHERE task = ANY($1::text[])', [ids]);
          }
          return gone;
        });
      },
    },
    push: {
      async save(p) {
        const sealed = needKey().seal(p, p.body);
        await sql.query(
          `INSERT INTO a2a_push (task, id, owner, agent, body, wire, created, sealed) VALUES ($1, $2, $3, $4, '', $5, $6, $7)
           ON CONFLICT (task, id) DO UPDATE SET owner = excluded.owner, agent = excluded.agent, body = '', wire = excluded.wire, created = excluded.created, sealed = excluded.sealed`,
          [p.task, p.id, p.owner, p.agent, p.wire, p.created, sealed],
        );
      },
      async list(task, owner, agent) {
        const s = needKey();
        const rows = (
          await sql.query<PushRow>(
            'SELECT task, id, owner, agent, wire, created, sealed FROM a2a_push WHERE task = $1 AND owner = $2 AND agent = $3 ORDER BY created, id',
            [task, owner, agent],
          )
        ).rows;
        const out: A2aPushRecord[] = [];
        for (const r of rows) {
          const body = s.open(r, r.sealed);
          // A row that does not authenticate (moved, tampered, other key) is left out, never guessed at.
          if (body !== null) out.push({ task: r.task, id: r.id, owner: r.owner, agent: r.agent, body, wire: r.wire, created: r.created });
        }
        return out;
      },
      async delete(task, owner, agent, id) {
        if (id === undefined) await sql.query('DELETE FROM a2a_push WHERE task = $1 AND owner = $2 AND agent = $3', [task, owner, agent]);
        else await sql.query('DELETE FROM a2a_push WHERE task = $1 AND owner = $2 AND agent = $3 AND id = $4', [task, owner, agent, id]);
      },
      async count(task, owner, agent) {
        return (await sql.query<{ n: number }>('SELECT count(*) AS n FROM a2a_push WHERE task = $1 AND owner = $2 AND agent = $3', [task, owner, agent]))
          .rows[0]!.n;
      },
    },
  };
}

const CARD = 'c.id, c.name, c.description, c.tags, c.inbound, c.created, c.updated';
const IN = 'task, agent, sender, text, state, answer, created, updated, synced';

export function pgAgents(sql: Sql): AgentRepo {
  return {
    async upsertCard(c) {
      await sql.query(
        `INSERT INTO agent_cards (id, name, description, tags, inbound, created, updated) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description, tags = excluded.tags, inbound = excluded.inbound, updated = excluded.updated`,
        [c.id, c.name, c.description, c.tags, c.inbound, c.created, c.updated],
      );
    },
    async card(id) {
      return (await sql.query<AgentCardRec>(`SELECT ${CARD} FROM agent_cards c WHERE c.id = $1`, [id])).rows[0] ?? null;
    },
    async directory(q) {
      const args: unknown[] = [q.floor.rep, q.floor.confirmed, q.floor.createdBefore];
      // A whole tag (an array element), never a pattern.
      if (q.tag) args.push(q.tag);
      const from = `FROM agent_cards c JOIN identities i ON i.id = c.id
        WHERE c.inbound AND NOT i.frozen AND i.rep >= $1 AND i.confirmed >= $2 AND i.created <= $3${q.tag ? ' AND $4 = ANY(c.tags)' : ''}`;
      const total = (await sql.query<{ n: number }>(`SELECT count(*) AS n ${from}`, args)).rows[0]!.n;
      const n = args.length;
      const rows = (
        await sql.query<AgentCardRec>(`SELECT ${CARD} ${from} ORDER BY c.updated DESC, c.id LIMIT $${n + 1} OFFSET $${n + 2}`, [...args, q.limit, q.offset])
      ).rows;
      return { rows, total };
    },
    async addInbound(r) {
      await sql.query(`INSERT INTO agent_inbound (${IN}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [
        r.task,
        r.agent,
        r.sender,
        r.text,
        r.state,
        r.answer,
        r.created,
        r.updated,
        r.synced,
      ]);
    },
    async inbound(task) {
      return (await sql.query<InboundRec>(`SELECT ${IN} FROM agent_inbound WHERE task = $1`, [task])).rows[0] ?? null;
    },
    async appendInbound(task, text, now) {
      return (await sql.query("UPDATE agent_inbound SET text = text || $1, updated = $2 WHERE task = $3 AND state = 'open'", [text, now, task])).count === 1;
    },
    async inbox(agent, q) {
      const args: unknown[] = [agent, q.limit];
      const where = ['agent = $1'];
      if (q.open) where.push("state = 'open'");
      if (q.before !== undefined) args.push(q.before), where.push('created < $3');
      return (await sql.query<InboundRec>(`SELECT ${IN} FROM agent_inbound WHERE ${where.join(' AND ')} ORDER BY created DESC, task LIMIT $2`, args)).rows;
    },
    async countOpen(agent) {
      return (await sql.query<{ n: number }>("SELECT count(*) AS n FROM agent_inbound WHERE agent = $1 AND state = 'open'", [agent])).rows[0]!.n;
    },
    async settle(task, state, answer, now) {
      // An answer has to reach the sender's task: it stays unsynced until the A2A face confirms.
      return (
        (
          await sql.query("UPDATE agent_inbound SET state = $1, answer = $2, updated = $3, synced = $4 WHERE task = $5 AND state = 'open'", [
            state,
            answer,
            now,
            state === 'canceled',
            task,
          ])
        ).count === 1
      );
    },
    async markSynced(task) {
      await sql.query('UPDATE agent_inbound SET synced = TRUE WHERE task = $1', [task]);
    },
    async pending() {
      return (await sql.query<InboundRec>(`SELECT ${IN} FROM agent_inbound WHERE state = 'open' OR NOT synced ORDER BY created, task`)).rows;
    },
  };
}
