// Background retention of the event bus: events older than events.retention_h, and all but the
// newest events.retention_max of each topic, are pruned (a subscriber resuming from further back
// gets what is still kept).
import { limit } from '../../kernel/limits.js';
import type { Core } from '../../kernel/types.js';
import { startSweep } from '../sweep.js';

export interface EventRetention {
  /** How long events are kept, ms. */
  keepMs: number;
  /** Events kept per topic at most. */
  keepMax: number;
  everyMs: number;
}

export const eventRetention = (): EventRetention => ({
  keepMs: limit('events.retention_h') * 3_600_000,
  keepMax: limit('events.retention_max'),
  everyMs: limit('events.sweep') * 1000,
});

/** Starts the sweep (once now, then every `everyMs`); returns the function that stops it. */
export function startEventSweep(core: Core, r: EventRetention = eventRetention()): () => void {
  return startSweep(core, {
    what: 'old bus events pruned',
    everyMs: r.everyMs,
    run: (stopped) => core.store.events.prune(core.now() - r.keepMs, r.keepMax, stopped),
  });
}
