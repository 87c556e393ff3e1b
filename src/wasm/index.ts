// The plugin runner with the limits table's settings: what the composition root starts.
import { limit } from '../core/kernel/limits.js';
import { WasmRunner } from './runner.js';

export { WasmRunner, type RunnerOpts } from './runner.js';
export {
  BadModule,
  checkModule,
  checkSizes,
  checkUpload,
  clampMemory,
  clampModule,
  clampTables,
  defaultCaps,
  inspectModule,
  type ModuleCaps,
  type ModuleInfo,
  PAGE,
} from './module.js';

export function defaultRunner(over: Partial<import('./runner.js').RunnerOpts> = {}): WasmRunner {
  return new WasmRunner({
    workers: limit('compute.workers'),
    queue: limit('compute.queue'),
    modules: limit('compute.modules'),
    inBytes: limit('compute.in_bytes'),
    varBytes: limit('compute.var_bytes'),
    heapMb: limit('compute.heap_mb'),
    procMb: limit('compute.proc_mb'),
    loadMs: limit('compute.load_ms'),
    ...over,
  });
}
