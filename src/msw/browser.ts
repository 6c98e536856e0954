/**
 * `analytics-sim/msw/browser`: the simulator behind MSW's Service Worker in a web page. Safe to
 * bundle for browsers: it loads `msw` and `msw/browser`, never `msw/node` or node modules.
 *
 * ```ts
 * import { setupSimulatorWorker } from 'analytics-sim/msw/browser';
 * const sim = await setupSimulatorWorker({ seed: 42, baseUrl: 'http://analytics.test' });
 * ```
 */
export { createHandlers, createResolver, DEFAULT_BASE_URL, IN_PROCESS_ADDRESS, type HandlersOptions } from './handlers.js';
export { setupSimulatorWorker, type SimulatorWorkerOptions, type SimulatorWorkerSetup } from './setup-simulator-worker.js';
export { defineSimulator, type DefinedSimulator, type SimulatorSetupOptions } from './define-simulator.js';
export type { FixtureApiKey, FixtureUser, SimulatorControl, SimulatorFixtures, SimulatorJournal } from './control-plane.js';
export { createSimulator } from '../index.js';
export type { Simulator, SimulatorOptions } from '../index.js';
