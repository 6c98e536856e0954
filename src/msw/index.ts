/**
 * `analytics-sim/msw`: the simulator behind MSW in node test suites, with no port.
 *
 * ```ts
 * import { setupSimulator } from 'analytics-sim/msw';
 * const sim = setupSimulator({ seed: 42 });   // intercepts http://analytics.test
 * ```
 *
 * In a browser, import from `analytics-sim/msw/browser` (it does not load `msw/node`).
 */
export { createHandlers, createResolver, DEFAULT_BASE_URL, IN_PROCESS_ADDRESS, type HandlersOptions } from './handlers.js';
export { setupSimulator, type SimulatorSetup } from './setup-simulator.js';
export { defineSimulator, type DefinedSimulator, type SimulatorSetupOptions } from './define-simulator.js';
export type { FixtureApiKey, FixtureUser, SimulatorControl, SimulatorFixtures, SimulatorJournal } from './control-plane.js';
