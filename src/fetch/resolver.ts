import type { SimRequest } from '../sim/messages.js';
import type { Simulator } from '../sim/simulator.js';
import { mountAt } from './mount.js';
import { toResponse, toSimRequest } from './translate.js';

/** Where the simulator's Fetch resolver (MSW handlers, `sim.fetch`) answers when no `baseUrl` is given (`.test` is reserved: never a real host). */
export const DEFAULT_BASE_URL = 'http://analytics.test';

/**
 * The peer address in-process requests report: such a request never leaves the machine, so it
 * comes from loopback, as it would to a simulator server on 127.0.0.1.
 */
export const IN_PROCESS_ADDRESS = '127.0.0.1';

/** Where the simulated hosts are mounted, and who in-process requests come from (MSW handlers and `sim.fetch`). */
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

/** Waits out a scenario's injected latency (real time, as a server would), or until the caller aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The simulator's Response to a Request whose path (relative to its mount) is `path`: the
 * request is translated, handled with its in-flight slot held until the Response is handed
 * over (or the caller aborts), after any injected latency. `basePath` is the mount's path
 * prefix, for the links of discovery documents.
 */
export async function answerRequest(simulator: Simulator, request: Request, url: URL, path: string, remoteAddress: string, basePath = ''): Promise<Response> {
  return answerSimRequest(simulator, await toSimRequest(request, url, { path, remoteAddress, basePath }), request.signal);
}

/** The simulator's Response to a translated request (see {@link answerRequest}); `signal` is the caller's, when it can abort. */
export async function answerSimRequest(simulator: Simulator, simRequest: SimRequest, signal: AbortSignal | undefined): Promise<Response> {
  const response = await simulator.handle(simRequest, { holdSlot: true });
  // The slot is given back once the answer is handed over, or as soon as the client gives up.
  const release = (): void => response.release?.();
  signal?.addEventListener('abort', release, { once: true });
  try {
    if (response.delayMs !== undefined && response.delayMs > 0) await wait(response.delayMs, signal);
    return toResponse(response, simRequest.method);
  } finally {
    signal?.removeEventListener('abort', release);
    release();
  }
}

/**
 * What MSW's handlers (`createHandlers`) do, as a plain function: the simulator's Response to
 * a Request under its base URLs, or undefined for any other URL (its body is then left unread).
 */
export function createResolver(simulator: Simulator, options: HandlersOptions = {}): (request: Request) => Promise<Response | undefined> {
  const api = mountAt(options.baseUrl ?? DEFAULT_BASE_URL, 'baseUrl');
  const ingest = options.ingestUrl === undefined ? null : mountAt(options.ingestUrl, 'ingestUrl');
  const remoteAddress = options.remoteAddress ?? IN_PROCESS_ADDRESS;
  const basePath = new URL(api.url).pathname.replace(/\/$/, '');

  /** The simulator's path for a URL, or undefined when the URL is not simulated. */
  const pathOf = (url: URL): string | undefined => {
    if (ingest && ingest.relative(url) === '/track') return '/track';
    return api.relative(url);
  };

  return async (request) => {
    const url = new URL(request.url);
    const path = pathOf(url);
    return path === undefined ? undefined : answerRequest(simulator, request, url, path, remoteAddress, basePath);
  };
}
