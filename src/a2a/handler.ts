// The SDK's request handler with what it lacks here: push config `get` with only the task id
// (A2A 0.3 clients ask that way), a webhook notice for a cancel stored without a live bus (after a
// restart), a hook after a cancel (to close the hosted inbox item and the buses), cancel answered
// per wire (1.0 idempotent, 0.3 table), and subscribe streams that carry one Task only.
import {
  TaskState,
  type AgentCard,
  type CancelTaskRequest,
  type GetTaskPushNotificationConfigRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import { PushNotificationNotSupportedError, TaskNotCancelableError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, type AgentExecutor, type PushNotificationSender, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import type { BusManager } from './buses.js';
import type { SqlitePushStore } from './stores.js';

export interface HandlerParts {
  card: AgentCard;
  tasks: TaskStore;
  executor: AgentExecutor;
  buses: BusManager;
  push?: { store: SqlitePushStore; sender: PushNotificationSender };
  afterCancel?: (task: Task, ctx: ServerCallContext) => Promise<void>;
}

export class CxRequestHandler extends DefaultRequestHandler {
  constructor(private parts: HandlerParts) {
    super(parts.card, parts.tasks, parts.executor, parts.buses, parts.push?.store, parts.push?.sender);
  }

  override async getTaskPushNotificationConfig(params: GetTaskPushNotificationConfigRequest, ctx: ServerCallContext): Promise<TaskPushNotificationConfig> {
    if (params.id) return super.getTaskPushNotificationConfig(params, ctx);
    if (!this.parts.push) throw new PushNotificationNotSupportedError();
    if (!params.taskId?.trim() || !(await this.parts.tasks.load(params.taskId, ctx))) throw new TaskNotFoundError(`Task not found: ${params.taskId}`);
    const configs = await this.parts.push.store.load(params.taskId, ctx);
    // Only the task id: the config set last (0.3 clients ask this way after tasks/pushNotificationConfig/set).
    const last = configs.at(-1);
    if (!last) throw new TaskNotFoundError(`No push notification config for task ${params.taskId}`);
    return last;
  }

  override async cancelTask(params: CancelTaskRequest, ctx: ServerCallContext): Promise<Task> {
    const before = params.id ? await this.parts.tasks.load(params.id, ctx) : undefined;
    // 1.0 (§3.3.1): cancel is idempotent, a canceled task is answered as it is (the SDK does so).
    // 0.3's error table: a task already in a terminal state, canceled included, is -32002.
    if (ctx.requestedVersion === '0.3' && before?.status?.state === TaskState.TASK_STATE_CANCELED)
      throw new TaskNotCancelableError(`Task not cancelable: ${params.id} is already canceled`);
    const live = this.parts.buses.getByTaskId(params.id, ctx) !== undefined;
    const task = await super.cancelTask(params, ctx);
    // Without a live bus (e.g. after a restart) the SDK stores the cancel but notifies no webhook.
    if (!live && this.parts.push && before?.status?.state !== TaskState.TASK_STATE_CANCELED) {
      const value = { taskId: task.id, contextId: task.contextId, status: task.status, metadata: undefined };
      void this.parts.push.sender.send({ payload: { $case: 'statusUpdate', value } }, ctx, task).catch(() => {});
    }
    this.parts.buses.release(task.id, ctx);
    await this.parts.afterCancel?.(task, ctx);
    return task;
  }

  /**
   * A subscribe stream (1.0 SubscribeToTask, 0.3 tasks/resubscribe) begins with the Task and then
   * carries only status and artifact updates (1.0 §3.1.6). A message that continues the task starts
   * its own stream with the Task (§3.1.2), on the same bus: subscribers get its status instead.
   */
  override async *resubscribe(params: SubscribeToTaskRequest, ctx: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    let first = true;
    for await (const ev of super.resubscribe(params, ctx)) {
      if (ev.payload?.$case === 'task' && !first) {
        const t = ev.payload.value;
        yield { payload: { $case: 'statusUpdate', value: { taskId: t.id, contextId: t.contextId, status: t.status, metadata: t.metadata } } };
        continue;
      }
      first = false;
      yield ev;
    }
  }
}
