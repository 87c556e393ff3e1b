import { defineConfig } from 'vitest/config';

// Files that replace modules (vi.mock) or spy on shared objects keep a module graph of their own;
// the rest share one per worker (isolate: false): each file no longer re-imports the whole server,
// about a quarter of the suite's time on this 2-core VM (2026-11-28: 605 s against 831 s).
const ISOLATED = ['test/swarm/filter-budget.test.ts', 'test/trust/sig-memo.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Three on the 2-core VM: the suite waits more than it computes (servers, child processes,
    // PostgreSQL, Chromium). 2026-11-29: 380 s wall for 535 s of CPU with 3 workers, every test
    // passing; about 590 s with 2 in the previous session's full runs. More were not tried.
    maxWorkers: 3,
    // Every operation's result is checked against its output schema (src/core/kernel/output-check.ts).
    env: { CX_CHECK_OUTPUT: '1' },
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
    ],
  },
});
