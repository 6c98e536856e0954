import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Bundles the CLI from the source once, for the tests that start the command.
    globalSetup: ['test/global-setup.ts'],
    pool: 'threads',
    // One worker per CPU (vitest's default leaves one CPU out: a single worker on a 2-CPU CI
    // machine, idle while a test waits on a child process). Files in a worker share one module
    // graph instead of evaluating the simulator's again for each file (with isolation, imports
    // took 82 s of test/sim's 199 s); no test leaves a global changed: fake timers are restored
    // after each test, MSW servers and simulators are closed by the file that opened them.
    isolate: false,
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 20_000,
  },
});
