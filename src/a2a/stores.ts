// The SDK's TaskStore and PushNotificationStore over our SQLite ports: tasks survive a restart.
import { Task, TaskPushNotificationConfig, TaskState, taskStateToJSON, type ListTasksRequest, type ListTasksResponse } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { PushNotificationStore, ServerCallContext, StoredPushNotificationConfig, TaskStore } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';
import type { A2aStore, A2aTaskKey } from '../core/a2a/ports.js';
import { limit } from '../core/kernel/limits.js';
import { scopeOf } from './context.js';
import type { NewTasks } from './executor.js';
import { checkPushUrl, PushTargetError, type Resolve } from './push.js';

/**
 * The task cache port: copies of tasks recently saved or loaded, so a reload costs a copy, not a
 * query. Bounded (the least recently used go first). Per process: it is write-through (a task is
 * cached only once its save has committed, and a failed write evicts it), so the store always
 * holds what this process answered, and a restart or a cache miss just reloads from the store. A
 * copy goes stale only if another process writes the same task: several replicas need either the
 * requests of one task routed to one replica, a shared implementation of this port, or none
 * (capacity 0, every load a query).
 */
export interface TaskCache {
  get(key: string): Task | undefined;
  /** Stores `task` as the latest committed version (the caller hands over a copy it won't edit). */
  put(key: string, task: Task): void;
  evict(key: string): void;
  readonly size: number;
}

/** Today's implementation: an in-process LRU of at most `capacity` tasks. */
export class LruTaskCache implements TaskCache {
  private map = new Map<string, Task>();
  constructor(private capacity: number) {}

  get size(): number {
    return this.map.size;
  }

  get(key: string): Task | undefined {
    const t = this.map.get(key);
    if (t) {
      this.map.delete(key);
      this.map.set(key, t);
    }
    return t;
  }

  put(key: string, task: Task): void {
    this.map.delete(key);
    if (this.capacity <= 0) return;
    this.map.set(key, task);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
  }

  evict(key: string): void {
    this.map.delete(key);
  }
}

/**
 * Tasks in SQLite with group commit. The SDK saves a task on every event and reloads it before
 * the next, so one message/send is three loads and three saves. Here a save only marks the task
 * dirty; whatever is dirty at the end of the event loop's turn is written in one transaction,
 * each task once, in its last version. Nothing is answered before it is stored: the JSON-RPC
 * layer waits for `flushed()` before it sends a response or a stream event. Committed tasks are
 * kept as copies in a TaskCache (above), so reloads cost a copy, not a query.
 */
const keyOf = (owner: string, agent: string, id: string) => `${owner}\0${agent}\0${id}`;

export class SqliteTaskStore implements TaskStore, NewTasks {
  private dirty = new Map<string, { task: Task; owner: string; agent: string }>();
  private waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  private scheduled = false;
  /** Tasks whose ids the SDK has just generated, not saved yet: their first reload skips the query. */
  private fresh = new Set<string>();

  private recent: TaskCache;

  constructor(
    private store: A2aStore,
    private now: () => number,
    private keep = 2000,
    cache?: TaskCache,
  ) {
    this.recent = cache ?? new LruTaskCache(keep);
  }

  /**
   * Tasks being written by the commit in flight: a load during its await (an asynchronous store:
   * PostgreSQL) finds them here, not in `dirty` (already taken) nor in the cache (not yet put).
   */
  private writing = new Map<string, Task>();
  /** Commits run one after another, so an older version of a task never lands after a newer one. */
  private chain: Promise<void> = Promise.resolve();

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.chain = this.chain.then(() => this.commit());
    });
  }

  async save(task: Task, ctx: ServerCallContext): Promise<void> {
    const { owner, agent } = scopeOf(ctx);
    const key = keyOf(owner, agent, task.id);
    this.fresh.delete(key);
    // A copy: the SDK edits the objects it passes in after saving them.
    this.dirty.set(key, { task: structuredClone(task), owner, agent });
    this.schedule();
  }

  /** See NewTasks: executions that end before their first save leave a mark, hence the bound. */
  expectNew(taskId: string, ctx: ServerCallContext): void {
    const { owner, agent } = scopeOf(ctx);
    if (this.fresh.size >= this.keep) this.fresh.clear();
    this.fresh.add(keyOf(owner, agent, taskId));
  }

  /** Drops the in-memory copies of tasks the retention sweep deleted. */
  forget(keys: readonly A2aTaskKey[]): void {
    for (const k of keys) this.recent.evict(keyOf(k.owner, k.agent, k.id));
  }

  /** Resolves once everything saved so far is committed (rejects if that write failed). */
  flushed(): Promise<void> {
    if (!this.dirty.size && !this.scheduled) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.schedule();
    });
  }

  private async commit(): Promise<void> {
    this.scheduled = false;
    const batch = [...this.dirty];
    const waiters = this.waiters;
    this.dirty = new Map();
    this.waiters = [];
    const now = this.now();
    for (const [key, { task }] of batch) this.writing.set(key, task);
    try {
      if (batch.length) {
        await this.store.tasks.saveMany(
          batch.map(([, { task, owner, agent }]) => {
            const at = task.status?.timestamp ? Date.parse(task.status.timestamp) : NaN;
            return {
              id: task.id,
              owner,
              agent,
              contextId: task.contextId,
              state: taskStateToJSON(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED),
              stateAt: Number.isFinite(at) ? at : now,
              body: JSON.stringify(Task.toJSON(task)),
              created: now,
              updated: now,
            };
          }),
        );
      }
      for (const [key, { task }] of batch) this.recent.put(key, task);
      for (const w of waiters) w.resolve();
    } catch (err) {
      for (const [key] of batch) this.recent.evict(key);
      for (const w of waiters) w.reject(err);
    } finally {
      for (const [key, { task }] of batch) if (this.writing.get(key) === task) this.writing.delete(key);
    }
  }

  async load(taskId: string, ctx: ServerCallContext): Promise<Task | undefined> {
    const { owner, agent } = scopeOf(ctx);
    const key = keyOf(owner, agent, taskId);
    const mine = this.dirty.get(key)?.task ?? this.writing.get(key) ?? this.recent.get(key);
    if (mine) return structuredClone(mine);
    if (this.fresh.has(key)) return undefined;
    const rec = await this.store.tasks.load(taskId, owner, agent);
    if (!rec) return undefined;
    const task = Task.fromJSON(JSON.parse(rec.body));
    this.recent.put(key, structuredClone(task));
    return task;
  }

  async list(params: ListTasksRequest, ctx: ServerCallContext): Promise<ListTasksResponse> {
    await this.flushed();
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
  constructor(
    private store: A2aStore,
    private now: () => number,
    private allowLoopback: boolean,
    private resolve?: Resolve,
  ) {}

  async save(taskId: string, ctx: ServerCallContext, cfg: TaskPushNotificationConfig): Promise<void> {
    const { owner, agent } = scopeOf(ctx);
    try {
      await checkPushUrl(cfg.url, this.allowLoopback, this.resolve);
    } catch (err) {
      if (err instanceof PushTargetError) throw new RequestMalformedError(err.message);
      throw err;
    }
    if (cfg.token.length > 512 || (cfg.authentication?.credentials.length ?? 0) > 2048)
      throw new RequestMalformedError('push config: token at most 512 chars, credentials at most 2048');
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
