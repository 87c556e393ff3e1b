// The A2A task store over an asynchronous A2aStore (PostgreSQL): a save is written by a group commit
// that awaits the store; a load while that write is in flight must see the task (it is neither
// dirty any more nor cached yet), and commits run one after another, so an older version of a task
// never lands after a newer one. (On PostgreSQL, blocking message/send answered `Agent execution
// finished without a result` for about half the calls before this.)
import type { Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { expect, it } from 'vitest';
import { ownerContext } from '../../src/a2a/context.js';
import { SqliteTaskStore } from '../../src/a2a/stores.js';
import type { A2aStore, A2aTaskRecord } from '../../src/core/a2a/ports.js';

/** An A2aStore whose writes take a while and may finish out of order (as on a connection pool). */
function slowStore() {
  const rows = new Map<string, A2aTaskRecord>();
  const writes: string[] = [];
  let n = 0;
  const store = {
    tasks: {
      async saveMany(recs: A2aTaskRecord[]) {
        // Later writes are faster: without ordering, an older write would land last.
        const delay = Math.max(1, 40 - 15 * n++);
        await new Promise((r) => setTimeout(r, delay));
        for (const r of recs) {
          rows.set(r.id, r);
          writes.push(JSON.parse(r.body).status.state as string);
        }
      },
      async load(id: string) {
        return rows.get(id) ?? null;
      },
    },
  } as unknown as A2aStore;
  return { store, rows, writes };
}

const task = (state: TaskState): Task =>
  ({
    id: 't1',
    contextId: 'c1',
    status: { state, message: undefined, timestamp: new Date().toISOString() },
    artifacts: [],
    history: [],
    metadata: {},
  }) as unknown as Task;

it('a task being written is loaded from memory; versions land in the order they were saved', async () => {
  const { store, rows, writes } = slowStore();
  const ts = new SqliteTaskStore(store, Date.now, 0); // no cache: only the in-flight copy can answer
  const ctx = ownerContext('a_owner', '');
  ts.expectNew('t1', ctx);
  await ts.save(task(TaskState.TASK_STATE_WORKING), ctx);
  await new Promise((r) => setImmediate(r)); // the commit has started and awaits the store
  expect(rows.size).toBe(0);
  expect((await ts.load('t1', ctx))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
  await ts.save(task(TaskState.TASK_STATE_COMPLETED), ctx);
  await ts.flushed();
  expect(writes.map((w) => w.replace('TASK_STATE_', ''))).toEqual(['WORKING', 'COMPLETED']);
  expect((await ts.load('t1', ctx))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
});
