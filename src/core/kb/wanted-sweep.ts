// Demand is kept for what it says lately: every miss of a new signature adds a wanted row, so
// without a bound anyone could grow the table forever with made-up errors. Rows not asked for
// again within wanted.days go; past wanted.max rows, the least recently asked go first.
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { startSweep } from '../platform/sweep.js';

const DAY = 86_400_000;

/** Prunes once now, then every `everyMs`; returns the function that stops it. */
export function startWantedSweep(core: Core, everyMs = limit('wanted.sweep') * 1000): () => void {
  return startSweep(core, {
    what: 'wanted signatures pruned',
    everyMs,
    run: () => core.store.kb.pruneWanted(core.now() - limit('wanted.days') * DAY, limit('wanted.max')),
  });
}
