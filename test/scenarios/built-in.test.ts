import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_IN_SCENARIOS, createSimulator, type Simulator } from '../../src/index.js';
import { secretOf } from '../helpers/sim.js';
import {
  burst,
  DROPPED,
  errorHeaders,
  hit,
  idOf,
  median,
  moveTo,
  requestFor,
  send,
  share,
  startOverControlPlane,
  stopOverControlPlane,
  SERVICE_UNAVAILABLE_MESSAGE,
  type Hit,
  type Target,
} from './support.js';

const T0 = Date.UTC(2025, 5, 2, 12);
const API_TARGETS: readonly Target[] = ['websites', 'types', 'query', 'compile'];
const CONTROL_TARGETS: readonly Target[] = ['health', 'clock', 'scenarios'];

/** A simulator with seed 42 and, optionally, scenarios running from the start. */
function simulator(scenarios: string[] = []): Simulator {
  return createSimulator({ seed: 42, scenarios });
}

/** Starts a built-in by name over POST /__sim/scenarios and checks it was started. */
async function startByName(sim: Simulator, name: string): Promise<void> {
  const started = await startOverControlPlane(sim, { name });
  expect(started.status).toBe(201);
  expect(started.json.started).toMatchObject({ name, startedAt: sim.clock.now() });
}

/** Every control-plane route answers 200 without delay, drop or rate-limit headers. */
async function expectControlPlaneUntouched(sim: Simulator, times = 10): Promise<void> {
  for (let i = 0; i < times; i++) {
    for (const target of CONTROL_TARGETS) {
      const h = await hit(sim, requestFor(target));
      expect(h.status, `${target}`).toBe(200);
      expect(h.delayMs).toBeUndefined();
      expect(h.abort).toBeUndefined();
      expect(h.headers['Retry-After']).toBeUndefined();
      expect(h.headers['X-RateLimit-Limit']).toBeUndefined();
    }
  }
}

/** True when an answer is exactly what the simulator answers without any scenario. */
const untouched = (h: Hit): boolean => h.status === 200 && h.delayMs === undefined && h.abort === undefined;

/** Sends `count` requests to `target`, advancing the clock `stepMs` before each, cycling through keys. */
async function spread(sim: Simulator, count: number, target: Target, stepMs: number, keys: readonly string[]): Promise<Hit[]> {
  const out: Hit[] = [];
  for (let i = 0; i < count; i++) {
    sim.clock.advance(stepMs);
    out.push(await send(sim, target, keys[i % keys.length]));
  }
  return out;
}

const is429 = (h: Hit): boolean => h.status === 429;
const is503 = (h: Hit): boolean => h.status === 503;

let held: (() => void)[] = [];
afterEach(() => {
  for (const release of held) release();
  held = [];
});

describe('the built-in catalog', () => {
  it('has the eight documented scenarios, each with a description', () => {
    expect(BUILT_IN_SCENARIOS.map((s) => s.name)).toEqual([
      'steady',
      'rate-limit-storm',
      'outage-window',
      'flaky-5xx',
      'slow-tail',
      'concurrency-squeeze',
      'brownout',
      'quota-crunch',
    ]);
    for (const s of BUILT_IN_SCENARIOS) expect(s.description.length).toBeGreaterThan(20);
  });
});

describe('steady', () => {
  it('adds nothing before it starts, then gives every API answer a log-normal delay of about 30 ms, at most 200 ms, without failures', async () => {
    const sim = simulator();
    sim.clock.advance(5000);
    for (const target of API_TARGETS) expect(untouched(await send(sim, target)), target).toBe(true);

    await startByName(sim, 'steady');
    const atStart = await send(sim, 'websites');
    expect(atStart.status).toBe(200);
    expect(atStart.delayMs).toBeGreaterThan(0);

    const hits: Hit[] = [];
    for (const target of API_TARGETS) hits.push(...(await spread(sim, 100, target, 600, ['key_acme_read', 'key_acme_all'])));
    expect(hits.every((h) => h.status === 200)).toBe(true);
    const delays = hits.map((h) => h.delayMs ?? 0);
    expect(Math.min(...delays)).toBeGreaterThan(0);
    expect(Math.max(...delays)).toBeLessThanOrEqual(200);
    expect(median(delays)).toBeGreaterThanOrEqual(26);
    expect(median(delays)).toBeLessThanOrEqual(34);
    // sigma 0.3: about 95% lie within a factor e^0.6 of the median (16 to 55 ms).
    expect(share(hits, (h) => (h.delayMs as number) >= 16 && (h.delayMs as number) <= 55)).toBeGreaterThan(0.9);
  });

  it('has no end: a day later answers are still delayed, until the scenario is stopped', async () => {
    const sim = simulator(['steady']);
    sim.clock.advance(86_400_000);
    const late = await send(sim, 'query');
    expect(late.status).toBe(200);
    expect(late.delayMs).toBeGreaterThan(0);
    expect((await stopOverControlPlane(sim, 'steady')).json).toEqual({ stopped: ['steady'] });
    for (const target of API_TARGETS) expect(untouched(await send(sim, target)), target).toBe(true);
  });

  it('delays anonymous API requests too but never the control plane', async () => {
    const sim = simulator(['steady']);
    const anonymous = await hit(sim, requestFor('types'));
    expect(anonymous.status).toBe(200);
    expect(anonymous.delayMs).toBeGreaterThan(0);
    await expectControlPlaneUntouched(sim);
  });
});

describe('rate-limit-storm', () => {
  it('refuses nothing just before 10 s, some requests to both query routes from 10 s until just before 70 s, and nothing from 70 s', async () => {
    const sim = simulator(['rate-limit-storm']);
    const check = async (at: number): Promise<{ query: Hit[]; compile: Hit[] }> => {
      moveTo(sim, T0 + at);
      return { query: await burst(sim, 30, 'query'), compile: await burst(sim, 30, 'compile') };
    };
    const before = await check(9_999);
    expect(before.query.every(untouched)).toBe(true);
    expect(before.compile.every(untouched)).toBe(true);
    for (const at of [10_000, 69_999]) {
      const during = await check(at);
      expect(during.query.some(is429), `query at ${at}`).toBe(true);
      expect(during.compile.some(is429), `compile at ${at}`).toBe(true);
      expect([...during.query, ...during.compile].every((h) => h.status === 200 || h.status === 429)).toBe(true);
    }
    const after = await check(70_000);
    expect(after.query.every(untouched)).toBe(true);
    expect(after.compile.every(untouched)).toBe(true);
  });

  it('answers with the SPEC 8.4 body, Retry-After: 2 and the route limit (120 for /v1/query, 300 for compile)', async () => {
    const sim = simulator(['rate-limit-storm']);
    moveTo(sim, T0 + 30_000);
    const now = sim.clock.now();
    for (const [target, limit] of [['query', 120], ['compile', 300]] as const) {
      const refused = (await burst(sim, 20, target)).find(is429);
      expect(refused, target).toBeDefined();
      const r = refused as Hit;
      expect(r.json).toEqual({
        success: false,
        error: 'Rate limit exceeded',
        code: 'RATE_LIMITED',
        requestId: idOf(r),
        limit,
        remaining: 0,
        reset: now + 2000,
        retryAfter: 2,
      });
      expect(r.headers).toEqual(
        errorHeaders(idOf(r), {
          'Retry-After': '2',
          'X-RateLimit-Limit': String(limit),
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(now + 2000),
        }),
      );
      expect(r.delayMs).toBeUndefined();
    }
  });

  it('refuses about 60% of the requests to each query route during the storm', async () => {
    const sim = simulator(['rate-limit-storm']);
    moveTo(sim, T0 + 10_000);
    const keys = ['key_acme_read', 'key_acme_all', 'key_globex_read'];
    const query = await spread(sim, 300, 'query', 150, keys);
    expect(sim.clock.now()).toBeLessThan(T0 + 70_000);
    const compileSim = simulator(['rate-limit-storm']);
    moveTo(compileSim, T0 + 10_000);
    const compile = await spread(compileSim, 300, 'compile', 150, keys);
    for (const [name, hits] of [['query', query], ['compile', compile]] as const) {
      expect(hits.every((h) => h.status === 200 || h.status === 429), name).toBe(true);
      const refused = share(hits, is429);
      expect(refused, name).toBeGreaterThan(0.5);
      expect(refused, name).toBeLessThan(0.7);
    }
  });

  it('reports the route limit of an anonymous caller (60 for POST /v1/query) in its 429', async () => {
    const sim = simulator(['rate-limit-storm']);
    moveTo(sim, T0 + 30_000);
    const now = sim.clock.now();
    const hits: Hit[] = [];
    for (let i = 0; i < 20; i++) {
      hits.push(
        await hit(sim, {
          method: 'POST',
          path: '/v1/query',
          query: { website_id: 'web_acme_blog' },
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ parameters: ['summary_metrics'], preset: 'today' }),
        }),
      );
    }
    expect(hits.filter((h) => h.status === 200).length).toBeGreaterThan(0);
    const refused = hits.find(is429) as Hit;
    expect(refused.json).toEqual({
      success: false,
      error: 'Rate limit exceeded',
      code: 'RATE_LIMITED',
      requestId: idOf(refused),
      limit: 60,
      remaining: 0,
      reset: now + 2000,
      retryAfter: 2,
    });
    expect(refused.headers['X-RateLimit-Limit']).toBe('60');
  });

  it('leaves GET /v1/query/websites, GET /v1/query/types and the control plane alone during the storm', async () => {
    const sim = simulator(['rate-limit-storm']);
    moveTo(sim, T0 + 40_000);
    expect((await burst(sim, 100, 'websites')).every(untouched)).toBe(true);
    expect((await burst(sim, 100, 'types')).every(untouched)).toBe(true);
    await expectControlPlaneUntouched(sim);
  });
});

describe('outage-window', () => {
  it('answers every /v1/ request with 503 from 30 s until just before 90 s, and normally just before and from 90 s', async () => {
    const sim = simulator(['outage-window']);
    const all = async (): Promise<Hit[]> => {
      const out: Hit[] = [];
      for (const target of [...API_TARGETS, 'unknown'] as const) out.push(await send(sim, target));
      out.push(await hit(sim, requestFor('types')));
      return out;
    };
    moveTo(sim, T0 + 29_999);
    const before = await all();
    expect(before.map((h) => h.status)).toEqual([200, 200, 200, 200, 404, 200]);
    for (const at of [30_000, 60_000, 89_999]) {
      moveTo(sim, T0 + at);
      expect((await all()).map((h) => h.status), `at ${at}`).toEqual([503, 503, 503, 503, 503, 503]);
    }
    moveTo(sim, T0 + 90_000);
    expect((await all()).map((h) => h.status)).toEqual([200, 200, 200, 200, 404, 200]);
  });

  it('sends 503 SERVICE_UNAVAILABLE with Retry-After: 5 and the SPEC 7.1 body, without delay', async () => {
    const sim = simulator(['outage-window']);
    moveTo(sim, T0 + 30_000);
    for (const target of API_TARGETS) {
      const h = await send(sim, target);
      expect(h.json, target).toEqual({ success: false, error: SERVICE_UNAVAILABLE_MESSAGE, code: 'SERVICE_UNAVAILABLE', requestId: idOf(h) });
      expect(h.headers).toEqual(errorHeaders(idOf(h), { 'Retry-After': '5' }));
      expect(h.delayMs).toBeUndefined();
    }
  });

  it('answers 503 to every request of a key with a quota of its own (10 per 60 s) too, never its quota 429', async () => {
    const sim = simulator(['outage-window']);
    moveTo(sim, T0 + 30_000);
    const hits = await burst(sim, 15, 'websites', 'key_acme_quota');
    expect(hits.map((h) => h.status)).toEqual(Array.from({ length: 15 }, () => 503));
    expect(hits.every((h) => h.headers['Retry-After'] === '5')).toBe(true);
  });

  it('keeps the control plane working during the outage and reports the step pending, active, then done', async () => {
    const sim = createSimulator({ seed: 42 });
    sim.clock.advance(1000);
    await startByName(sim, 'outage-window');
    const start = sim.clock.now();
    const stateAt = async (at: number): Promise<string> => {
      moveTo(sim, start + at);
      const listing = await hit(sim, requestFor('scenarios'));
      return listing.json.active[0].steps[0].state as string;
    };
    expect(await stateAt(29_999)).toBe('pending');
    expect((await send(sim, 'websites')).status).toBe(200);
    expect(await stateAt(30_000)).toBe('active');
    expect((await send(sim, 'websites')).status).toBe(503);
    await expectControlPlaneUntouched(sim);
    expect(await stateAt(89_999)).toBe('active');
    expect(await stateAt(90_000)).toBe('done');
    expect((await send(sim, 'websites')).status).toBe(200);
  });
});

describe('flaky-5xx', () => {
  it('fails nothing before it starts and about 8% with 500, 1.8% with 502 and 0.9% with resets while it runs', async () => {
    const sim = simulator();
    expect((await burst(sim, 200, 'websites')).every(untouched)).toBe(true);
    await startByName(sim, 'flaky-5xx');
    const atStart = await burst(sim, 100, 'websites');
    expect(atStart.some((h) => h.status !== 200)).toBe(true);

    const hits = await burst(sim, 2000, 'websites');
    expect(hits.every((h) => [0, 200, 500, 502].includes(h.status))).toBe(true);
    // 8% get 500; of the rest 2% get 502, and of the rest 1% are reset.
    const internal = share(hits, (h) => h.status === 500);
    const gateway = share(hits, (h) => h.status === 502);
    const resets = share(hits, (h) => h.abort === true);
    expect(internal).toBeGreaterThan(0.06);
    expect(internal).toBeLessThan(0.1);
    expect(gateway).toBeGreaterThan(0.009);
    expect(gateway).toBeLessThan(0.03);
    expect(resets).toBeGreaterThan(0.003);
    expect(resets).toBeLessThan(0.018);
    const failed = share(hits, (h) => h.status !== 200);
    expect(failed).toBeGreaterThan(0.085);
    expect(failed).toBeLessThan(0.13);
  });

  it('answers 500 and 502 with the SPEC 7.1 body and the scenario code, and resets with status 0 and abort', async () => {
    const sim = simulator(['flaky-5xx']);
    const hits = await burst(sim, 1000, 'websites');
    const internal = hits.find((h) => h.status === 500) as Hit;
    const gateway = hits.find((h) => h.status === 502) as Hit;
    const reset = hits.find((h) => h.abort === true) as Hit;
    expect(internal.json).toEqual({
      success: false,
      error: 'Something went wrong on our side. Try again in a moment.',
      code: 'INTERNAL_SERVER_ERROR',
      requestId: idOf(internal),
    });
    expect(internal.headers).toEqual(errorHeaders(idOf(internal)));
    expect(gateway.json).toEqual({
      success: false,
      error: 'The upstream service did not answer. Try again in a moment.',
      code: 'BAD_GATEWAY',
      requestId: idOf(gateway),
    });
    expect(gateway.headers).toEqual(errorHeaders(idOf(gateway)));
    expect({ status: reset.status, headers: reset.headers, body: reset.body, abort: reset.abort }).toEqual(DROPPED);
    for (const h of [internal, gateway, reset]) expect(h.delayMs).toBeUndefined();
  });

  it('fails requests to every /v1/ route, keeps failing a day later, never touches the control plane, and stops when stopped', async () => {
    const sim = simulator(['flaky-5xx']);
    const query = await spread(sim, 300, 'query', 1000, ['key_acme_read']);
    const compile = await spread(sim, 300, 'compile', 250, ['key_acme_read']);
    for (const hits of [query, compile]) {
      expect(hits.some((h) => h.status === 500)).toBe(true);
      expect(share(hits, (h) => h.status !== 200)).toBeGreaterThan(0.05);
    }
    await expectControlPlaneUntouched(sim, 100);
    sim.clock.advance(86_400_000);
    expect((await burst(sim, 200, 'websites')).some((h) => h.status !== 200)).toBe(true);
    await stopOverControlPlane(sim, 'flaky-5xx');
    expect((await burst(sim, 300, 'websites')).every(untouched)).toBe(true);
  });
});

describe('slow-tail', () => {
  it('delays nothing before it starts, then /v1/query by a log-normal time (median about 50 ms, capped at 5 s) with 2% 3 s stragglers', async () => {
    const sim = simulator();
    expect((await burst(sim, 10, 'query')).every(untouched)).toBe(true);
    await startByName(sim, 'slow-tail');
    const hits = await spread(sim, 800, 'query', 300, ['key_acme_read', 'key_acme_all']);
    expect(hits.every((h) => h.status === 200 && h.abort === undefined)).toBe(true);
    const delays = hits.map((h) => h.delayMs ?? 0);
    expect(median(delays)).toBeGreaterThanOrEqual(42);
    expect(median(delays)).toBeLessThanOrEqual(60);
    expect(Math.max(...delays)).toBeLessThanOrEqual(5000 + 3000);
    // p99 of the log-normal part is about 800 ms: below 1% + 2% of stragglers go over it.
    expect(share(hits, (h) => (h.delayMs ?? 0) > 900)).toBeLessThan(0.05);
    const stragglers = share(hits, (h) => (h.delayMs ?? 0) >= 3000);
    expect(stragglers).toBeGreaterThan(0.005);
    expect(stragglers).toBeLessThan(0.045);
  });

  it('leaves /v1/query/compile, the other /v1/ routes and the control plane without delay', async () => {
    const sim = simulator(['slow-tail']);
    const delayed = await spread(sim, 20, 'query', 1000, ['key_acme_read']);
    expect(delayed.every((h) => (h.delayMs ?? 0) > 0)).toBe(true);
    expect((await spread(sim, 100, 'compile', 100, ['key_acme_read'])).every(untouched)).toBe(true);
    expect((await burst(sim, 50, 'websites')).every(untouched)).toBe(true);
    expect((await burst(sim, 50, 'types')).every(untouched)).toBe(true);
    await expectControlPlaneUntouched(sim);
  });

  it('keeps delaying a day later and stops delaying when stopped', async () => {
    const sim = simulator(['slow-tail']);
    sim.clock.advance(86_400_000);
    expect((await send(sim, 'query')).delayMs).toBeGreaterThan(0);
    await stopOverControlPlane(sim);
    expect(untouched(await send(sim, 'query'))).toBe(true);
  });
});

describe('concurrency-squeeze', () => {
  /** Holds `count` in-flight slots of a key with GET /v1/query/websites. */
  async function hold(sim: Simulator, count: number, keyId = 'key_acme_read'): Promise<Hit[]> {
    const out: Hit[] = [];
    for (let i = 0; i < count; i++) {
      const h = await hit(sim, requestFor('websites', secretOf(sim, keyId)), true);
      if (h.release) held.push(h.release);
      out.push(h);
    }
    return out;
  }
  const releaseAll = (): void => {
    for (const release of held.splice(0)) release();
  };

  it('keeps the cap at 20 and answers without delay just before it starts', async () => {
    const sim = simulator();
    sim.clock.advance(1000);
    const twenty = await hold(sim, 20);
    expect(twenty.every(untouched)).toBe(true);
    const refused = await hit(sim, requestFor('websites', secretOf(sim, 'key_acme_read')), true);
    expect(refused.status).toBe(429);
    expect(refused.json.limit).toBe(20);
    releaseAll();
    await startByName(sim, 'concurrency-squeeze');
    const five = await hold(sim, 5);
    expect(five.every((h) => h.status === 200)).toBe(true);
    expect((await hold(sim, 1))[0]?.status).toBe(429);
  });

  it('refuses the 6th request in flight on one key with 429 limit 5 and Retry-After: 1, and delays every /v1/ answer by 200 ms', async () => {
    const sim = simulator(['concurrency-squeeze']);
    const five = await hold(sim, 5);
    for (const h of five) {
      expect(h.status).toBe(200);
      expect(h.delayMs).toBe(200);
    }
    const now = sim.clock.now();
    const [sixth] = (await hold(sim, 1)) as [Hit];
    expect(sixth.status).toBe(429);
    expect(sixth.json).toEqual({
      success: false,
      error: 'Too many concurrent API key requests',
      code: 'RATE_LIMITED',
      requestId: idOf(sixth),
      limit: 5,
      remaining: 0,
      reset: now + 1000,
      retryAfter: 1,
    });
    expect(sixth.headers).toEqual(
      errorHeaders(idOf(sixth), {
        'Retry-After': '1',
        'X-RateLimit-Limit': '5',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(now + 1000),
      }),
    );
    expect(sixth.delayMs).toBe(200);

    // Another key has its own 5 slots.
    expect((await hold(sim, 5, 'key_globex_read')).every((h) => h.status === 200)).toBe(true);
    // Once a slot is given back, the key is admitted again.
    five[0]?.release?.();
    expect((await hold(sim, 1))[0]?.status).toBe(200);
    expect((await hold(sim, 1))[0]?.status).toBe(429);
  });

  it('still caps at 5 just before 120 s and goes back to 20 without delay at 120 s', async () => {
    const sim = simulator(['concurrency-squeeze']);
    moveTo(sim, T0 + 119_999);
    expect((await hold(sim, 5)).every((h) => h.status === 200 && h.delayMs === 200)).toBe(true);
    const refused = (await hold(sim, 1))[0] as Hit;
    expect(refused.status).toBe(429);
    expect(refused.json.limit).toBe(5);
    moveTo(sim, T0 + 120_000);
    const more = await hold(sim, 15);
    expect(more.every(untouched)).toBe(true);
    const twentyFirst = (await hold(sim, 1))[0] as Hit;
    expect(twentyFirst.status).toBe(429);
    expect(twentyFirst.json.limit).toBe(20);
    expect(twentyFirst.delayMs).toBeUndefined();
  });

  it('delays every /v1/ route but not the control plane', async () => {
    const sim = simulator(['concurrency-squeeze']);
    for (const target of API_TARGETS) {
      const h = await send(sim, target);
      expect(h.status, target).toBe(200);
      expect(h.delayMs, target).toBe(200);
    }
    expect((await hit(sim, requestFor('types'))).delayMs).toBe(200);
    await hold(sim, 5);
    await expectControlPlaneUntouched(sim);
    const health = await hit(sim, requestFor('health'));
    expect(health.json.inFlight).toBe(5);
  });
});

describe('brownout', () => {
  const RATE_LIMIT_FOR_QUERY = 120;

  it('follows its timeline: latency from 0 to 100 s, 503s from 20 s to 80 s, 429s from 40 s to 100 s', async () => {
    const sim = simulator();
    sim.clock.advance(1000);
    expect((await burst(sim, 60, 'websites')).every(untouched)).toBe(true);
    await startByName(sim, 'brownout');
    const start = sim.clock.now();
    const at = async (offset: number): Promise<Hit[]> => {
      moveTo(sim, start + offset);
      return burst(sim, 60, 'websites');
    };
    const inRange = (h: Hit): boolean => h.delayMs !== undefined && h.delayMs >= 100 && h.delayMs <= 400;

    const expectations: [number, { latency: boolean; outage: boolean; shed: boolean }][] = [
      [0, { latency: true, outage: false, shed: false }],
      [19_999, { latency: true, outage: false, shed: false }],
      [20_000, { latency: true, outage: true, shed: false }],
      [39_999, { latency: true, outage: true, shed: false }],
      [40_000, { latency: true, outage: true, shed: true }],
      [79_999, { latency: true, outage: true, shed: true }],
      [80_000, { latency: true, outage: false, shed: true }],
      [99_999, { latency: true, outage: false, shed: true }],
      [100_000, { latency: false, outage: false, shed: false }],
    ];
    for (const [offset, want] of expectations) {
      const hits = await at(offset);
      expect(hits.every(want.latency ? inRange : (h) => h.delayMs === undefined), `latency at ${offset}`).toBe(true);
      expect(hits.some(is503), `503 at ${offset}`).toBe(want.outage);
      expect(hits.some(is429), `429 at ${offset}`).toBe(want.shed);
      expect(hits.every((h) => [200, 429, 503].includes(h.status))).toBe(true);
    }
  });

  it('gives about 20% 503, then 20% 503 and 20% 429 where both apply, then 25% 429, all delayed 100 to 400 ms', async () => {
    const sim = simulator(['brownout']);
    const keys = ['key_acme_read', 'key_acme_all', 'key_globex_read'];
    moveTo(sim, T0 + 20_000);
    const outageOnly = await spread(sim, 500, 'websites', 39, keys);
    moveTo(sim, T0 + 40_000);
    const both = await spread(sim, 500, 'websites', 79, keys);
    moveTo(sim, T0 + 80_000);
    const shedOnly = await spread(sim, 500, 'websites', 39, keys);
    expect(sim.clock.now()).toBeLessThan(T0 + 100_000);

    const band = (value: number, centre: number): void => {
      expect(value).toBeGreaterThan(centre - 0.06);
      expect(value).toBeLessThan(centre + 0.06);
    };
    band(share(outageOnly, is503), 0.2);
    expect(outageOnly.some(is429)).toBe(false);
    band(share(both, is503), 0.2);
    band(share(both, is429), 0.8 * 0.25);
    band(share(shedOnly, is429), 0.25);
    expect(shedOnly.some(is503)).toBe(false);

    const all = [...outageOnly, ...both, ...shedOnly];
    const delays = all.map((h) => h.delayMs ?? -1);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...delays)).toBeLessThanOrEqual(400);
    const mean = delays.reduce((a, b) => a + b, 0) / delays.length;
    expect(mean).toBeGreaterThan(235);
    expect(mean).toBeLessThan(265);
  });

  it('answers 503 with Retry-After: 5 and 429 with Retry-After: 3, and the 503 wins where both steps draw', async () => {
    const sim = simulator(['brownout']);
    moveTo(sim, T0 + 50_000);
    const now = sim.clock.now();
    const hits: Hit[] = [];
    for (let i = 0; i < 60; i++) hits.push(await send(sim, 'query', i % 2 === 0 ? 'key_acme_read' : 'key_acme_all'));
    const outage = hits.find(is503) as Hit;
    expect(outage.json).toEqual({ success: false, error: SERVICE_UNAVAILABLE_MESSAGE, code: 'SERVICE_UNAVAILABLE', requestId: idOf(outage) });
    expect(outage.headers).toEqual(errorHeaders(idOf(outage), { 'Retry-After': '5' }));
    const shed = hits.find(is429) as Hit;
    expect(shed.json).toEqual({
      success: false,
      error: 'Rate limit exceeded',
      code: 'RATE_LIMITED',
      requestId: idOf(shed),
      limit: RATE_LIMIT_FOR_QUERY,
      remaining: 0,
      reset: now + 3000,
      retryAfter: 3,
    });
    expect(shed.headers).toEqual(
      errorHeaders(idOf(shed), {
        'Retry-After': '3',
        'X-RateLimit-Limit': String(RATE_LIMIT_FOR_QUERY),
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(now + 3000),
      }),
    );

    // The journal names the steps that drew: wherever both refusing steps did, the answer is the 503.
    await burst(sim, 400, 'websites');
    const entries = sim.journal.list();
    const bothDrew = entries.filter((e) => e.faults.some((f) => f.effect === 'outage') && e.faults.some((f) => f.effect === 'rate_limit'));
    expect(bothDrew.length).toBeGreaterThan(0);
    expect(bothDrew.every((e) => e.status === 503)).toBe(true);
  });

  it('never touches the control plane', async () => {
    const sim = simulator(['brownout']);
    moveTo(sim, T0 + 50_000);
    await expectControlPlaneUntouched(sim, 50);
  });
});

describe('quota-crunch', () => {
  /** Sends 21 requests across routes at the current instant; returns them. */
  async function twentyOne(sim: Simulator, keyId: string): Promise<Hit[]> {
    const out: Hit[] = [];
    const targets: Target[] = ['websites', 'types', 'query', 'compile'];
    for (let i = 0; i < 21; i++) out.push(await send(sim, targets[i % targets.length] as Target, keyId));
    return out;
  }

  it('gives no quota to a key without one before it starts, then 20 per 60 s across routes, with the 21st refused', async () => {
    const sim = simulator();
    sim.clock.advance(1000);
    const before = await burst(sim, 25, 'websites');
    expect(before.every(untouched)).toBe(true);
    expect(before.every((h) => h.headers['X-RateLimit-Limit'] === undefined)).toBe(true);

    await startByName(sim, 'quota-crunch');
    const start = sim.clock.now();
    const hits = await twentyOne(sim, 'key_acme_read');
    hits.slice(0, 20).forEach((h, i) => {
      expect(h.status).toBe(200);
      expect(h.headers['X-RateLimit-Limit']).toBe('20');
      expect(h.headers['X-RateLimit-Remaining']).toBe(String(19 - i));
      expect(h.headers['X-RateLimit-Reset']).toBe(String(start + 60_000));
    });
    const refused = hits[20] as Hit;
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({
      success: false,
      error: 'API key rate limit exceeded',
      code: 'RATE_LIMITED',
      requestId: idOf(refused),
      limit: 20,
      remaining: 0,
      reset: start + 60_000,
      retryAfter: 60,
    });
    expect(refused.headers).toEqual(
      errorHeaders(idOf(refused), {
        'Retry-After': '60',
        'X-RateLimit-Limit': '20',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(start + 60_000),
      }),
    );
    // Another key has its own 20.
    expect((await twentyOne(sim, 'key_acme_all')).map((h) => h.status).filter((s) => s === 429)).toHaveLength(1);
  });

  it('still applies just before 120 s and is gone at 120 s', async () => {
    const sim = simulator(['quota-crunch']);
    moveTo(sim, T0 + 119_999);
    const late = await twentyOne(sim, 'key_acme_read');
    expect(late.slice(0, 20).every((h) => h.status === 200 && h.headers['X-RateLimit-Limit'] === '20')).toBe(true);
    expect(late[20]?.status).toBe(429);
    expect(late[20]?.json.reset).toBe(T0 + 119_999 + 60_000);
    moveTo(sim, T0 + 120_000);
    const after = await burst(sim, 30, 'websites');
    expect(after.every(untouched)).toBe(true);
    expect(after.every((h) => h.headers['X-RateLimit-Limit'] === undefined)).toBe(true);
  });

  it('replaces the own quota of a key that has one (10 per 60 s) with 20 per 60 s', async () => {
    const sim = simulator(['quota-crunch']);
    const hits = await twentyOne(sim, 'key_acme_quota');
    expect(hits.slice(0, 20).every((h) => h.status === 200 && h.headers['X-RateLimit-Limit'] === '20')).toBe(true);
    expect(hits[20]?.status).toBe(429);
    expect(hits[20]?.json.limit).toBe(20);
  });

  it('leaves dashboard sessions, anonymous requests and the control plane without a quota', async () => {
    const sim = simulator(['quota-crunch']);
    const fixtures = sim.fixtures() as { users: { id: string; sessionToken: string | null }[] };
    const token = fixtures.users.find((u) => u.id === 'user_alice')?.sessionToken as string;
    const session = { cookie: `databuddy.session_token=${token}` };
    for (let i = 0; i < 30; i++) {
      const h = await hit(sim, { method: 'GET', path: '/v1/query/websites', query: {}, headers: session });
      expect(h.status).toBe(200);
      expect(h.headers['X-RateLimit-Limit']).toBeUndefined();
    }
    const anonymous: Hit[] = [];
    for (let i = 0; i < 30; i++) anonymous.push(await hit(sim, requestFor('types')));
    expect(anonymous.every(untouched)).toBe(true);
    await expectControlPlaneUntouched(sim, 30);
  });
});
