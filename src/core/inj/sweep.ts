// Retention of the injection map: reports and disputes older than inj.keep_d go, every inj.sweep.
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { startSweep } from '../platform/sweep.js';
import { sweepInj } from './ops.js';

export function startInjSweep(core: Core): () => void {
  return startSweep(core, { what: 'expired injection reports purged', everyMs: limit('inj.sweep') * 1000, run: () => sweepInj({ core }) });
}
