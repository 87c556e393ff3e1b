// Job queue port: deliveries, fn sinks, compute, exports and the git mirror run as jobs.
// SQLite: rows with a lease deadline; PostgreSQL (later): the same rows leased with
// `FOR UPDATE SKIP LOCKED`. A lease that expires is redelivered, so a worker killed with SIGKILL
// loses no job; a stale worker's ack is refused by its lease token.

export interface Job<P = unknown> {
  id: string;
  queue: string;
  payload: P;
  /** Deliveries so far, this one included. */
  tries: number;
  maxTries: number;
  /** Token of this lease: ack/nack/extend need it, so a redelivered job cannot be acked twice. */
  lease: string;
  /** Epoch ms after which the job is redelivered unless acked or extended. */
  leaseUntil: number;
  /** Last error a nack recorded. */
  error: string | null;
}

export interface EnqueueOpts {
  /** Not leased before now + delayMs. */
  delayMs?: number;
  /** Dead-lettered after this many failed deliveries (default from the limits table). */
  maxTries?: number;
  /** Idempotency key per queue: a second enqueue with the same key while the first is not done returns its id. */
  key?: string;
}

export interface QueueStats {
  ready: number;
  delayed: number;
  leased: number;
  dead: number;
}

/** A kind of queue (the name up to its first `:`, so per-owner queues add no series) and its backlog. */
export interface QueueKindStats extends QueueStats {
  kind: string;
  /** Due time of the oldest ready job (an expired lease counts as ready again); null when none is ready. */
  oldestReadyAt: number | null;
}

export interface JobQueue {
  enqueue(queue: string, payload: unknown, opts?: EnqueueOpts): Promise<string>;
  /** Leases up to `max` due jobs (oldest due first) until now + leaseMs; each job goes to exactly one caller. */
  lease(queue: string, leaseMs: number, max?: number): Promise<Job[]>;
  /** Done: removed. false when the lease is no longer held (expired and redelivered). */
  ack(id: string, lease: string): Promise<boolean>;
  /**
   * Failed: retried after a backoff (exponential from the limits table, or `retryInMs`), or moved to
   * the dead letters once tries reach maxTries. `stale` when the lease is no longer held.
   */
  nack(id: string, lease: string, opts?: { error?: string; retryInMs?: number }): Promise<'retry' | 'dead' | 'stale'>;
  /** Pushes the lease deadline to now + leaseMs while a long job runs. */
  extend(id: string, lease: string, leaseMs: number): Promise<boolean>;
  stats(queue: string): Promise<QueueStats>;
  /** Every queue kind that has rows, by kind (metrics: depth and the age of the oldest ready job). */
  overview(): Promise<QueueKindStats[]>;
  /** Dead-lettered jobs, newest first. */
  dead(queue: string, limit: number): Promise<Job[]>;
  /** Puts a dead job back in the queue with its tries reset. */
  retryDead(id: string): Promise<boolean>;
  /**
   * A hint that jobs of `queue` may have become due (enqueue, nack, retryDead in this process; a
   * PostgreSQL adapter: NOTIFY). Workers wake on it instead of polling fast; they still poll slowly
   * for delayed jobs. Returns the function that stops the hints.
   */
  onReady(queue: string, fn: () => void): () => void;
}
