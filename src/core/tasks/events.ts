// What the task board publishes on the event bus.
import type { EventDraft } from '../platform/events/ports.js';
import type { Task, TaskState } from './ports.js';

/**
 * Topic `tasks`: one event per state change of a task, in commit order, written in the same
 * transaction as the change: posted (open), claimed, released (open again), submitted (done),
 * rejected (claimed again), accepted (also the operator's bounty accept), cancelled.
 * Payload, kept stable (streams such as `tasks.watch`, sinks and feeds depend on it), a `TaskEvent`:
 *   { n, id, state, title, tags, claimant, updated }
 * n: the task's board number (list cursor); claimant: the identity holding or last holding the
 * claim (null when open or cancelled); updated: epoch ms of the change. No body, result or note:
 * readers fetch the task (GET /v1/tasks/{id}) for those.
 */
export const TASKS_TOPIC = 'tasks';

export interface TaskEvent {
  n: number;
  id: string;
  state: TaskState;
  title: string;
  tags: string[];
  claimant: string | null;
  updated: number;
}

export const taskEvent = (t: Task): TaskEvent => ({ n: t.n, id: t.id, state: t.state, title: t.title, tags: t.tags, claimant: t.claimant, updated: t.updated });

/** The `emit` of a task write: its event, from the task as stored. */
export const taskEmit = (t: Task): EventDraft[] => [{ topic: TASKS_TOPIC, payload: taskEvent(t) }];
