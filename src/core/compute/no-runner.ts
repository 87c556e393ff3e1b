// The runner of a core built without one (tools, unit tests of other domains): every call fails.
import type { ComputeRunner } from './ports.js';

export const noRunner: ComputeRunner = {
  async run() {
    return { ok: false, code: 'bad', detail: 'no plugin runner in this process', ms: 0 };
  },
  stats: () => ({ workers: 0, busy: 0, queued: 0, started: 0, replaced: 0 }),
  async close() {},
};
