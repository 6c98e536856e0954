import { http, type HttpHandler } from 'msw';
import { createResolver, type HandlersOptions } from '../fetch/resolver.js';
import type { Simulator } from '../sim/simulator.js';

export { createResolver, DEFAULT_BASE_URL, IN_PROCESS_ADDRESS, type HandlersOptions } from '../fetch/resolver.js';

/**
 * MSW request handlers that answer from a simulator, for `setupServer` (node) and `setupWorker`
 * (browser). They translate, and decide nothing: the status, headers and body are the
 * simulator's, byte for byte, as the HTTP server sends them. Injected latency is waited out
 * while the request keeps its concurrency slot; a dropped connection is a network error
 * (`fetch` rejects). Requests to other URLs fall through to your other handlers.
 *
 * ```ts
 * const server = setupServer(...createHandlers(createSimulator({ seed: 42 }), { baseUrl: 'http://analytics.test' }));
 * ```
 */
export function createHandlers(simulator: Simulator, options: HandlersOptions = {}): HttpHandler[] {
  const resolve = createResolver(simulator, options);
  return [http.all('*', ({ request }) => resolve(request))];
}
