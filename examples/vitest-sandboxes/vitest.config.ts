import { defineConfig } from 'vitest/config';

/**
 * One analytics-sim server for the whole run (global-setup.ts), one sandbox per worker
 * (sandbox-fixture.ts): the files run in parallel, each worker with its own clock, limits,
 * journal, keys and data.
 */
export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    pool: 'threads',
    maxWorkers: 8,
    // 122 requests a test: generous on a busy CI machine (the assertions never depend on time).
    testTimeout: 30_000,
  },
});
