import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: keep integration servers from starving each other.
    maxWorkers: 2,
    // Every operation's result is checked against its output schema (src/core/kernel/output-check.ts).
    env: { CX_CHECK_OUTPUT: '1' },
  },
});
