import type { Simulator } from '../../src/index.js';

/**
 * A `fetch` that answers from a simulator in process, as a client under test would see it
 * over HTTP: a dropped connection (a scenario's reset) rejects like a network error.
 */
export function simFetch(sim: Simulator): (url: string, init?: RequestInit) => Promise<Response> {
  return async (url, init = {}) => {
    const target = new URL(url);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const response = await sim.handle({
      method: (init.method ?? 'GET').toUpperCase(),
      path: target.pathname,
      query: Object.fromEntries(target.searchParams),
      headers,
      ...(typeof init.body === 'string' ? { body: init.body } : {}),
    });
    if (response.abort) throw new TypeError('fetch failed: connection reset');
    return new Response(response.body.length > 0 ? response.body : null, { status: response.status, headers: response.headers });
  };
}

/** Client dependencies on the simulator's virtual clock: sleeping advances it, jitter is fixed. */
export function virtualDeps(sim: Simulator, jitter = 0.5) {
  return {
    fetch: simFetch(sim),
    sleep: async (ms: number) => {
      sim.clock.advance(ms);
    },
    random: () => jitter,
  };
}
