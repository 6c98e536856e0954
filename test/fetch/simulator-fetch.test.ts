import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/index.js';
import { createSimulatorFetch } from '../../src/fetch/simulator-fetch.js';
import type { SimRequest } from '../../src/sim/messages.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { SUMMARY_QUERY } from '../helpers/credentials.js';
import { call, secretOf } from '../helpers/sim.js';

const SITE_QUERY = '/v1/query?website_id=web_acme_store';

describe('sim.fetch', () => {
  it('answers a Request with the status, headers and body bytes the simulator gives any adapter', async () => {
    const viaFetch = createSimulator({ seed: 7 });
    const viaHandle = createSimulator({ seed: 7 });
    const key = secretOf(viaFetch, 'key_acme_read');
    const response = await viaFetch.fetch(`http://analytics.test${SITE_QUERY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(SUMMARY_QUERY),
    });
    const expected = await call(viaHandle, 'POST', '/v1/query', {
      key,
      query: { website_id: 'web_acme_store' },
      headers: { host: 'analytics.test' },
      body: SUMMARY_QUERY,
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(expected.text);
    expect(response.headers.get('x-request-id')).toBe(expected.headers['X-Request-ID']);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('takes a bare path, a URL object or a Request, and any host, since only the path and query count', async () => {
    const sim = createSimulator();
    const key = secretOf(sim, 'key_acme_read');
    const headers = { 'x-api-key': key };
    const answers = await Promise.all([
      sim.fetch('/v1/query/types', { headers }),
      sim.fetch(new URL('https://api.databuddy.cc/v1/query/types'), { headers }),
      sim.fetch(new Request('http://localhost:1/v1/query/types', { headers })),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const bodies = await Promise.all(answers.map(async (a) => (JSON.parse(await a.text()) as { types: unknown }).types));
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });

  it('hands the simulator the same request for a URL and an init as for the Request they make, and fails as it fails', async () => {
    /** What a fetch hands the simulator, or the error it rejects with. */
    const seenBy = async (input: string | URL | Request, init?: RequestInit): Promise<SimRequest | string> => {
      let seen: SimRequest | undefined;
      const recorder = { handle: async (request: SimRequest) => ((seen = request), { status: 200, headers: {}, body: 'ok' }) } as unknown as Simulator;
      try {
        await createSimulatorFetch(recorder)(input, init);
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
      return seen as SimRequest;
    };
    const aborted = AbortSignal.abort(new Error('gave up'));
    const url = 'http://analytics.test/v1/query?website_id=web_acme_store&a=1&a=2';
    const inits: (RequestInit | undefined)[] = [
      undefined,
      {},
      { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Api-Key': ' k1 ' }, body: '{"parameters":["summary_metrics"]}' },
      { method: 'post', body: 'no content type: a string body is text/plain' },
      { method: 'PUT', body: '' },
      { method: 'DELETE', body: null },
      { method: 'patch', body: 'x' },
      { method: 'PATCH', body: 'x' },
      { method: 'options', headers: [['b', '1'], ['A', '2'], ['B', '3']] },
      { headers: new Headers({ host: 'elsewhere.test', 'user-agent': 'client/1.0' }) },
      { method: 'POST', body: '\uFEFF{"bom":"kept"} \u{1F600}' },
      { method: 'POST', body: 'lone \uD800 surrogate' },
      { method: 'POST', body: new URLSearchParams({ a: '1' }) },
      { method: 'POST', body: 'x', credentials: 'omit', keepalive: true },
      { method: 'GET', body: 'a GET cannot carry a body' },
      { method: 'CONNECT' },
      { headers: { 'bad name': 'x' } },
      { signal: aborted },
      { method: 'POST', body: 'x', signal: new AbortController().signal },
    ];
    for (const init of inits) {
      const viaRequest = await (async () => {
        try {
          return await seenBy(new Request(url, init));
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      })();
      expect(await seenBy(url, init), JSON.stringify(init)).toEqual(viaRequest);
      expect(await seenBy(new URL(url), init), JSON.stringify(init)).toEqual(viaRequest);
    }
    expect(await seenBy('http://user:secret@analytics.test/v1/query/types')).toMatch(/^TypeError: .*credentials/);
  });

  it('answers refusals as the service does: 401 without a key, with its JSON error', async () => {
    const sim = createSimulator();
    const response = await sim.fetch(SITE_QUERY, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(SUMMARY_QUERY) });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { code: string }).code).toBe('AUTH_REQUIRED');
  });

  it('rejects with a TypeError, as fetch does on a network error, when a reset scenario drops the connection', async () => {
    const sim = createSimulator();
    sim.scenarios.start({ name: 'drop', steps: [{ match: { route: '/v1/query/websites' }, effect: { type: 'reset' } }] });
    await expect(sim.fetch('/v1/query/websites', { headers: { 'x-api-key': secretOf(sim, 'key_acme_read') } })).rejects.toThrow(TypeError);
    expect(sim.journal.list()).toMatchObject([{ path: '/v1/query/websites', outcome: 'scenario', status: 0 }]);
  });

  it('gives the concurrency slot back when the caller aborts during injected latency', async () => {
    const sim = createSimulator();
    sim.scenarios.start({ name: 'slow', steps: [{ match: { route: '/v1/query/types' }, effect: { type: 'latency', delay: { distribution: 'fixed', ms: 60_000 } } }] });
    const controller = new AbortController();
    const pending = sim.fetch('/v1/query/types', { headers: { 'x-api-key': secretOf(sim, 'key_acme_read') }, signal: controller.signal });
    await expect.poll(async () => ((await (await sim.fetch('/__sim/health')).json()) as { inFlight: number }).inFlight).toBe(1);
    controller.abort();
    await expect.poll(async () => ((await (await sim.fetch('/__sim/health')).json()) as { inFlight: number }).inFlight).toBe(0);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('createResolver under a path prefix', () => {
  it('lists the prefixed base URL in the OpenAPI servers, as the express mount does', async () => {
    const { createResolver } = await import('../../src/fetch/resolver.js');
    const resolve = createResolver(createSimulator(), { baseUrl: 'http://analytics.test/api' });
    const response = await resolve(new Request('http://analytics.test/api/openapi.json'));
    expect(response?.status).toBe(200);
    const document = (await response?.json()) as { servers: { url: string }[] };
    expect(document.servers).toEqual([{ url: 'http://analytics.test/api' }]);
  });
});
