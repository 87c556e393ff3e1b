// The task board on PostgreSQL (port: src/core/tasks/ports.ts): tasks with TEXT[] tags and a
// stored tsvector for free text (GIN indexes, migration 005). A state change, its credit movement
// (applyTx) and the events it emits (the outbox, events.ts) commit in one transaction; a
// transition is one conditional UPDATE, so of concurrent claimers exactly one matches the row.
import type { Emit } from '../../core/platform/events/ports.js';
import type { TxDraft } from '../../core/platform/ledger/ports.js';
import { TASK_STATES, type NewTask, type Task, type TaskFilter, type TaskState, type TaskRepo } from '../../core/tasks/ports.js';
import { draftsOf } from '../shared.js';
import type { PgEvents } from './events.js';
import { ftsWords, tsQuery } from './fts.js';
import { applyTx, withFunds } from './ledger.js';
import type { Sql } from './sql.js';

const COLS = 'n, id, title, body, tags, creator, space, state, claimant, claimed, result, note, hunter, bounty, credits, created, updated';

export function pgTasks(sql: Sql, events: PgEvents): TaskRepo {
  const one = async (where: string, v: unknown): Promise<Task | null> =>
    (await sql.query<Task>(`SELECT ${COLS} FROM tasks WHERE ${where}`, [v])).rows[0] ?? null;
  return {
    async insert(t: NewTask, escrow: TxDraft | null, now: number, emit?: Emit<Task>) {
      return events.after((mark) =>
        withFunds(sql, async (q): Promise<Task | 'taken'> => {
          // A taken id or bounty id inserts nothing (ON CONFLICT on either unique key).
          const task = (
            await q.query<Task>(
              `INSERT INTO tasks (id, title, body, tags, creator, space, state, bounty, credits, created, updated, fts)
               VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8, $9, $9, array_to_tsvector($10::text[])) ON CONFLICT DO NOTHING RETURNING ${COLS}`,
              [t.id, t.title, t.body, t.tags, t.creator, t.space, t.bounty, t.credits, t.created, ftsWords(t.title, t.body, ...t.tags)],
            )
          ).rows[0];
          if (!task) return 'taken';
          if (escrow) await applyTx(q, escrow, now);
          await events.append(q, draftsOf(emit, task), mark);
          return task;
        }),
      );
    },
    byId: (id) => one('id = $1', id),
    byBounty: (b) => one('bounty = $1', b),
    async transition(id, from, p, tx, now, emit) {
      return events.after((mark) =>
        withFunds(sql, async (q): Promise<Task | 'stale'> => {
          // A field the patch leaves out keeps its value ($n::bool says whether it is set).
          const set = (k: keyof typeof p) => p[k] !== undefined;
          const task = (
            await q.query<Task>(
              `UPDATE tasks SET state = $2,
                 claimant = CASE WHEN $5 THEN $6 ELSE claimant END,
                 claimed = CASE WHEN $7 THEN $8::int8 ELSE claimed END,
                 result = CASE WHEN $9 THEN $10 ELSE result END,
                 note = CASE WHEN $11 THEN $12 ELSE note END,
                 hunter = CASE WHEN $13 THEN $14 ELSE hunter END,
                 updated = $15
               WHERE id = $1 AND state = $3 AND ($4::text = '*' OR claimant IS NOT DISTINCT FROM $16::text)
               RETURNING ${COLS}`,
              [
                id,
                p.state,
                from.state,
                from.claimant === undefined ? '*' : '',
                set('claimant'),
                p.claimant ?? null,
                set('claimed'),
                p.claimed ?? null,
                set('result'),
                p.result ?? null,
                set('note'),
                p.note ?? null,
                set('hunter'),
                p.hunter ?? null,
                now,
                from.claimant ?? null,
              ],
            )
          ).rows[0];
          if (!task) return 'stale';
          if (tx) await applyTx(q, tx, now);
          await events.append(q, draftsOf(emit, task), mark);
          return task;
        }),
      );
    },
    async list(f: TaskFilter, limit: number) {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (cond: (i: string) => string, v: unknown) => {
        params.push(v);
        where.push(cond(`$${params.length}`));
      };
      if (f.state !== undefined) add((i) => `state = ${i}`, f.state);
      if (f.tag !== undefined) add((i) => `tags @> ARRAY[${i}::text]`, f.tag);
      if (f.space !== undefined) add((i) => `space = ${i}`, f.space);
      if (f.creator !== undefined) add((i) => `creator = ${i}`, f.creator);
      if (f.claimant !== undefined) add((i) => `(claimant = ${i} OR hunter = ${i})`, f.claimant);
      if (f.q !== undefined) {
        const m = tsQuery(f.q);
        if (!m) return [];
        add((i) => `fts @@ ${i}::tsquery`, m);
      }
      if (f.before !== undefined) add((i) => `n < ${i}`, f.before);
      params.push(limit);
      return (
        await sql.query<Task>(`SELECT ${COLS} FROM tasks ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY n DESC LIMIT $${params.length}`, params)
      ).rows;
    },
    async doneBy(id) {
      return (await sql.query<{ n: number }>("SELECT count(*) AS n FROM tasks WHERE hunter = $1 AND state = 'accepted'", [id])).rows[0]!.n;
    },
    async escrowedBy(id) {
      return (
        await sql.query<{ n: number }>(
          "SELECT coalesce(sum(credits), 0)::int8 AS n FROM tasks WHERE creator = $1 AND bounty IS NOT NULL AND state IN ('open', 'claimed', 'done')",
          [id],
        )
      ).rows[0]!.n;
    },
    async counts(space) {
      const rows = (
        space === undefined
          ? await sql.query<{ state: TaskState; n: number }>('SELECT state, count(*) AS n FROM tasks GROUP BY state')
          : await sql.query<{ state: TaskState; n: number }>('SELECT state, count(*) AS n FROM tasks WHERE space = $1 GROUP BY state', [space])
      ).rows;
      const out = Object.fromEntries(TASK_STATES.map((s) => [s, 0])) as Record<TaskState, number>;
      for (const r of rows) out[r.state] = r.n;
      return out;
    },
  };
}
