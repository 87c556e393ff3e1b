// The event shape every layer names: the platform's bus (src/core/platform/events) stores and
// fans out these; a module declares the topics it follows with a selector (kernel/module.ts).

/** One published event. `id` is gapless and monotonic per topic, in commit order. */
export interface BusEvent<P = unknown> {
  topic: string;
  id: number;
  /** Commit time, epoch ms. */
  time: number;
  payload: P;
}

/** A topic exactly, or every topic starting with a prefix (e.g. `tasks.`). */
export type TopicSelector = { topic: string } | { prefix: string };
