// Async port of the swarm domain (subscriptions, their cursors, the kv: sink, line retention);
// src/store/sqlite/swarm.ts implements it. Topic lines are bus events (src/core/swarm/lines.ts),
// work-queue items are jobs (store.jobs), mb: deliveries are mail (store.mail).

export type SubMode = 'each' | 'digest';

export interface SubRow {
  /** `u` + 9 chars. */
  id: string;
  owner: string;
  /** Canonical topic (src/core/platform/events/topic-names.ts). */
  topic: string;
  /** `wq:<name>`, `mb:me`, `kv:<ns>/<k>` or `fn:<svc>@<ver>`. */
  sink: string;
  /** Output target of an fn: sink: `topic:<name>`, `mail:me`, `kv:<ns>/<k>`. */
  target: string | null;
  /** `prefix:<text>` or `re:<RE2>`. */
  filter: string | null;
  mode: SubMode;
  hopMax: number;
  creditsDay: number;
  /** Epoch ms. */
  expires: number;
  created: number;
  /** The last seq handled (delivered, filtered out, dropped or missed). */
  cursor: number;
  delivered: number;
  filtered: number;
  /** Lines gone past retention before they were handled. */
  missed: number;
  /** Lines dropped: beyond hop_max, in a cycle, a full inbox. */
  dropped: number;
  /** Digest: when the pending lines are due; null when none are pending. */
  due: number | null;
  /** fn: credits spent on UTC day `spentOn` (days since the epoch). */
  spentOn: number;
  spent: number;
  /** Filter time this subscription has cost, microseconds (budget.ts). */
  filterUs: number;
  /** Deliveries wait until then (epoch ms): its filter went over its time budget or its credits; null or past: not paused. */
  pausedUntil: number | null;
  /** Why it was last paused, in words its owner reads (GET /v1/subs). */
  pausedWhy: string | null;
}

export type NewSub = Omit<SubRow, 'delivered' | 'filtered' | 'missed' | 'dropped' | 'due' | 'spentOn' | 'spent' | 'filterUs' | 'pausedUntil' | 'pausedWhy'>;

/** Counters a cursor move adds. */
export interface SubCounts {
  delivered?: number;
  filtered?: number;
  missed?: number;
  dropped?: number;
  /** Filter time spent on the lines of the move, microseconds. */
  filterUs?: number;
}

export interface KvEntry {
  owner: string;
  ns: string;
  k: string;
  value: string;
  topic: string;
  /** Seq of the line that wrote it. */
  seq: number;
  by: string;
  hop: number;
  /** Lines missed (past retention) just before this one. */
  missed: number;
  /** Writes so far (one per delivered line). */
  writes: number;
  updated: number;
}

export interface SwarmRepo {
  /** Creates it unless the owner already holds `cap` subscriptions ('full'). */
  create(s: NewSub, cap: number): Promise<'ok' | 'full'>;
  get(id: string): Promise<SubRow | null>;
  /** The owner's subscriptions, oldest first. */
  byOwner(owner: string): Promise<SubRow[]>;
  count(owner: string): Promise<number>;
  /** Subscriptions of a topic (exact name). */
  onTopic(topic: string): Promise<SubRow[]>;
  /** Every subscription (id, topic, cursor): restart reconciliation, a page after id `after`. */
  page(after: string, n: number): Promise<Array<Pick<SubRow, 'id' | 'topic' | 'cursor' | 'mode' | 'due'>>>;
  /** Deletes the owner's subscription; false when none. */
  cancel(id: string, owner: string): Promise<boolean>;
  /**
   * Moves the cursor from `from` to `to` (> from) and adds the counts, only if it is still at `from`
   * (compare-and-set): false when another delivery moved it (or the subscription is gone).
   */
  advance(id: string, from: number, to: number, counts: SubCounts): Promise<boolean>;
  /**
   * A kv: delivery: the cursor move of `advance` and the entry write in one transaction. The entry
   * is written only with a seq above the stored one (never backwards); false as for `advance`.
   */
  kvDeliver(id: string, from: number, to: number, counts: SubCounts, e: Omit<KvEntry, 'writes'>): Promise<boolean>;
  kv(owner: string, ns: string, k: string): Promise<KvEntry | null>;
  /** Digest: sets `due` on those of `ids` that have none (a pending batch keeps its time). */
  markDue(ids: readonly string[], at: number): Promise<void>;
  /** Digest subscriptions due at `now`, their `due` cleared; at most n. */
  takeDue(now: number, n: number): Promise<string[]>;
  /** Digest: puts `due` back (lines left after a full digest). */
  setDue(id: string, at: number | null): Promise<void>;
  /**
   * fn: spends `n` credits of day `day` if the subscription stays within `cap` that day
   * (a new day starts from 0); false at the cap.
   */
  spend(id: string, day: number, n: number, cap: number): Promise<boolean>;
  /** Pauses deliveries until `until` (epoch ms) with the reason its owner reads; a later pause replaces it. */
  pause(id: string, until: number, why: string): Promise<void>;
  /** Deletes subscriptions expired at `now`; how many. */
  expire(now: number): Promise<number>;
  /**
   * Retention of topic lines (bus topics `ps:…`): deletes lines older than `before` (epoch ms) and
   * all but the newest `keep` of each topic; seqs are never reused. `stopped` ends it between topics.
   */
  pruneLines(before: number, keep: number, stopped?: () => boolean): Promise<number>;
}
