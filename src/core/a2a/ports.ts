// Async ports of A2A task persistence; src/store implements them. Bodies are opaque JSON text:
// the A2A face owns their shape (the SDK's task JSON), the store only keeps and scopes them.

export interface A2aTaskRecord {
  id: string;
  /** Identity id of the caller that created the task; '' for anonymous callers. */
  owner: string;
  /** Hosted agent the task was sent to (`/a2a/{id}`); '' for the commons itself (`/a2a`). */
  agent: string;
  contextId: string;
  /** Task state name as the A2A face writes it (e.g. `TASK_STATE_COMPLETED`). */
  state: string;
  /** Status timestamp, ms since epoch. */
  stateAt: number;
  body: string;
  created: number;
  updated: number;
}

export interface A2aTaskQuery {
  owner: string;
  agent: string;
  contextId?: string;
  state?: string;
  /** Only tasks whose status changed after this instant (ms). */
  after?: number;
  offset: number;
  limit: number;
}

/** What the retention sweep removes: tasks whose last update is older than their state's cutoff. */
export interface A2aSweepRule {
  /** Final task states (as stored) and their cutoff, ms since epoch. */
  final: readonly string[];
  finalBefore: number;
  /** Every other state the A2A face writes, and their cutoff. */
  open: readonly string[];
  openBefore: number;
}

export interface A2aTaskKey {
  id: string;
  owner: string;
  agent: string;
}

export interface A2aTaskRepo {
  /** Insert or replace; `created` is kept from the first save. */
  save(rec: A2aTaskRecord): Promise<void>;
  /** Several saves in one transaction: all or none. */
  saveMany(recs: A2aTaskRecord[]): Promise<void>;
  /** A task is visible only within its (owner, agent) scope. */
  load(id: string, owner: string, agent: string): Promise<A2aTaskRecord | null>;
  list(q: A2aTaskQuery): Promise<{ rows: A2aTaskRecord[]; total: number }>;
  /**
   * Deletes at most `max` tasks the rule selects, with their push configs, in one transaction;
   * returns the deleted tasks. Callers repeat until fewer than `max` come back.
   */
  sweep(rule: A2aSweepRule, max: number): Promise<A2aTaskKey[]>;
}

export interface A2aPushRecord {
  task: string;
  owner: string;
  agent: string;
  id: string;
  /** The config as JSON text (url, token, authentication); the store keeps it sealed at rest. */
  body: string;
  /** Wire version it was registered over ('0.3' or '1.0'): notifications use the same shape. */
  wire: string;
  created: number;
}

export interface A2aPushRepo {
  save(rec: A2aPushRecord): Promise<void>;
  list(task: string, owner: string, agent: string): Promise<A2aPushRecord[]>;
  /** Deletes one config, or all of the task's when `id` is absent. */
  delete(task: string, owner: string, agent: string, id?: string): Promise<void>;
  count(task: string, owner: string, agent: string): Promise<number>;
}

export interface A2aStore {
  tasks: A2aTaskRepo;
  push: A2aPushRepo;
}
