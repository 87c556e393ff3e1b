// Executors: the commons' skills (registry operations through the one pipeline) and hosted agents
// (the message lands in the owner's inbox; the owner's answer completes the task later).
import { Role, TaskState, type Artifact, type Message, type Part, type Task } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';
import { asCxError, CxError } from '../core/kernel/errors.js';
import { limit } from '../core/kernel/limits.js';
import { invoke } from '../core/platform/invoke.js';
import { boundsOf, collect, collectedText, itemsOf } from '../core/kernel/stream.js';
import { hostedMessageOp } from '../core/agents/ops.js';
import type { Core, Operation } from '../core/kernel/types.js';
import { next, type HintFace } from '../core/kernel/hints.js';
import { CHALLENGE_REG } from '../core/platform/identity/auth.js';
import type { BusManager } from './buses.js';
import { factsOf } from './context.js';
import { contentOfCore, type Skills } from './skills.js';

export const textPart = (text: string): Part => ({ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' });
export const dataPart = (value: unknown): Part => ({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' });

export function agentMessage(taskId: string, contextId: string, parts: Part[]): Message {
  return { messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

const stamp = () => new Date().toISOString();

export function statusEvent(taskId: string, contextId: string, state: TaskState, message?: Message, metadata?: Record<string, unknown>) {
  return AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: stamp() }, metadata });
}

export function artifactEvent(taskId: string, contextId: string, artifact: Artifact) {
  return AgentEvent.artifactUpdate({ taskId, contextId, artifact, append: false, lastChunk: true, metadata: undefined });
}

/** The task store learns of a task the SDK just made up an id for, so it need not look for it. */
export interface NewTasks {
  expectNew(taskId: string, ctx: RequestContext['context']): void;
}

/** Publishes the task (new, or the existing one moving on) as the first event of an execution. */
function openTask(rc: RequestContext, bus: ExecutionEventBus, state: TaskState, metadata: Record<string, unknown>, fresh?: NewTasks): void {
  const prev = rc.task;
  // No task in the request context: the SDK found none and generated this id (a caller's own
  // taskId must name a stored task), so nothing is stored under it yet.
  if (!prev) fresh?.expectNew(rc.taskId, rc.context);
  const task: Task = {
    id: rc.taskId,
    contextId: rc.contextId,
    status: { state, message: undefined, timestamp: stamp() },
    artifacts: prev?.artifacts ?? [],
    history: prev?.history?.length ? prev.history : [rc.userMessage],
    metadata: { ...(prev?.metadata ?? {}), ...metadata },
  };
  bus.publish(AgentEvent.task(task));
}

/** A task takes a bounded number of messages: past it, the follow-up fails the task. */
function tooLong(rc: RequestContext, bus: ExecutionEventBus): boolean {
  if ((rc.task?.history?.length ?? 0) <= limit('a2a.turns')) return false;
  openTask(rc, bus, TaskState.TASK_STATE_WORKING, {});
  const line = `err bad task has more than ${limit('a2a.turns')} messages: start a new task`;
  bus.publish(statusEvent(rc.taskId, rc.contextId, TaskState.TASK_STATE_FAILED, agentMessage(rc.taskId, rc.contextId, [textPart(line)]), { cx: null }));
  return true;
}

const FREE_NEXT = 'searched: reply in this task with more words to search again, or a command ("help" lists them); cancel the task when done';

/** Paused calls keep what they still need in the task's metadata. */
interface Pending {
  skill: string;
  input: Record<string, unknown>;
  missing: string[];
}

/** Fields the caller left out, when nothing else is wrong with the input. */
function missingFields(op: Operation, input: Record<string, unknown>): string[] {
  const r = op.input.safeParse(input);
  if (r.success) return [];
  const missing = r.error.issues
    .filter((i) => i.code === 'invalid_type' && i.path.length === 1 && input[String(i.path[0])] === undefined)
    .map((i) => String(i.path[0]));
  return missing.length === r.error.issues.length ? missing : [];
}

export class SkillExecutor implements AgentExecutor {
  private canceled = new Set<string>();
  /** Streams being collected, by task: a cancel ends them at once. */
  private streams = new Map<string, AbortController>();
  private contexts = new Map<string, string>();

  /** Next steps worded as the messages that run the skills (kernel/hints.ts). */
  private hints: HintFace;

  constructor(
    private core: Core,
    private skills: Skills,
    private fresh?: NewTasks,
  ) {
    this.hints = skills.hints;
  }

  /** An error in A2A terms: its steps as messages to send, and how to get a token when one is missing. */
  private errText(cx: CxError, creds: { bearer?: string; urlToken?: string }): string {
    const reg =
      cx.code === 'auth' && !creds.bearer && !creds.urlToken
        ? `\n${next({ hints: this.hints }, CHALLENGE_REG, ', solve it, then ', { op: 'id.register', input: { pow: '<challenge>:<nonce>' } }, ' and send the token as Authorization: Bearer')}`
        : '';
    return cx.lineIn(this.hints) + reg;
  }

  async execute(rc: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const facts = factsOf(rc.context);
    if (tooLong(rc, bus)) return;
    const c = contentOfCore(rc.userMessage.parts);
    const pending = (rc.task?.metadata?.cx as Pending | null | undefined) ?? null;
    const paused = pending ? this.skills.skill(pending.skill) : undefined;
    const plan = paused
      ? ({ kind: 'call', op: paused.op, input: this.skills.resume(paused.op, pending!.input, pending!.missing, c) } as const)
      : this.skills.resolve(c);
    const { taskId, contextId } = rc;
    this.contexts.set(taskId, contextId);
    // Paused tasks may never resume: keep the map as bounded as the live buses.
    if (this.contexts.size > 2 * limit('a2a.live')) this.contexts.delete(this.contexts.keys().next().value as string);
    openTask(rc, bus, TaskState.TASK_STATE_WORKING, plan.kind === 'call' ? { skill: plan.op.name } : {}, this.fresh);
    const done = (state: TaskState, message?: Message, metadata?: Record<string, unknown>) => {
      if (this.canceled.delete(taskId)) return;
      if (state !== TaskState.TASK_STATE_INPUT_REQUIRED) this.contexts.delete(taskId);
      bus.publish(statusEvent(taskId, contextId, state, message, metadata));
    };
    const fail = (line: string, data: object) =>
      done(TaskState.TASK_STATE_FAILED, agentMessage(taskId, contextId, [textPart(line), dataPart(data)]), { cx: null });

    if (plan.kind === 'help') {
      bus.publish(
        artifactEvent(taskId, contextId, {
          artifactId: 'result',
          name: 'help',
          description: 'skills and commands',
          parts: [textPart(this.skills.helpText())],
          metadata: undefined,
          extensions: [],
        }),
      );
      return done(TaskState.TASK_STATE_COMPLETED);
    }
    if (plan.kind === 'bad') return fail(`err bad ${plan.detail}`, { error: 'bad', detail: plan.detail, status: 400 });

    const missing = missingFields(plan.op, plan.input);
    if (missing.length) {
      const ask = `need ${missing.join(', ')} for ${plan.op.name}: reply in this task with a text part (fills ${missing[0]}) or a data part {"input": {${missing.map((m) => `"${m}": ...`).join(', ')}}}`;
      const cx: Pending = { skill: plan.op.name, input: plan.input, missing };
      return done(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage(taskId, contextId, [textPart(ask), dataPart({ missing })]), { cx });
    }
    const stop = new AbortController();
    try {
      const { out, ctx, input } = await invoke(this.core, plan.op, plan.input, {
        creds: facts.creds,
        net: facts.net,
        reqId: facts.reqId,
        face: 'a2a',
        hints: this.hints,
        signal: stop.signal,
      });
      if (this.canceled.has(taskId)) return done(TaskState.TASK_STATE_COMPLETED);
      const spec = plan.op.stream;
      if (spec) {
        // A streaming op: one artifact event per item as it happens (message/stream shows them live;
        // message/send returns the task with all of them), within the caller's max/wait.
        this.streams.set(taskId, stop);
        const c = await collect(itemsOf(out), boundsOf(spec, input), stop, (it) => {
          bus.publish(
            artifactEvent(taskId, contextId, {
              artifactId: `item-${it.id}`,
              name: plan.op.name,
              description: `item ${it.id}`,
              parts: [textPart(spec.text(it.item, ctx)), dataPart({ id: it.id, item: it.item })],
              metadata: undefined,
              extensions: [],
            }),
          );
        }).finally(() => this.streams.delete(taskId));
        if (this.canceled.has(taskId)) return done(TaskState.TASK_STATE_COMPLETED);
        bus.publish(
          artifactEvent(taskId, contextId, {
            artifactId: 'result',
            name: plan.op.name,
            description: plan.op.title,
            parts: [textPart(collectedText(plan.op, c, ctx)), dataPart(c)],
            metadata: undefined,
            extensions: [],
          }),
        );
        return done(TaskState.TASK_STATE_COMPLETED, undefined, pending ? { cx: null } : undefined);
      }
      bus.publish(
        artifactEvent(taskId, contextId, {
          artifactId: 'result',
          name: plan.op.name,
          description: plan.op.title,
          parts: [textPart(plan.op.text(out, ctx)), dataPart(out)],
          metadata: undefined,
          extensions: [],
        }),
      );
      // Free text is a conversation: the task waits for more words (each searches again) or a cancel.
      if (plan.kind === 'call' && 'free' in plan && plan.free)
        return done(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage(taskId, contextId, [textPart(FREE_NEXT)]), { cx: null });
      done(TaskState.TASK_STATE_COMPLETED, undefined, pending ? { cx: null } : undefined);
    } catch (err) {
      const cx = asCxError(err, facts.reqId);
      if (!(err instanceof CxError)) this.core.log.error({ err, skill: plan.op.name }, 'a2a skill failed');
      fail(this.errText(cx, facts.creds), { error: cx.code, detail: cx.detailIn(this.hints), status: cx.status });
    }
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    // Always answer on the bus: the SDK waits for a final event after asking us to cancel.
    const contextId = this.contexts.get(taskId) ?? '';
    this.contexts.delete(taskId);
    this.canceled.add(taskId);
    this.streams.get(taskId)?.abort();
    bus.publish(
      statusEvent(taskId, contextId, TaskState.TASK_STATE_CANCELED, agentMessage(taskId, contextId, [textPart('canceled by the sender')]), { cx: null }),
    );
    // An execution still running sees the flag; an idle (input-required) task has none to clear it.
    setTimeout(() => this.canceled.delete(taskId), 60_000).unref();
  }
}

/** Hosted agents: the message lands in the owner's inbox; the task stays working until the answer (or a cancel). */
export class HostedExecutor implements AgentExecutor {
  private contexts = new Map<string, string>();

  constructor(
    private core: Core,
    private buses: BusManager,
    private fresh?: NewTasks,
  ) {}

  remember(taskId: string, contextId: string): void {
    this.contexts.set(taskId, contextId);
  }

  forget(taskId: string): void {
    this.contexts.delete(taskId);
  }

  async execute(rc: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const facts = factsOf(rc.context);
    if (tooLong(rc, bus)) {
      await this.core.store.agents.settle(rc.taskId, 'canceled', null, this.core.now());
      this.buses.unwatch(rc.taskId, facts.caller.identity!.id, facts.agent);
      return;
    }
    const text = contentOfCore(rc.userMessage.parts).texts.join('\n');
    const followUp = !!rc.task;
    // The inbox write is an operation like any other: auth, quota and scrub in the one pipeline.
    const meta = { creds: facts.creds, net: facts.net, reqId: facts.reqId, face: 'a2a' as const };
    const r = await invoke(this.core, hostedMessageOp, { agent: facts.agent, task: rc.taskId, text, follow_up: followUp }, meta).catch((err: unknown) => ({
      err,
    }));
    if ('err' in r) {
      const { err } = r;
      const cx = asCxError(err, facts.reqId);
      if (!(err instanceof CxError)) this.core.log.error({ err, agent: facts.agent }, 'a2a hosted message failed');
      const parts = [textPart(cx.line), dataPart({ error: cx.code, detail: cx.detail, status: cx.status })];
      // A refused follow-up leaves the task waiting for its answer; a refused first message fails it.
      if (followUp) {
        openTask(rc, bus, TaskState.TASK_STATE_WORKING, {});
        return void bus.publish(statusEvent(rc.taskId, rc.contextId, TaskState.TASK_STATE_WORKING, agentMessage(rc.taskId, rc.contextId, parts)));
      }
      openTask(rc, bus, TaskState.TASK_STATE_WORKING, {}, this.fresh);
      return void bus.publish(statusEvent(rc.taskId, rc.contextId, TaskState.TASK_STATE_FAILED, agentMessage(rc.taskId, rc.contextId, parts)));
    }
    if (followUp) {
      // A follow-up in the same task reaches the owner as part of the same inbox item.
      openTask(rc, bus, TaskState.TASK_STATE_WORKING, {});
      return;
    }
    this.remember(rc.taskId, rc.contextId);
    this.buses.watchTask(rc.taskId, r.out.from, facts.agent);
    openTask(rc, bus, TaskState.TASK_STATE_WORKING, { agent: facts.agent }, this.fresh);
    bus.publish(
      statusEvent(rc.taskId, rc.contextId, TaskState.TASK_STATE_WORKING, agentMessage(rc.taskId, rc.contextId, [textPart(hostedMessageOp.text(r.out, r.ctx))])),
    );
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const contextId = this.contexts.get(taskId) ?? '';
    this.contexts.delete(taskId);
    bus.publish(statusEvent(taskId, contextId, TaskState.TASK_STATE_CANCELED, agentMessage(taskId, contextId, [textPart('canceled by the sender')])));
  }
}
