import { setupWorker, type SetupWorker, type StartOptions } from 'msw/browser';
import type { SimulatorControl } from './control-plane.js';
import { defineSimulator, type SimulatorSetupOptions } from './define-simulator.js';

/** Options of {@link setupSimulatorWorker}: the simulator's, the URLs, and MSW's worker start options. */
export interface SimulatorWorkerOptions extends SimulatorSetupOptions {
  /** Where the page serves `mockServiceWorker.js` (`npx msw init <public dir>`); default `/mockServiceWorker.js`. */
  readonly serviceWorker?: StartOptions['serviceWorker'];
  /** No line in the console per intercepted request (default true). */
  readonly quiet?: boolean;
}

/** A simulator answering the page's `fetch` through MSW's Service Worker, and its control plane. */
export interface SimulatorWorkerSetup extends SimulatorControl {
  /** The MSW worker; add handlers of your own with `worker.use(...)`. */
  readonly worker: SetupWorker;
  /** Stops intercepting. Idempotent. */
  close(): void;
}

/**
 * The browser counterpart of `setupSimulator`: creates a simulator in the page and starts MSW's
 * `setupWorker` with its handlers; resolves once the worker intercepts. The page must serve
 * MSW's `mockServiceWorker.js` (`npx msw init public/`). One per page: for several
 * simulators, start one worker with the `handlers` of several `defineSimulator`s.
 *
 * ```ts
 * import { setupSimulatorWorker } from 'analytics-sim/msw/browser';
 * const sim = await setupSimulatorWorker({ seed: 42, baseUrl: 'http://analytics.test' });
 * await fetch('http://analytics.test/v1/query/websites', { headers: { 'x-api-key': sim.secretOf('key_acme_read') } });
 * ```
 */
export async function setupSimulatorWorker(options: SimulatorWorkerOptions = {}): Promise<SimulatorWorkerSetup> {
  const { serviceWorker, quiet, ...rest } = options;
  const sim = defineSimulator(rest);
  const worker = setupWorker(...sim.handlers);
  await worker.start({
    onUnhandledRequest: options.onUnhandledRequest ?? 'bypass',
    quiet: quiet ?? true,
    ...(serviceWorker !== undefined ? { serviceWorker } : {}),
  });
  let open = true;
  return Object.assign(sim, {
    worker,
    close() {
      if (!open) return;
      open = false;
      worker.stop();
    },
  });
}
