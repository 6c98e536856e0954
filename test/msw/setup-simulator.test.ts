import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { politeQuery } from '../../examples/polite-client.js';
import { hammeringQuery } from '../../examples/hammering-client.js';
import { RetryComplianceError, type ScenarioInput } from '../../src/index.js';
import { defineSimulator, setupSimulator, type SimulatorSetup } from '../../src/msw/index.js';

/** Client dependencies on a simulator's virtual clock: real fetch (through MSW), sleeping moves the clock. */
const onVirtualClock = (sim: SimulatorSetup) => ({
  fetch: (url: string, init: RequestInit) => fetch(url, init),
  sleep: async (ms: number) => {
    sim.clock.advance(ms);
  },
  random: () => 0.5,
});

const SUMMARY = { parameters: ['summary_metrics'], preset: 'last_7d' };

/** How a rejected fetch failed. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('fetch was answered instead of rejected');
}

describe('setupSimulator: a simulator behind MSW for a test suite', () => {
  let sim: SimulatorSetup;
  beforeAll(() => {
    sim = setupSimulator({ seed: 42 });
  });
  afterEach(() => sim.reset());
  afterAll(() => sim.close());

  it('answers fetch under http://analytics.test with the seeded data, like the server does', async () => {
    expect(sim.baseUrl).toBe('http://analytics.test');
    const res = await fetch(sim.url('/v1/query/websites'), { headers: { 'x-api-key': sim.secretOf('key_acme_read') } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_[A-Za-z0-9]{16}$/);
    const body = (await res.json()) as { websites: { id: string }[] };
    expect(body.websites.map((w) => w.id)).toContain('web_acme_store');
    expect(sim.journal.list()).toMatchObject([{ method: 'GET', path: '/v1/query/websites', identity: 'apikey:key_acme_read', status: 200 }]);
  });

  it('gives the fixtures with their secrets, and says which fixture keys exist when asked for another', () => {
    const fixtures = sim.fixtures();
    expect(fixtures.seed).toBe('42');
    expect(fixtures.apiKeys.find((k) => k.id === 'key_acme_quota')).toMatchObject({ rateLimitMax: 10, secret: sim.secretOf('key_acme_quota') });
    expect(fixtures.users.map((u) => u.id)).toEqual(expect.arrayContaining(['user_alice', 'user_bob', 'user_carol']));
    expect(() => sim.secretOf('key_nope')).toThrow(/No fixture API key 'key_nope'.*key_acme_read/);
  });

  it('tests a 429 and its Retry-After by advancing the virtual clock instead of waiting', async () => {
    const headers = { 'x-api-key': sim.secretOf('key_acme_quota') }; // 10 requests per 60 s
    for (let i = 0; i < 10; i++) expect((await fetch(sim.url('/v1/query/websites'), { headers })).status).toBe(200);
    const refused = await fetch(sim.url('/v1/query/websites'), { headers });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBe(60);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED', error: 'API key rate limit exceeded', limit: 10, remaining: 0, retryAfter: 60 });

    sim.clock.advance(retryAfter * 1000 - 1);
    expect((await fetch(sim.url('/v1/query/websites'), { headers })).status).toBe(429);
    sim.clock.advance(1);
    expect((await fetch(sim.url('/v1/query/websites'), { headers })).status).toBe(200);
    expect(sim.journal.oracle()).toMatchObject({ disagreements: [], accuracy: 100 });
  });

  it('judges a client that honours Retry-After compliant and one that hammers not', async () => {
    sim.scenarios.start({ name: 'always-429', steps: [{ match: { route: '/v1/query' }, effect: { type: 'rate_limit', retryAfterSeconds: 2 } }] });
    const polite = await politeQuery(sim.baseUrl, sim.secretOf('key_acme_read'), 'web_acme_store', SUMMARY, onVirtualClock(sim));
    expect(polite).toMatchObject({ status: 429, attempts: 4 });
    expect(sim.expectRetriesCompliant().summary).toMatchObject({ chains: 1, retries: 3, violations: 0 });

    await hammeringQuery(sim.baseUrl, sim.secretOf('key_acme_read'), 'web_acme_store', SUMMARY, onVirtualClock(sim));
    expect(() => sim.expectRetriesCompliant()).toThrow(RetryComplianceError);
    expect(sim.journal.retryAudit().violations.map((v) => v.kind)).toContain('too_early');
  });

  it('holds an answer for a latency scenario’s delay with msw’s delay, and gives its concurrency slot back once it is handed over', async () => {
    const slow: ScenarioInput = { name: 'slow', steps: [{ match: { route: '/v1/query/types' }, effect: { type: 'latency', delay: { distribution: 'fixed', ms: 40 } } }] };
    sim.scenarios.start(slow);
    const started = performance.now();
    const answer = fetch(sim.url('/v1/query/types'), { headers: { 'x-api-key': sim.secretOf('key_acme_read') } });
    expect((await answer).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
    expect(sim.journal.list()[0]?.faults).toMatchObject([{ scenario: 'slow', step: 0, effect: 'latency' }]);
    const after = (await (await fetch(sim.url('/__sim/health'))).json()) as { inFlight: number };
    expect(after.inFlight).toBe(0);
    expect(sim.clock.snapshot().iso).toBe('2025-06-02T12:00:00.000Z'); // the delay is real time, the virtual clock stays
  });

  it('keeps the concurrency slot of a delayed request while its answer is held, and gives it back as soon as the client aborts', async () => {
    // Held for a minute, far past this test's timeout: the slot is held whatever the machine's speed, and only the abort frees it.
    sim.scenarios.start({ name: 'slower', steps: [{ match: { route: '/v1/query/types' }, effect: { type: 'latency', delay: { distribution: 'fixed', ms: 60_000 } } }] });
    const controller = new AbortController();
    const answer = fetch(sim.url('/v1/query/types'), { headers: { 'x-api-key': sim.secretOf('key_acme_read') }, signal: controller.signal });
    await vi.waitFor(() => expect(sim.journal.list()).toHaveLength(1), { interval: 1, timeout: 1000 });
    expect(((await (await fetch(sim.url('/__sim/health'))).json()) as { inFlight: number }).inFlight).toBe(1);
    controller.abort();
    expect(await rejection(answer)).toMatchObject({ name: 'AbortError' });
    await vi.waitFor(async () => expect(((await (await fetch(sim.url('/__sim/health'))).json()) as { inFlight: number }).inFlight).toBe(0), { interval: 1, timeout: 1000 });
  });

  it('makes fetch reject like a dropped connection for a reset scenario, and journals it as status 0', async () => {
    sim.scenarios.start({ name: 'drop', steps: [{ match: { route: '/v1/query/websites' }, effect: { type: 'reset' } }] });
    const error = await rejection(fetch(sim.url('/v1/query/websites'), { headers: { 'x-api-key': sim.secretOf('key_acme_read') } }));
    expect(error).toBeInstanceOf(TypeError);
    expect(sim.journal.list()).toMatchObject([{ path: '/v1/query/websites', outcome: 'scenario', status: 0 }]);
    expect((await fetch(sim.url('/v1/query/types'))).status).toBe(200);
  });

  it('starts from a clean state after reset: journal, limits, clock, records and scenarios', async () => {
    sim.scenarios.start('outage-window');
    sim.clock.advance(120_000);
    sim.keys.create({ name: 'temp', organizationId: 'org_acme', scopes: ['read:data'] });
    await sim.reset();
    expect(sim.journal.list()).toEqual([]);
    expect(sim.scenarios.list()).toEqual([]);
    expect(sim.clock.snapshot().iso).toBe('2025-06-02T12:00:00.000Z');
    expect(sim.keys.list().map((k) => k.name)).not.toContain('temp');
  });

  it('leaves other URLs to the network, so a real server beside it keeps answering', async () => {
    const server = createServer((_req, res) => res.end('real'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await (await fetch(`http://127.0.0.1:${port}/v1/query/types`)).text()).toBe('real');
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
    expect(sim.journal.list()).toEqual([]);
  });
});

describe('setupSimulator options', () => {
  it('runs a scenario from the start, restarted by reset', async () => {
    const sim = setupSimulator({ baseUrl: 'http://outage.test', scenario: 'outage-window' });
    try {
      sim.clock.advance(30_000);
      const res = await fetch(sim.url('/v1/query/websites'), { headers: { 'x-api-key': sim.secretOf('key_acme_read') } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      await sim.reset();
      expect(sim.scenarios.list().map((s) => s.name)).toEqual(['outage-window']);
    } finally {
      sim.close();
    }
  });

  it('answers under a base URL with a path, relative to it, and /track on a separate ingestion host', async () => {
    const sim = setupSimulator({ baseUrl: 'https://example.test/analytics/', ingestUrl: 'https://basin.example.test' });
    try {
      expect(sim.baseUrl).toBe('https://example.test/analytics');
      expect((await fetch('https://example.test/analytics/v1/query/types')).status).toBe(200);
      const tracked = await fetch('https://basin.example.test/track', {
        method: 'POST',
        headers: { authorization: `Bearer ${sim.secretOf('key_acme_track')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'signup', websiteId: 'web_acme_store' }),
      });
      expect(await tracked.json()).toEqual({ status: 'success', type: 'custom_event', count: 1 });
      expect(sim.journal.list().map((e) => e.path)).toEqual(['/v1/query/types', '/track']);
      // Outside the base path and off the ingestion host's /track, nothing is intercepted.
      expect(await rejection(fetch('https://example.test/other'))).toBeInstanceOf(TypeError);
      expect(await rejection(fetch('https://basin.example.test/v1/query/types'))).toBeInstanceOf(TypeError);
      expect(sim.journal.list()).toHaveLength(2);
    } finally {
      sim.close();
    }
  });

  it('refuses a base URL it cannot intercept', () => {
    expect(() => setupSimulator({ baseUrl: 'analytics.test' })).toThrow(/Invalid baseUrl 'analytics.test'/);
    expect(() => setupSimulator({ baseUrl: 'ftp://analytics.test' })).toThrow(/only http and https/);
    expect(() => setupSimulator({ ingestUrl: 'http://x.test/?a=1' })).toThrow(/Invalid ingestUrl/);
  });

  it('gives handlers for an MSW server of one’s own with defineSimulator', async () => {
    const { setupServer } = await import('msw/node');
    const { http, HttpResponse } = await import('msw');
    const sim = defineSimulator({ baseUrl: 'http://own.test' });
    const server = setupServer(...sim.handlers, http.get('http://other.test/ping', () => HttpResponse.text('pong')));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      expect((await fetch('http://own.test/v1/query/types')).status).toBe(200);
      expect(await (await fetch('http://other.test/ping')).text()).toBe('pong');
      expect(sim.journal.list()).toHaveLength(1);
    } finally {
      server.close();
    }
  });
});

describe('two simulators in one process', () => {
  it('share no limits, journal, clock, keys, events or scenarios', async () => {
    const one = setupSimulator({ seed: 42, baseUrl: 'http://one.test' });
    const two = setupSimulator({ seed: 42, baseUrl: 'http://two.test' });
    try {
      const quota = (sim: SimulatorSetup) => fetch(sim.url('/v1/query/websites'), { headers: { 'x-api-key': sim.secretOf('key_acme_quota') } });
      for (let i = 0; i < 10; i++) await quota(one);
      expect((await quota(one)).status).toBe(429);
      expect((await quota(two)).status).toBe(200);
      expect(one.journal.list()).toHaveLength(11);
      expect(two.journal.list()).toHaveLength(1);

      one.clock.advance(3_600_000);
      expect(two.clock.snapshot().iso).toBe('2025-06-02T12:00:00.000Z');
      one.scenarios.start('outage-window');
      expect(two.scenarios.list()).toEqual([]);
      const created = one.keys.create({ name: 'only in one', organizationId: 'org_acme', scopes: ['read:data'] });
      expect(two.keys.get(created.key.id)).toBeUndefined();
      await fetch(one.url('/track'), {
        method: 'POST',
        headers: { 'x-api-key': one.secretOf('key_acme_track'), 'content-type': 'application/json' },
        // A minute before now: queries read up to the last whole minute before now.
        body: JSON.stringify({ name: 'only_in_one', websiteId: 'web_acme_www', timestamp: Date.UTC(2025, 5, 2, 12, 59) }),
      });
      const events = async (sim: SimulatorSetup) => {
        const res = await fetch(sim.url('/v1/query?website_id=web_acme_www'), {
          method: 'POST',
          headers: { 'x-api-key': sim.secretOf('key_acme_read'), 'content-type': 'application/json' },
          body: JSON.stringify({ parameters: ['custom_events'], preset: 'today' }),
        });
        const body = (await res.json()) as { data: { data: { name: string }[] }[] };
        return body.data[0]?.data.map((row) => row.name) ?? [];
      };
      expect(await events(one)).toContain('only_in_one');
      expect(await events(two)).not.toContain('only_in_one');

      // The same request ids and bytes as a simulator that never saw the other's traffic.
      await two.reset();
      const alone = await (await fetch(two.url('/v1/query/websites'), { headers: { 'x-api-key': two.secretOf('key_acme_read') } })).text();
      one.close();
      const again = setupSimulator({ seed: 42, baseUrl: 'http://three.test' });
      try {
        expect(await (await fetch(again.url('/v1/query/websites'), { headers: { 'x-api-key': again.secretOf('key_acme_read') } })).text()).toBe(alone);
      } finally {
        again.close();
      }
      // A closed simulator's URL is no longer intercepted; the other still answers.
      expect(await rejection(fetch(one.url('/v1/query/types')))).toBeInstanceOf(TypeError);
      expect((await fetch(two.url('/v1/query/types'))).status).toBe(200);
    } finally {
      one.close();
      two.close();
    }
  });
});
