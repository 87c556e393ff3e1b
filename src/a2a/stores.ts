// The SDK's TaskStore and PushNotificationStore over our SQLite ports: tasks survive a restart.
import { Task, TaskPushNotificationConfig, TaskState, taskStateToJSON, type ListTasksRequest, type ListTasksResponse } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { PushNotificationStore, ServerCallContext, StoredPushNotificationConfig, TaskStore } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';
import type { A2aStore } from '../core/a2a/ports.js';
import { limit } from '../core/limits.js';
import { scopeOf } from './context.js';
import { checkPushUrl, PushTargetError } from './push.js';

export class SqliteTaskStore implements TaskStore {
  constructor(private store: A2aStore, private now: () => number) {}

  async save(task: Task, ctx: ServerCallContext): Promise<void> {
    const { owner, agent } = scopeOf(ctx);
    const now = this.now();
    const at = task.status?.timestamp ? Date.parse(task.status.timestamp) : NaN;
    await this.store.tasks.save({
      id: task.id,
      owner,
      agent,
      contextId: task.contextId,
      state: taskStateToJSON(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED),
      stateAt: Number.isFinite(at) ? at : now,
      body: JSON.stringify(Task.toJSON(task)),
      created: now,
      updated: now,
    });
  }

  async load(taskId: string, ctx: ServerCallContext): Promise<Task | undefined> {
    const { owner, agent } = scopeOf(ctx);
    const rec = await this.store.tasks.load(taskId, owner, agent);
    return rec ? Task.fromJSON(JSON.parse(rec.body)) : undefined;
  }

  async list(params: ListTasksRequest, ctx: ServerCallContext): Promise<ListTasksResponse> {
    const { owner, agent } = scopeOf(ctx);
    const pageSize = params.pageSize ?? 50;
    const offset = params.pageToken ? Number(params.pageToken) : 0;
    if (!Number.isInteger(offset) || offset < 0) throw new RequestMalformedError('pageToken: not one this server issued');
    const after = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : undefined;
    const { rows, total } = await this.store.tasks.list({
      owner,
      agent,
      contextId: params.contextId || undefined,
      state: params.status ? taskStateToJSON(params.status) : undefined,
      after,
      offset,
      limit: pageSize,
    });
    return {
      tasks: rows.map((r) => Task.fromJSON(JSON.parse(r.body))),
      nextPageToken: offset + rows.length < total ? String(offset + rows.length) : '',
      pageSize,
      totalSize: total,
    };
  }
}

export class SqlitePushStore implements PushNotificationStore {
  constructor(private store: A2aStore, private now: () => number, private allowLoopback: boolean) {}

  async save(taskId: string, ctx: ServerCallContext, cfg: TaskPushNotificationConfig): Promise<void> {
    const { owner, agent } = scopeOf(ctx);
    try {
      await checkPushUrl(cfg.url, this.allowLoopback);
    } catch (err) {
      if (err instanceof PushTargetError) throw new RequestMalformedError(err.message);
      throw err;
    }
    if (cfg.token.length > 512 || (cfg.authentication?.credentials.length ?? 0) > 2048) throw new RequestMalformedError('push config: token at most 512 chars, credentials at most 2048');
    // The SDK reads the id back from the object it passed in.
    if (!cfg.id) cfg.id = randomUUID();
    if (cfg.id.length > 128) throw new RequestMalformedError('push config: id at most 128 chars');
    const existing = await this.store.push.list(taskId, owner, agent);
    if (!existing.some((e) => e.id === cfg.id) && existing.length >= limit('a2a.push_configs')) {
      throw new RequestMalformedError(`push config: at most ${limit('a2a.push_configs')} per task`);
    }
    const body = JSON.stringify(TaskPushNotificationConfig.toJSON({ ...cfg, taskId, tenant: '' }));
    await this.store.push.save({ task: taskId, owner, agent, id: cfg.id, body, wire: ctx.requestedVersion === '1.0' ? '1.0' : '0.3', created: this.now() });
  }

  async load(taskId: string, ctx: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return (await this.loadWithMetadata(taskId, ctx)).map((c) => c.config);
  }

  async loadWithMetadata(taskId: string, ctx: ServerCallContext): Promise<StoredPushNotificationConfig[]> {
    const { owner, agent } = scopeOf(ctx);
    const rows = await this.store.push.list(taskId, owner, agent);
    return rows.map((r) => ({ config: TaskPushNotificationConfig.fromJSON(JSON.parse(r.body)), wireVersion: r.wire }));
  }

  async delete(taskId: string, ctx: ServerCallContext, configId?: string): Promise<void> {
    const { owner, agent } = scopeOf(ctx);
    await this.store.push.delete(taskId, owner, agent, configId || undefined);
  }
}
