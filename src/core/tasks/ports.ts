// Async ports of the task board; src/store/sqlite/tasks.ts implements them.
import type { Emit } from '../platform/events/ports.js';
import type { Short, TxDraft } from '../platform/ledger/ports.js';

export const TASK_STATES = ['open', 'claimed', 'done', 'accepted', 'cancelled'] as const;
export type TaskState = (typeof TASK_STATES)[number];

export interface Task {
  n: number;
  id: string;
  title: string;
  body: string;
  tags: string[];
  creator: string;
  space: string | null;
  state: TaskState;
  claimant: string | null;
  claimed: number | null;
  result: string | null;
  note: string | null;
  hunter: string | null;
  bounty: string | null;
  credits: number;
  created: number;
  updated: number;
}

export type NewTask = Omit<Task, 'n' | 'state' | 'claimant' | 'claimed' | 'result' | 'note' | 'hunter' | 'updated'>;

/** The fields a transition may set, with the state it moves to. */
export interface TaskPatch {
  state: TaskState;
  claimant?: string | null;
  claimed?: number | null;
  result?: string | null;
  note?: string | null;
  hunter?: string | null;
}

export interface TaskFilter {
  state?: TaskState;
  tag?: string;
  space?: string;
  creator?: string;
  claimant?: string;
  /** Free text (FTS over title, body, tags). */
  q?: string;
  /** Cursor: only tasks with n below this. */
  before?: number;
}

export interface TaskRepo {
  /**
   * Inserts the task and posts its escrow in one transaction, with the events of `emit` (published
   * only if it commits). `taken`: the id or bounty id is in use (draw again).
   */
  insert(t: NewTask, escrow: TxDraft | null, now: number, emit?: Emit<Task>): Promise<Task | 'taken' | Short>;
  byId(id: string): Promise<Task | null>;
  byBounty(bounty: string): Promise<Task | null>;
  /**
   * Compare-and-set: applies `patch` (and posts `tx`) only while the task is still in `from`
   * held by `claimant` (when given), with the events of `emit` in the same transaction.
   * `stale`: it moved meanwhile; `short`: an account cannot pay.
   */
  transition(
    id: string,
    from: { state: TaskState; claimant?: string | null },
    patch: TaskPatch,
    tx: TxDraft | null,
    now: number,
    emit?: Emit<Task>,
  ): Promise<Task | 'stale' | Short>;
  /** Newest first. */
  list(f: TaskFilter, limit: number): Promise<Task[]>;
  /** Tasks accepted with this identity as the paid hunter. */
  doneBy(id: string): Promise<number>;
  /** Credits this identity holds in escrow for its unpaid bounties. */
  escrowedBy(id: string): Promise<number>;
  /** Counts per state, all tasks or one space's. */
  counts(space?: string): Promise<Record<TaskState, number>>;
}
