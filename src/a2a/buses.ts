// Event buses per task. Besides the SDK's per-execution buses, a task that waits on someone else
// (a hosted agent's answer) gets a "watch" bus that resubscribers and cancels attach to; it lives
// until the task ends and is recreated at start-up for tasks still open.
import { TaskState } from '@a2a-js/sdk';
import { DefaultExecutionEventBus, type ExecutionEventBus, type ExecutionEventBusManager, type ServerCallContext } from '@a2a-js/sdk/server';
import { scopeOf } from './context.js';

const key = (taskId: string, owner: string, agent: string) => `${agent}\0${owner}\0${taskId}`;

export class BusManager implements ExecutionEventBusManager {
  private live = new Map<string, ExecutionEventBus>();
  /** Live buses kept after their executor returned (input-required), oldest first. */
  private kept = new Set<string>();
  private watch = new Map<string, ExecutionEventBus>();

  constructor(private maxKept: number) {}

  private k(taskId: string, ctx?: ServerCallContext): string {
    const s = ctx ? scopeOf(ctx) : { owner: '', agent: '' };
    return key(taskId, s.owner, s.agent);
  }

  createOrGetByTaskId(taskId: string, ctx?: ServerCallContext): ExecutionEventBus {
    const k = this.k(taskId, ctx);
    let bus = this.live.get(k);
    if (!bus) {
      bus = new DefaultExecutionEventBus();
      const w = this.watch.get(k);
      // Watchers see what a new execution publishes (a follow-up message, a failure).
      if (w) bus.on('event', (e) => w.publish(e));
      this.live.set(k, bus);
    }
    return bus;
  }

  getByTaskId(taskId: string, ctx?: ServerCallContext): ExecutionEventBus | undefined {
    const k = this.k(taskId, ctx);
    return this.watch.get(k) ?? this.live.get(k);
  }

  cleanupByTaskId(taskId: string, ctx?: ServerCallContext): void {
    const k = this.k(taskId, ctx);
    this.live.get(k)?.removeAllListeners();
    this.live.delete(k);
    this.kept.delete(k);
  }

  /** Declines ownership (the SDK's policy applies) but bounds how many kept buses stay in memory. */
  settleByTaskId(taskId: string, _bus: ExecutionEventBus, lastState: TaskState | undefined, ctx: ServerCallContext): boolean {
    if (lastState === TaskState.TASK_STATE_INPUT_REQUIRED || lastState === TaskState.TASK_STATE_AUTH_REQUIRED) {
      const k = this.k(taskId, ctx);
      this.kept.delete(k);
      this.kept.add(k);
      while (this.kept.size > this.maxKept) {
        const oldest = this.kept.values().next().value as string;
        this.kept.delete(oldest);
        // The task stays in the store; a later message or cancel works without a live bus.
        this.live.get(oldest)?.finished();
        this.live.delete(oldest);
      }
    }
    return false;
  }

  /** Ends a task's live bus (after a cancel or a final answer): its listeners drain and stop. */
  release(taskId: string, ctx: ServerCallContext): void {
    const k = this.k(taskId, ctx);
    const bus = this.live.get(k);
    if (bus) {
      bus.finished();
      this.cleanupByTaskId(taskId, ctx);
    }
    this.unwatch(taskId, scopeOf(ctx).owner, scopeOf(ctx).agent);
  }

  watchTask(taskId: string, owner: string, agent: string): ExecutionEventBus {
    const k = key(taskId, owner, agent);
    let bus = this.watch.get(k);
    if (!bus) this.watch.set(k, (bus = new DefaultExecutionEventBus()));
    return bus;
  }

  watched(taskId: string, owner: string, agent: string): ExecutionEventBus | undefined {
    return this.watch.get(key(taskId, owner, agent));
  }

  unwatch(taskId: string, owner: string, agent: string): void {
    const k = key(taskId, owner, agent);
    const bus = this.watch.get(k);
    if (!bus) return;
    this.watch.delete(k);
    bus.finished();
    bus.removeAllListeners();
  }

  /** Ends every stream (server shutdown). */
  closeAll(): void {
    for (const b of [...this.live.values(), ...this.watch.values()]) b.finished();
    this.live.clear();
    this.watch.clear();
    this.kept.clear();
  }
}
