import type { SetupServer } from 'msw/node';
import type { SimulatorControl } from './control-plane.js';
import { defineSimulator, type SimulatorSetupOptions } from './define-simulator.js';
import { intercept } from './interception.js';

/** A simulator answering `fetch` (and `node:http`) in this process through MSW, and its control plane. */
export interface SimulatorSetup extends SimulatorControl {
  /**
   * The process's MSW server, shared by every `setupSimulator` of the process. Handlers you add
   * with `server.use(...)` apply in front of the simulators until `server.resetHandlers()`.
   */
  readonly server: SetupServer;
  /** Stops intercepting this simulator's URLs (the last `close` stops the MSW server). Idempotent. */
  close(): void;
}

/**
 * Creates a simulator and answers its base URL in this process with MSW's `setupServer`, with
 * no port: `fetch('http://analytics.test/v1/query/websites', …)` is answered by the simulator
 * exactly as the HTTP server answers it. Returns the control plane (fixtures, clock, scenarios,
 * journal, retry audit, keys, sessions, reset) and `close()`.
 *
 * Lifecycle in vitest (each test file runs in its own worker and gets its own simulator):
 *
 * ```ts
 * let sim: SimulatorSetup;
 * beforeAll(() => { sim = setupSimulator({ seed: 42 }); });
 * afterEach(() => sim.reset());   // seeded state, clock, limits and journal for the next test
 * afterAll(() => sim.close());
 * ```
 *
 * Several setups in one process share nothing but MSW's interception: give each its own base
 * URL. A suite that already has an MSW server adds `defineSimulator(…).handlers` to it instead.
 */
export function setupSimulator(options: SimulatorSetupOptions = {}): SimulatorSetup {
  const sim = defineSimulator(options);
  const { server, stop } = intercept({ resolve: sim.resolve, onUnhandledRequest: options.onUnhandledRequest ?? 'bypass' });
  return Object.assign(sim, { server, close: stop });
}
