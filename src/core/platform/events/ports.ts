// Event bus port: domains publish facts, subscribers (sinks, streams, feeds, exports) follow them.
// SQLite: an outbox table written in the same transaction as the change, fanned out in process
// after commit. PostgreSQL (later): the same outbox, NOTIFY carrying only ids after commit; every
// subscriber reads the rows by id, so domain code does not change.

import type { BusEvent, TopicSelector } from '../../kernel/bus.js';

// The event and the selector are the kernel's (modules declare what they follow with them).
export type { BusEvent, TopicSelector };

/** An event a write carries: repositories that accept `emit` store it in the write's own transaction. */
export interface EventDraft {
  topic: string;
  payload: unknown;
}

/**
 * What a repository write takes to emit events in its own transaction: drafts, or a function of
 * the row as stored (when the payload needs what only the write knows, such as a new row's number).
 */
export type Emit<Row> = EventDraft[] | ((stored: Row) => EventDraft[]);

/** Where a subscriber resumes: the last id it saw per topic (a reconnecting stream sends this back). */
export type Resume = Record<string, number>;

export interface EventBus {
  /** Publishes in its own transaction; resolves after commit, with the event as stored. */
  publish(topic: string, payload: unknown): Promise<BusEvent>;
  /** Events of one topic after id `after` (exclusive), oldest first, at most `limit`. Pruned events are gone. */
  read(topic: string, after: number, limit: number): Promise<BusEvent[]>;
  /** The newest id of a topic (0 when it has none). */
  head(topic: string): Promise<number>;
  /**
   * Live events of a topic or prefix. With `resume`, retained events after those ids are replayed
   * first, then live ones follow: no gaps, no duplicates, per-topic order. Ends when `signal` aborts.
   */
  subscribe(sel: TopicSelector, opts?: { resume?: Resume; signal?: AbortSignal }): AsyncIterable<BusEvent>;
  /** In-process callback form for domain subscribers; returns the unsubscribe function. */
  on(sel: TopicSelector, fn: (e: BusEvent) => void): () => void;
  /**
   * Retention: deletes the events older than `before` (epoch ms) and all but the newest `keep` of
   * each topic; ids are never reused. Returns how many went; `stopped` ends it between batches.
   */
  prune(before: number, keep: number, stopped?: () => boolean): Promise<number>;
}
