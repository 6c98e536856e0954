import { delay, http, type HttpHandler } from 'msw';
import type { Simulator } from '../sim/simulator.js';
import { mountAt } from './mount.js';
import { toResponse, toSimRequest } from './translate.js';

/** Where MSW handlers answer when no `baseUrl` is given (`.test` is reserved: never a real host). */
export const DEFAULT_BASE_URL = 'http://analytics.test';

/**
 * The peer address MSW requests report: an intercepted request never leaves the machine, so it
 * comes from loopback, as it would to a simulator server on 127.0.0.1.
 */
export const IN_PROCESS_ADDRESS = '127.0.0.1';

/** Options of {@link createHandlers}. */
export interface HandlersOptions {
  /**
   * The API's base URL: an origin and an optional path prefix (default
   * `http://analytics.test`). Every request under it reaches the simulator, with its path taken
   * relative to it (`http://analytics.test/api` + `/v1/query`).
   */
  readonly baseUrl?: string;
  /**
   * The ingestion host, when events go elsewhere than the API, as the official SDKs send them
   * (for example `https://basin.databuddy.cc`): its `/track` reaches the simulator's
   * `POST /track`. Other paths there are not handled. Default: ingestion under `baseUrl`.
   */
  readonly ingestUrl?: string;
  /** The peer address the simulator sees, for anonymous limits (default `127.0.0.1`). */
  readonly remoteAddress?: string;
}

/**
 * MSW request handlers that answer from a simulator, for `setupServer` (node) and `setupWorker`
 * (browser). They translate, and decide nothing: the status, headers and body are the
 * simulator's, byte for byte, as the HTTP server sends them. Injected latency waits with MSW's
 * `delay` while the request keeps its concurrency slot; a dropped connection is a network
 * error (`fetch` rejects). Requests to other URLs fall through to your other handlers.
 *
 * ```ts
 * const server = setupServer(...createHandlers(createSimulator({ seed: 42 }), { baseUrl: 'http://analytics.test' }));
 * ```
 */
export function createHandlers(simulator: Simulator, options: HandlersOptions = {}): HttpHandler[] {
  const resolve = createResolver(simulator, options);
  return [http.all('*', ({ request }) => resolve(request))];
}

/**
 * What {@link createHandlers} does, as a plain function: the simulator's Response to a Request
 * under its base URLs, or undefined for any other URL (its body is then left unread).
 */
export function createResolver(simulator: Simulator, options: HandlersOptions = {}): (request: Request) => Promise<Response | undefined> {
  const api = mountAt(options.baseUrl ?? DEFAULT_BASE_URL, 'baseUrl');
  const ingest = options.ingestUrl === undefined ? null : mountAt(options.ingestUrl, 'ingestUrl');
  const remoteAddress = options.remoteAddress ?? IN_PROCESS_ADDRESS;

  /** The simulator's path for a URL, or undefined when the URL is not simulated. */
  const pathOf = (url: URL): string | undefined => {
    if (ingest && ingest.relative(url) === '/track') return '/track';
    return api.relative(url);
  };

  return async (request) => {
    const url = new URL(request.url);
    const path = pathOf(url);
    if (path === undefined) return undefined;
    const simRequest = await toSimRequest(request, url, { path, remoteAddress });
    const response = await simulator.handle(simRequest, { holdSlot: true });
    // The slot is given back once the answer is handed over, or as soon as the client gives up.
    const release = (): void => response.release?.();
    request.signal.addEventListener('abort', release, { once: true });
    try {
      if (response.delayMs !== undefined && response.delayMs > 0) await delay(response.delayMs);
      return toResponse(response, simRequest.method);
    } finally {
      request.signal.removeEventListener('abort', release);
      release();
    }
  };
}
