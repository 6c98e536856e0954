import type { Simulator } from '../sim/simulator.js';
import { answerRequest, answerSimRequest, DEFAULT_BASE_URL, IN_PROCESS_ADDRESS } from './resolver.js';
import { readPlainRequest } from './translate.js';

/** A WHATWG-compatible `fetch` answered by a simulator in process: Request in, Response out. */
export type SimulatorFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Options of {@link createSimulatorFetch}. */
export interface SimulatorFetchOptions {
  /** Where a relative input (`/v1/query`) is resolved, and the `Host` the simulator sees (default `http://analytics.test`). */
  readonly baseUrl?: string;
  /** The peer address the simulator sees, for anonymous limits (default `127.0.0.1`). */
  readonly remoteAddress?: string;
}

/**
 * A `fetch` for any client that takes a custom one (the official SDK, openapi-fetch, ky, …):
 * every request it is given reaches the simulator, whatever its host (the URL's path and query
 * are what count), with no network and no MSW. A path such as `/v1/query/types` is resolved
 * against `baseUrl`. The answer is the simulator's, byte for byte, as over HTTP; a dropped
 * connection rejects with a `TypeError`, as `fetch` does on a network error; an aborted
 * request rejects with the signal's reason and gives its concurrency slot back at once.
 */
export function createSimulatorFetch(simulator: Simulator, options: SimulatorFetchOptions = {}): SimulatorFetch {
  const base = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const remoteAddress = options.remoteAddress ?? IN_PROCESS_ADDRESS;
  return async (input, init) => {
    const target = typeof input === 'string' && input.startsWith('/') ? `${base}${input}` : input;
    // A URL and a plain init are read as the Request they make, without making it (the same request, a fraction of the cost).
    const plain = readPlainRequest(target, init);
    let response: Response;
    if (plain) {
      const simRequest = plain.simRequest({ path: plain.url.pathname, remoteAddress });
      plain.signal?.throwIfAborted();
      response = await answerSimRequest(simulator, simRequest, plain.signal);
      plain.signal?.throwIfAborted();
    } else {
      const request = target instanceof Request && init === undefined ? target : new Request(target, init);
      const url = new URL(request.url);
      request.signal.throwIfAborted();
      response = await answerRequest(simulator, request, url, url.pathname, remoteAddress);
      request.signal.throwIfAborted();
    }
    if (response.type === 'error') throw new TypeError('fetch failed', { cause: new Error('the simulator dropped the connection (a scenario step)') });
    return response;
  };
}
