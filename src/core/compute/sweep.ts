// Call records are kept compute.keep_d days; this sweep deletes older ones every hour.
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { startSweep } from '../platform/sweep.js';

export function startCallSweep(core: Core): () => void {
  return startSweep(core, {
    what: 'old compute call records purged',
    everyMs: 3_600_000,
    run: () => core.store.services.purgeCalls(core.now() - limit('compute.keep_d') * 86_400_000),
  });
}
