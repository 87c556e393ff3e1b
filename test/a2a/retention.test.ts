// Stored A2A tasks age out (final ones after a2a.retention days, open ones after
// a2a.retention_open), push configs with them; push configs are sealed at rest.
import { Task, TaskState } from '@a2a-js/sdk';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownerContext } from '../../src/a2a/context.js';
import { SqliteTaskStore } from '../../src/a2a/stores.js';
import { sweepTasks } from '../../src/a2a/sweep.js';
import { loadConfig } from '../../src/config.js';
import { limit } from '../../src/core/kernel/limits.js';
import { startServer, type Running } from '../../src/server.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { client03, data03, msg03, receiver, rpc, serveBase, text03, type Json } from './helpers.js';

const DAY = 86_400_000;
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'cx-a2a-retention-'));
  dirs.push(d);
  return d;
};
let running: Running | null = null;
afterAll(async () => {
  await running?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ok = <T>(r: any): T => {
  if ('error' in r) throw new Error(`JSON-RPC error ${JSON.stringify(r.error)}`);
  return r.result as T;
};

describe('retention sweep (store and task store, fake clock)', () => {
  const task = (id: string, state: TaskState, at: number) =>
    Task.fromJSON({ id, contextId: `c-${id}`, kind: 'task', status: { state, timestamp: new Date(at).toISOString() }, history: [], artifacts: [] });

  it('deletes old final and very old open tasks with their push configs; keeps the rest; forgets copies in memory', async () => {
    const dir = tempDir();
    const store = openSqliteStore(dir);
    try {
      let clock = Date.UTC(2030, 0, 1);
      const tasks = new SqliteTaskStore(store.a2a, () => clock);
      const ctx = ownerContext('i1', '');
      const at = (days: number) => Date.UTC(2030, 0, 1) + days * DAY;
      // Saved at the instants below (the store's `updated` is the clock at commit).
      const plan: Array<[string, TaskState, number]> = [
        ['old-done', TaskState.TASK_STATE_COMPLETED, 0],
        ['old-failed', TaskState.TASK_STATE_FAILED, 0],
        ['old-waiting', TaskState.TASK_STATE_INPUT_REQUIRED, 0],
        ['ancient-working', TaskState.TASK_STATE_WORKING, -60],
        ['new-done', TaskState.TASK_STATE_COMPLETED, 30],
      ];
      for (const [id, state, d] of plan) {
        clock = at(d);
        await tasks.save(task(id, state, clock), ctx);
        await tasks.flushed();
      }
      const push = (t: string) =>
        store.a2a.push.save({
          task: t,
          id: 'p1',
          owner: 'i1',
          agent: '',
          body: JSON.stringify({ url: 'https://example.com/h', token: `tok-${t}` }),
          wire: '0.3',
          created: clock,
        });
      await push('old-done');
      await push('old-waiting');
      // old-waiting and new-done stand for hosted-agent tasks: their inbox items live beside them.
      await store.identities.create({ id: 'agent1', name: null, created: clock, rep: 0, confirmed: 0, frozen: false }, 'h-agent1');
      const inbox = (t: string) =>
        store.agents.addInbound({
          task: t,
          agent: 'agent1',
          sender: 'i1',
          text: `hello ${t}`,
          state: 'open',
          answer: null,
          created: clock,
          updated: clock,
          synced: true,
        });
      await inbox('old-waiting');
      await inbox('new-done');
      // Everything is now in the in-memory copies.
      for (const [id] of plan) expect(await tasks.load(id, ctx)).toBeTruthy();

      // Day 31: 31 days past the first three, 91 past the ancient one, 1 past the new one.
      clock = at(31);
      expect(limit('a2a.retention')).toBe(30);
      expect(limit('a2a.retention_open')).toBe(90);
      // Batches of 1: the loop goes on until a short batch.
      expect(await sweepTasks(store.a2a, tasks, clock, 1)).toBe(3);
      for (const id of ['old-done', 'old-failed', 'ancient-working']) {
        expect(await tasks.load(id, ctx), id).toBeUndefined();
        expect(await store.a2a.tasks.load(id, 'i1', ''), id).toBeNull();
      }
      expect((await tasks.load('old-waiting', ctx))?.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect((await tasks.load('new-done', ctx))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(await store.a2a.push.count('old-done', 'i1', '')).toBe(0);
      expect(await store.a2a.push.list('old-waiting', 'i1', '')).toHaveLength(1);
      expect(await store.agents.countOpen('agent1')).toBe(2);

      // Open tasks end too, 90 days after their last update (and the new one is 61 days old by then).
      clock = at(91);
      expect(await sweepTasks(store.a2a, tasks, clock)).toBe(2);
      expect(await tasks.load('old-waiting', ctx)).toBeUndefined();
      expect(await tasks.load('new-done', ctx)).toBeUndefined();
      expect(await store.a2a.push.count('old-waiting', 'i1', '')).toBe(0);
      // The abandoned inbox items went with their tasks: they no longer hold the agent's open-inbox slots.
      expect(await store.agents.inbound('old-waiting')).toBeNull();
      expect(await store.agents.inbound('new-done')).toBeNull();
      expect(await store.agents.countOpen('agent1')).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('through /a2a', () => {
  const dir = tempDir();
  async function boot(): Promise<Running> {
    await running?.close();
    running = await startServer(
      loadConfig({
        CX_DATA: dir,
        PORT: '0',
        CATALOG_PORT: '0',
        HOST: '127.0.0.1',
        CX_POW_BITS: '8',
        CX_BASE_URL: 'http://commons.test',
        CX_A2A_PUSH_ALLOW_LOOPBACK: '1',
      }),
      { logger: false },
    );
    serveBase(running.url);
    return running;
  }
  const withDb = <T>(fn: (db: Database.Database) => T): T => {
    const db = new Database(join(dir, 'commons.db'));
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };

  it('seals push configs at rest: no token or credentials in the database, the owner still reads them, a moved ciphertext does not open', async () => {
    const hook = await receiver();
    try {
      const s = await boot();
      const c = await client03(`${s.url}/.well-known/agent.json`);
      const a = ok<Json>(await c.sendMessage({ message: msg03([text03('register')]) as never }));
      const b = ok<Json>(await c.sendMessage({ message: msg03([text03('register')]) as never }));
      const cfg = (token: string, cred: string) => ({ url: hook.url, token, authentication: { schemes: ['Bearer'], credentials: cred } });
      ok(await c.setTaskPushNotificationConfig({ taskId: a.id, pushNotificationConfig: { id: 'pa', ...cfg('tok-SECRET-a1b2c3', 'cred-SECRET-d4e5f6') } }));
      ok(await c.setTaskPushNotificationConfig({ taskId: b.id, pushNotificationConfig: { id: 'pb', ...cfg('tok-OTHER-778899', 'cred-OTHER-aabbcc') } }));

      const got = ok<Json>(await c.getTaskPushNotificationConfig({ id: a.id, pushNotificationConfigId: 'pa' } as never));
      expect(got).toMatchObject({
        taskId: a.id,
        pushNotificationConfig: { id: 'pa', url: hook.url, token: 'tok-SECRET-a1b2c3', authentication: { credentials: 'cred-SECRET-d4e5f6' } },
      });

      // The rows, and the database files byte for byte (WAL included), hold neither secret.
      const rows = withDb((db) => db.prepare('SELECT * FROM a2a_push ORDER BY task').all() as Json[]);
      expect(rows).toHaveLength(2);
      for (const r of rows) {
        expect(r.body).toBe('');
        expect(Buffer.isBuffer(r.sealed) && r.sealed.length > 12 + 16).toBe(true);
      }
      const raw = Buffer.concat(['commons.db', 'commons.db-wal'].filter((f) => existsSync(join(dir, f))).map((f) => readFileSync(join(dir, f))));
      for (const secret of ['tok-SECRET-a1b2c3', 'cred-SECRET-d4e5f6', 'tok-OTHER', 'cred-OTHER']) expect(raw.includes(secret), secret).toBe(false);

      // b's row gets a's ciphertext (same scope, same config id, so only the task differs in the AAD).
      withDb((db) => {
        db.prepare("UPDATE a2a_push SET id = 'pa' WHERE task = ?").run(b.id);
        db.prepare('UPDATE a2a_push SET sealed = (SELECT sealed FROM a2a_push WHERE task = ?) WHERE task = ?').run(a.id, b.id);
      });
      const moved = (await c.getTaskPushNotificationConfig({ id: b.id, pushNotificationConfigId: 'pa' } as never)) as Json;
      expect(moved.error).toMatchObject({ code: expect.any(Number) });
      expect(JSON.stringify(moved)).not.toContain('SECRET');
      const listed = (await c.listTaskPushNotificationConfig({ id: b.id })) as Json;
      expect(JSON.stringify(listed)).not.toContain('SECRET');
      expect(listed.result ?? []).toEqual([]);
      // a's own row still opens.
      expect(ok<Json>(await c.getTaskPushNotificationConfig({ id: a.id, pushNotificationConfigId: 'pa' } as never)).pushNotificationConfig.token).toBe(
        'tok-SECRET-a1b2c3',
      );
    } finally {
      await hook.close();
    }
  });

  it('a restart sweeps tasks past retention (task not found, push configs gone), keeps recent and open ones, seals plain-text push rows', async () => {
    const hook = await receiver();
    let s = await boot();
    const c = await client03(`${s.url}/.well-known/agent.json`);
    const oldDone = ok<Json>(await c.sendMessage({ message: msg03([data03({ skill: 'sys.limits' })]) as never, configuration: { blocking: true } }));
    const newDone = ok<Json>(await c.sendMessage({ message: msg03([data03({ skill: 'sys.limits' })]) as never, configuration: { blocking: true } }));
    const oldOpen = ok<Json>(await c.sendMessage({ message: msg03([text03('register')]) as never }));
    expect(oldOpen.status.state).toBe('input-required');
    ok(await c.setTaskPushNotificationConfig({ taskId: oldDone.id, pushNotificationConfig: { id: 'p-done', url: hook.url, token: 'swept-token' } }));
    ok(await c.setTaskPushNotificationConfig({ taskId: oldOpen.id, pushNotificationConfig: { id: 'p-open', url: hook.url, token: 'kept-token' } }));
    await s.close();
    running = null;

    // Aged in the database: the completed task 31 days, the open one 60 days (within its 90).
    // A push row as written before migration 008 (plain text, no seal) is added to the open task.
    withDb((db) => {
      const age = db.prepare('UPDATE a2a_tasks SET updated = updated - ?, state_at = state_at - ? WHERE id = ?');
      age.run(31 * DAY, 31 * DAY, oldDone.id);
      age.run(60 * DAY, 60 * DAY, oldOpen.id);
      const t = db.prepare('SELECT owner, agent FROM a2a_tasks WHERE id = ?').get(oldOpen.id) as { owner: string; agent: string };
      const body = JSON.stringify({ id: 'p-legacy', taskId: oldOpen.id, url: `${hook.url}/legacy`, token: 'legacy-token' });
      db.prepare("INSERT INTO a2a_push (task, id, owner, agent, body, wire, created) VALUES (?, 'p-legacy', ?, ?, ?, '0.3', ?)").run(
        oldOpen.id,
        t.owner,
        t.agent,
        body,
        Date.now(),
      );
    });

    s = await boot();
    const gone = await rpc(`${s.url}/a2a`, { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: oldDone.id } });
    expect(gone.body.error.code).toBe(-32001);
    expect(ok<Json>(await c.getTask({ id: newDone.id })).status.state).toBe('completed');
    expect(ok<Json>(await c.getTask({ id: oldOpen.id })).status.state).toBe('input-required');

    const rows = withDb((db) => db.prepare('SELECT task, id, body, sealed FROM a2a_push ORDER BY id').all() as Json[]);
    expect(rows.some((r) => r.task === oldDone.id)).toBe(false);
    expect(rows.filter((r) => r.task === oldOpen.id).map((r) => r.id)).toEqual(['p-legacy', 'p-open']);
    // The plain-text row was sealed at start and still reads back.
    for (const r of rows) expect(r.body === '' && Buffer.isBuffer(r.sealed)).toBe(true);
    const legacy = ok<Json>(await c.getTaskPushNotificationConfig({ id: oldOpen.id, pushNotificationConfigId: 'p-legacy' } as never));
    expect(legacy.pushNotificationConfig).toMatchObject({ url: `${hook.url}/legacy`, token: 'legacy-token' });
    // Once checkpointed (close does), the old plain text is not left behind in the file either.
    await s.close();
    running = null;
    expect(readFileSync(join(dir, 'commons.db')).includes('legacy-token')).toBe(false);
    await hook.close();
  });
});
