import { http, type HttpHandler } from 'msw';
import type { ScenarioInput } from '../contract/scenario.js';
import { createSimulator } from '../index.js';
import type { SimulatorOptions } from '../sim/simulator.js';
import { controlPlane, type SimulatorControl } from './control-plane.js';
import { createResolver, DEFAULT_BASE_URL, type HandlersOptions } from './handlers.js';
import { mountAt } from '../fetch/mount.js';

/** Options of `defineSimulator`, `setupSimulator` and `setupSimulatorWorker`: the simulator's, and where it answers. */
export interface SimulatorSetupOptions extends Partial<SimulatorOptions>, HandlersOptions {
  /** One scenario to run from the start (a built-in name or a definition); joins `scenarios`. */
  readonly scenario?: string | ScenarioInput;
  /**
   * What MSW does with requests to URLs no simulator answers (default `'bypass'`: they go to
   * the network, so real servers beside the simulator keep working).
   */
  readonly onUnhandledRequest?: 'bypass' | 'warn' | 'error';
}

/** A simulator with its MSW handlers and its control plane, not yet intercepting anything. */
export interface DefinedSimulator extends SimulatorControl {
  /** Handlers for an MSW server or worker of your own: `setupServer(...sim.handlers, ...yours)`. */
  readonly handlers: HttpHandler[];
  /** The simulator's Response to a Request under its base URLs, or undefined for other URLs. */
  resolve(request: Request): Promise<Response | undefined>;
}

/**
 * Creates a simulator over the seeded world with its MSW handlers and control plane, for a
 * suite that already runs an MSW server: add `sim.handlers` to it.
 *
 * ```ts
 * const sim = defineSimulator({ seed: 42, baseUrl: 'https://api.databuddy.cc' });
 * const server = setupServer(...sim.handlers, ...yourHandlers);
 * ```
 */
export function defineSimulator(options: SimulatorSetupOptions = {}): DefinedSimulator {
  const { scenario, baseUrl, ingestUrl, remoteAddress, onUnhandledRequest: _unhandled, ...simulatorOptions } = options;
  const api = mountAt(baseUrl ?? DEFAULT_BASE_URL, 'baseUrl');
  const ingest = ingestUrl === undefined ? api : mountAt(ingestUrl, 'ingestUrl');
  const simulator = createSimulator({
    ...simulatorOptions,
    scenarios: [...(simulatorOptions.scenarios ?? []), ...(scenario !== undefined ? [scenario] : [])],
  });
  const resolve = createResolver(simulator, {
    baseUrl: api.url,
    ...(ingestUrl !== undefined ? { ingestUrl: ingest.url } : {}),
    ...(remoteAddress !== undefined ? { remoteAddress } : {}),
  });
  return Object.assign(controlPlane(simulator, { baseUrl: api.url, ingestUrl: ingest.url }), {
    handlers: [http.all('*', ({ request }) => resolve(request))],
    resolve,
  });
}
