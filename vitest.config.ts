import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Bundles the CLI from the source once, for the tests that start the command.
    globalSetup: ['test/global-setup.ts'],
    pool: 'threads',
    testTimeout: 20_000,
  },
});
