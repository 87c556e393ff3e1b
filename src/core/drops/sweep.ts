// Background purge of expired drops: reads already refuse them; this removes their ciphertext.
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { startSweep } from '../platform/sweep.js';

/** Starts the sweep (once now, then every `everyMs`); returns the function that stops it. */
export function startDropSweep(core: Core, everyMs = limit('drop.sweep') * 1000): () => void {
  return startSweep(core, { what: 'expired drops purged', everyMs, run: () => core.store.drops.purgeExpired(core.now()) });
}
