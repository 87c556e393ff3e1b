// SQLite implementation of the task-board port: tasks, tags, FTS5 search; state changes and
// their credit movements commit together (ledgerWriter inside the same transaction), and so do the
// events a write emits (the outbox of events.ts; delivered after the commit).
import type { Statement } from 'better-sqlite3';
import type { Emit } from '../../core/platform/events/ports.js';
import type { Short, TxDraft } from '../../core/platform/ledger/ports.js';
import { TASK_STATES, type NewTask, type Task, type TaskFilter, type TaskPatch, type TaskRepo, type TaskState } from '../../core/tasks/ports.js';
import type { Db } from './db.js';
import { draftsOf, ftsQuery } from '../shared.js';
import type { SqliteEvents } from './events.js';
import { ledgerWriter, withFunds } from './ledger.js';

type Row = Omit<Task, 'tags'> & { tags: string };
const toTask = (r: Row): Task => ({ ...r, tags: r.tags ? r.tags.split(' ') : [] });

const COLS =
  't.n, t.id, t.title, t.body, t.tags, t.creator, t.space, t.state, t.claimant, t.claimed, t.result, t.note, t.hunter, t.bounty, t.credits, t.created, t.updated';

export function sqliteTasks(db: Db, events: SqliteEvents): TaskRepo {
  const w = ledgerWriter(db);
  const ins = db.prepare(
    `INSERT INTO tasks (id, title, body, tags, creator, space, state, bounty, credits, created, updated)
     VALUES (@id, @title, @body, @tags, @creator, @space, 'open', @bounty, @credits, @created, @created)`,
  );
  const insTag = db.prepare('INSERT OR IGNORE INTO task_tags (tag, task) VALUES (?, ?)');
  const insFts = db.prepare('INSERT INTO tasks_fts (rowid, title, body, tags) VALUES (?, ?, ?, ?)');
  const selId = db.prepare(`SELECT ${COLS} FROM tasks t WHERE t.id = ?`);
  const selN = db.prepare(`SELECT ${COLS} FROM tasks t WHERE t.n = ?`);
  const selBounty = db.prepare(`SELECT ${COLS} FROM tasks t WHERE t.bounty = ?`);
  const upd = db.prepare(
    `UPDATE tasks SET state = @state, claimant = @claimant, claimed = @claimed, result = @result, note = @note, hunter = @hunter, updated = @now
     WHERE id = @id AND state = @from AND (@anyClaimant = 1 OR claimant IS @fromClaimant)`,
  );
  const doneBy = db.prepare("SELECT count(*) AS n FROM tasks WHERE hunter = ? AND state = 'accepted'");
  const escrowedBy = db.prepare(
    "SELECT coalesce(sum(credits), 0) AS n FROM tasks WHERE creator = ? AND bounty IS NOT NULL AND state IN ('open', 'claimed', 'done')",
  );
  const countsAll = db.prepare('SELECT state, count(*) AS n FROM tasks GROUP BY state');
  const countsSpace = db.prepare('SELECT state, count(*) AS n FROM tasks WHERE space = ? GROUP BY state');

  const insertTx = withFunds(db, (t: NewTask, escrow: TxDraft | null, now: number, emit: Emit<Task> | undefined): Task | 'taken' => {
    let n: number;
    try {
      n = Number(ins.run({ ...t, tags: t.tags.join(' ') }).lastInsertRowid);
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return 'taken';
      throw err;
    }
    for (const tag of t.tags) insTag.run(tag, n);
    insFts.run(n, t.title, t.body, t.tags.join(' '));
    if (escrow) w.apply(escrow, now);
    const task = toTask(selN.get(n) as Row);
    events.append(draftsOf(emit, task));
    return task;
  });

  const transitionTx = withFunds(
    db,
    (
      id: string,
      from: { state: TaskState; claimant?: string | null },
      p: TaskPatch,
      tx: TxDraft | null,
      now: number,
      emit: Emit<Task> | undefined,
    ): Task | 'stale' => {
      const cur = selId.get(id) as Row | undefined;
      if (!cur) return 'stale';
      const next = {
        id,
        now,
        from: from.state,
        anyClaimant: from.claimant === undefined ? 1 : 0,
        fromClaimant: from.claimant ?? null,
        state: p.state,
        claimant: p.claimant !== undefined ? p.claimant : cur.claimant,
        claimed: p.claimed !== undefined ? p.claimed : cur.claimed,
        result: p.result !== undefined ? p.result : cur.result,
        note: p.note !== undefined ? p.note : cur.note,
        hunter: p.hunter !== undefined ? p.hunter : cur.hunter,
      };
      if (upd.run(next).changes !== 1) return 'stale';
      if (tx) w.apply(tx, now);
      const task = toTask(selId.get(id) as Row);
      events.append(draftsOf(emit, task));
      return task;
    },
  );

  // One prepared statement per filter shape.
  const listStmts = new Map<string, Statement>();
  const listStmt = (f: TaskFilter): Statement => {
    const key = ['state', 'tag', 'space', 'creator', 'claimant', 'q', 'before'].filter((k) => f[k as keyof TaskFilter] !== undefined).join(',');
    let s = listStmts.get(key);
    if (!s) {
      const where: string[] = [];
      if (f.state !== undefined) where.push('t.state = @state');
      if (f.tag !== undefined) where.push('t.n IN (SELECT task FROM task_tags WHERE tag = @tag)');
      if (f.space !== undefined) where.push('t.space = @space');
      if (f.creator !== undefined) where.push('t.creator = @creator');
      if (f.claimant !== undefined) where.push('(t.claimant = @claimant OR t.hunter = @claimant)');
      if (f.q !== undefined) where.push('t.n IN (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH @q)');
      if (f.before !== undefined) where.push('t.n < @before');
      s = db.prepare(`SELECT ${COLS} FROM tasks t ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY t.n DESC LIMIT CAST(@limit AS INTEGER)`);
      listStmts.set(key, s);
    }
    return s;
  };

  return {
    async insert(t, escrow, now, emit) {
      return events.after(() => insertTx(t, escrow, now, emit));
    },
    async byId(id) {
      const r = selId.get(id) as Row | undefined;
      return r ? toTask(r) : null;
    },
    async byBounty(b) {
      const r = selBounty.get(b) as Row | undefined;
      return r ? toTask(r) : null;
    },
    async transition(id, from, patch, tx, now, emit) {
      return events.after(() => transitionTx(id, from, patch, tx, now, emit));
    },
    async list(f, limit) {
      const params: Record<string, unknown> = { limit };
      for (const [k, v] of Object.entries(f)) if (v !== undefined) params[k] = v;
      if (f.q !== undefined) {
        const m = ftsQuery(f.q);
        if (!m) return [];
        params.q = m;
      }
      return (listStmt(f).all(params) as Row[]).map(toTask);
    },
    async doneBy(id) {
      return (doneBy.get(id) as { n: number }).n;
    },
    async escrowedBy(id) {
      return (escrowedBy.get(id) as { n: number }).n;
    },
    async counts(space) {
      const rows = (space === undefined ? countsAll.all() : countsSpace.all(space)) as { state: TaskState; n: number }[];
      const out = Object.fromEntries(TASK_STATES.map((s) => [s, 0])) as Record<TaskState, number>;
      for (const r of rows) out[r.state] = r.n;
      return out;
    },
  };
}
