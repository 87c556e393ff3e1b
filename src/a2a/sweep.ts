// Retention of stored A2A tasks: final tasks go a2a.retention days after their last update, open
// ones a2a.retention_open days after it (an abandoned input-required task still ends), push
// configs with them. Deletes run in bounded batches with a turn of the event loop between them,
// so a large backlog never holds the write lock for long.
import { TaskState, taskStateToJSON } from '@a2a-js/sdk';
import type { A2aStore, A2aSweepRule } from '../core/a2a/ports.js';
import { limit } from '../core/kernel/limits.js';
import type { Core } from '../core/kernel/types.js';
import { startSweep } from '../core/platform/sweep.js';
import type { SqliteTaskStore } from './stores.js';

const DAY = 86_400_000;
/** The states a task ends in. */
export const FINAL: readonly TaskState[] = [
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
];
// Every state name the store can hold (SqliteTaskStore writes taskStateToJSON of the enum), so
// the store seeks each one by index instead of scanning for "not final".
const OPEN = Object.values(TaskState).filter((v): v is TaskState => typeof v === 'number' && !FINAL.includes(v));

export function sweepRule(now: number): A2aSweepRule {
  return {
    final: FINAL.map(taskStateToJSON),
    finalBefore: now - limit('a2a.retention') * DAY,
    open: OPEN.map(taskStateToJSON),
    openBefore: now - limit('a2a.retention_open') * DAY,
  };
}

/** One full sweep; returns how many tasks were deleted. Stops early once `stopped()` says so. */
export async function sweepTasks(
  store: A2aStore,
  tasks: SqliteTaskStore,
  now: number,
  batch = limit('a2a.sweep_batch'),
  stopped = () => false,
): Promise<number> {
  const rule = sweepRule(now);
  let n = 0;
  while (!stopped()) {
    const gone = await store.tasks.sweep(rule, batch);
    // A deleted task must not be served from the in-memory copies either.
    tasks.forget(gone);
    n += gone.length;
    if (gone.length < batch) break;
    await new Promise((r) => setImmediate(r));
  }
  return n;
}

/** Sweeps once now, then every a2a.sweep seconds; returns the function that stops it. */
export function startTaskSweep(core: Core, tasks: SqliteTaskStore, everyMs = limit('a2a.sweep') * 1000): () => void {
  // On every process: it also drops the deleted tasks from this process's task cache.
  return startSweep(core, {
    what: 'expired a2a tasks deleted',
    everyMs,
    everyProcess: true,
    run: (stopped) => sweepTasks(core.store.a2a, tasks, core.now(), undefined, stopped),
  });
}
