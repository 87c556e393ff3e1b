// Preloaded into the soak's server process (node --import): samples its event-loop delay every
// second and appends one JSON line to CX_SOAK_PROBE. Nothing in the product reads it.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.CX_SOAK_PROBE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  setInterval(() => {
    appendFileSync(file, `${JSON.stringify({ t: Date.now(), p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 })}\n`);
    h.reset();
  }, 1000).unref();
}
