/**
 * One analytics-sim server for the run (global-setup.mjs), one sandbox per jest worker
 * (sandbox.mjs, by JEST_WORKER_ID). ES modules natively: run
 *
 *   NODE_OPTIONS=--experimental-vm-modules npx jest
 */
export default {
  testEnvironment: 'node',
  transform: {},
  globalSetup: './global-setup.mjs',
  globalTeardown: './global-teardown.mjs',
  // 122 requests a test: generous on a busy CI machine (the assertions never depend on time).
  testTimeout: 30_000,
};
