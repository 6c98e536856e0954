import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import { createSeededWorld } from '../../src/fixtures/world.js';
import { BUILT_IN_SCENARIOS } from '../../src/scenarios/registry.js';
import { createRedisStore, type RedisStore } from '../../src/store/redis-store.js';
import { call, secretOf, type CallOptions } from '../helpers/sim.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

/**
 * Several simulators sharing one Redis prefix, in one test process: each stands for a process
 * of `serve --workers N`. Everything a request can observe must be the same whichever of them
 * serves it.
 */
let redis: RedisServer;
const stores: RedisStore[] = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await startRedis({ appendonly: true });
});

afterAll(async () => {
  await Promise.allSettled(stores.map((s) => s.close()));
  await redis?.stop();
});

const BASE = { seed: 42, createWorld: createSeededWorld, catalog: BUILT_IN_SCENARIOS } as const;

/** `count` simulators on one fresh prefix, ready to serve. */
async function sharing(count: number, options: { commandTimeoutMs?: number; limits?: 'off' } = {}): Promise<Simulator[]> {
  const prefix = `shared-${process.pid}-${++prefixes}`;
  const sims = Array.from({ length: count }, () => {
    const store = createRedisStore({ url: redis.url, prefix, commandTimeoutMs: options.commandTimeoutMs ?? 2000 });
    stores.push(store);
    return createSimulator({ ...BASE, store, ...(options.limits ? { limits: options.limits } : {}) });
  });
  for (const sim of sims) await sim.ready();
  return sims;
}

const QUERY = { query: { website_id: 'web_acme_www' }, body: { parameters: ['summary_metrics'], preset: 'today' } };

describe('several processes sharing one Redis store', () => {
  it('refuses the 11th request of a quota of 10 whichever process serves it, and the merged journal is exact', async () => {
    const sims = await sharing(3);
    const key = secretOf(sims[0]!, 'key_acme_quota');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await call(sims[i % 3]!, 'GET', '/v1/query/websites', { key })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    const oracle = await call(sims[2]!, 'GET', '/__sim/journal/oracle');
    expect(oracle.json).toMatchObject({ overAdmissions: 0, underAdmissions: 0, accuracy: 100 });
    expect(oracle.json.checked).toBeGreaterThanOrEqual(12);
    const limits = await call(sims[1]!, 'GET', '/__sim/limits');
    expect(limits.json.storeReadable).toBe(true);
    expect(limits.json.keys.find((k: { id: string }) => k.id === 'key_acme_quota').quota).toMatchObject({ limit: 10, used: 10, remaining: 0 });
  });

  it('admits exactly 120 of 150 queries of one key sent 15 at a time over three processes (SPEC 8.1)', async () => {
    const sims = await sharing(3);
    const key = secretOf(sims[0]!, 'key_acme_read');
    const answers = [];
    for (let wave = 0; wave < 10; wave++) {
      answers.push(...(await Promise.all(Array.from({ length: 15 }, (_, i) => call(sims[i % 3]!, 'POST', '/v1/query', { key, ...QUERY })))));
    }
    const admitted = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 429);
    expect(admitted).toBe(120);
    expect(refused).toHaveLength(30);
    for (const answer of refused) expect(answer.headers['Retry-After']).toBe('60');
    const journal = await call(sims[1]!, 'GET', '/__sim/journal');
    expect(journal.json.entries).toHaveLength(150);
    expect(journal.json.entries.map((e: { seq: number }) => e.seq)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    const oracle = await call(sims[0]!, 'GET', '/__sim/journal/oracle');
    expect(oracle.json).toMatchObject({ overAdmissions: 0, underAdmissions: 0, accuracy: 100 });
  });

  it('moves the clock of every process when one is advanced, and the windows with it', async () => {
    const [a, b] = await sharing(2);
    const key = secretOf(a!, 'key_acme_quota');
    for (let i = 0; i < 10; i++) expect((await call(i % 2 ? a! : b!, 'GET', '/v1/query/websites', { key })).status).toBe(200);
    expect((await call(b!, 'GET', '/v1/query/websites', { key })).status).toBe(429);
    const before = (await call(b!, 'GET', '/__sim/clock')).json.now as number;
    const advanced = await call(a!, 'POST', '/__sim/clock', { body: { advanceMs: 60_000 } });
    expect(advanced.json.now).toBe(before + 60_000);
    expect((await call(b!, 'GET', '/__sim/clock')).json.now).toBe(before + 60_000);
    expect((await call(b!, 'GET', '/v1/query/websites', { key })).status).toBe(200);
  });

  it('answers a query on B with the events tracked on A', async () => {
    const [a, b] = await sharing(2);
    const read = secretOf(a!, 'key_acme_read');
    const events = async (sim: Simulator) => {
      const answer = await call(sim, 'POST', '/v1/query', {
        key: read,
        query: { website_id: 'web_acme_www' },
        body: { parameters: ['custom_events'], startDate: '2025-06-02', endDate: '2025-06-02', limit: 1000 },
      });
      return (answer.json.data[0].data as { name: string; total_events: number }[]).find((row) => row.name === 'shared_checkout')?.total_events ?? 0;
    };
    expect(await events(b!)).toBe(0);
    const batch = Array.from({ length: 7 }, (_, i) => ({ name: 'shared_checkout', timestamp: Date.UTC(2025, 5, 2, 10, i) }));
    const tracked = await call(a!, 'POST', '/track', { key: secretOf(a!, 'key_acme_track'), query: { website_id: 'web_acme_www' }, body: batch });
    expect(tracked.json).toEqual({ status: 'success', type: 'custom_event', count: 7 });
    expect(await events(b!)).toBe(7);
    expect(await events(a!)).toBe(7);
  });

  it('lets a key created on one process serve on another, and a key revoked on one be refused on all', async () => {
    const [a, b, c] = await sharing(3);
    const created = await call(a!, 'POST', '/__sim/keys', { body: { name: 'shared', organizationId: 'org_acme', scopes: ['read:data'] } });
    expect(created.status).toBe(201);
    const secret = created.json.secret as string;
    expect((await call(b!, 'GET', '/v1/query/websites', { key: secret })).status).toBe(200);
    const revoked = await call(c!, 'POST', `/__sim/keys/${created.json.key.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect((await call(b!, 'GET', '/v1/query/websites', { key: secret })).status).toBe(401);
    const audit = await call(b!, 'GET', '/__sim/audit');
    expect(audit.json.records.map((r: { kind: string }) => r.kind)).toEqual(expect.arrayContaining(['created', 'revoked']));
  });

  it('starts a scenario on one process and applies it on every other', async () => {
    const [a, b] = await sharing(2);
    const key = secretOf(a!, 'key_acme_read');
    const started = await call(a!, 'POST', '/__sim/scenarios', { body: { name: 'outage-window' } });
    expect(started.status).toBe(201);
    expect((await call(b!, 'GET', '/__sim/scenarios')).json.active.map((s: { name: string }) => s.name)).toEqual(['outage-window']);
    await call(b!, 'DELETE', '/__sim/scenarios');
    expect((await call(a!, 'GET', '/__sim/scenarios')).json.active).toEqual([]);
    expect((await call(a!, 'GET', '/v1/query/websites', { key })).status).toBe(200);
  });

  it('resets every process and the shared windows with one POST /__sim/reset', async () => {
    const [a, b] = await sharing(2);
    const key = secretOf(a!, 'key_acme_quota');
    for (let i = 0; i < 10; i++) await call(a!, 'GET', '/v1/query/websites', { key });
    await call(a!, 'POST', '/__sim/clock', { body: { advanceMs: 5_000 } });
    expect((await call(b!, 'GET', '/v1/query/websites', { key })).status).toBe(429);
    const reset = await call(b!, 'POST', '/__sim/reset');
    expect(reset.status).toBe(200);
    expect((await call(a!, 'GET', '/__sim/clock')).json.now).toBe(reset.json.clock.now);
    const first = await call(a!, 'GET', '/v1/query/websites', { key });
    expect(first.status).toBe(200);
    expect(first.headers['X-RateLimit-Remaining']).toBe('9');
    expect((await call(b!, 'GET', '/__sim/journal')).json.entries).toHaveLength(1);
  });

  it('refuses the direct mutators of the library API, which would change one process only', async () => {
    const [a] = await sharing(1);
    expect(() => a!.clock.advance(1000)).toThrow(/POST \/__sim\/clock/);
    expect(() => a!.setProfile('live')).toThrow(/PUT \/__sim\/profile/);
    expect(() => a!.keys.create({ name: 'x', organizationId: 'org_acme', scopes: ['read:data'] })).toThrow(/\/__sim\/keys/);
  });

  it('holds the concurrency cap of 20 in flight per key across processes (SPEC 8.2.2)', async () => {
    const sims = await sharing(3);
    const key = secretOf(sims[0]!, 'key_acme_read');
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => call(sims[i % 3]!, 'GET', '/v1/query/websites', { key })));
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(20);
    for (const answer of refused) expect(answer.headers['Retry-After']).toBe('1');
    const journal = (await call(sims[0]!, 'GET', '/__sim/journal')).json.entries as { inFlight: number | null; outcome: string }[];
    for (const entry of journal) {
      if (entry.outcome === 'admitted') expect(entry.inFlight).toBeLessThan(20);
      else expect(entry.inFlight).toBe(20);
    }
    expect((await call(sims[1]!, 'GET', '/__sim/health')).json.inFlight).toBe(0);

    // Overlap by construction: 20 requests keep their slots (released only below), spread over
    // the three processes; the next one is refused on every process.
    const request = { method: 'GET', path: '/v1/query/websites', query: {}, headers: { 'x-api-key': key } };
    const held = [];
    for (let i = 0; i < 20; i++) held.push(await sims[i % 3]!.handle(request, { holdSlot: true }));
    expect(held.map((r) => r.status)).toEqual(Array<number>(20).fill(200));
    for (const sim of sims) expect((await sim.handle(request, { holdSlot: true })).status).toBe(429);
    for (const response of held) response.release?.();
  });

  it('refuses to join a prefix that holds a simulator with another seed', async () => {
    await sharing(1);
    const store = createRedisStore({ url: redis.url, prefix: `shared-${process.pid}-${prefixes}` });
    stores.push(store);
    const other = createSimulator({ ...BASE, seed: 7, store });
    await expect(other.ready()).rejects.toThrow(/seed 42.*seed 7|seed 7.*seed 42/s);
  });
});

describe('the same request sequence, one process or three', () => {
  /** A sequence touching every shared part: queries, quotas and refusals, tracking, keys, the clock, a scenario. */
  const sequence = (read: string, quota: string, track: string): [string, string, CallOptions][] => [
    ['GET', '/v1/query/websites', { key: read }],
    ['POST', '/v1/query', { key: read, ...QUERY }],
    ...Array.from({ length: 11 }, (): [string, string, CallOptions] => ['GET', '/v1/query/types', { key: quota }]),
    ['POST', '/track', { key: track, query: { website_id: 'web_acme_www' }, body: [{ name: 'same', timestamp: Date.UTC(2025, 5, 2, 11, 0) }] }],
    ['POST', '/v1/query', { key: read, query: { website_id: 'web_acme_www' }, body: { parameters: ['custom_events'], preset: 'today' } }],
    ['POST', '/__sim/scenarios', { body: { name: 'flaky-5xx' } }],
    ...Array.from({ length: 12 }, (): [string, string, CallOptions] => ['GET', '/v1/query/websites', { key: read }]),
    ['DELETE', '/__sim/scenarios', {}],
    ['POST', '/__sim/clock', { body: { advanceMs: 61_000 } }],
    ['GET', '/v1/query/types', { key: quota }],
    ['POST', '/__sim/keys', { body: { name: 'seq', organizationId: 'org_acme', scopes: ['read:data'] } }],
    ['GET', '/v1/query', { key: read }],
    ['GET', '/nowhere', { key: read }],
  ];

  it('gives the same status, headers and bytes in order from one memory process as from three sharing Redis', async () => {
    const memory = createSimulator(BASE);
    const shared = await sharing(3);
    const keys = (sim: Simulator) => [secretOf(sim, 'key_acme_read'), secretOf(sim, 'key_acme_quota'), secretOf(sim, 'key_acme_track')] as const;
    const steps = sequence(...keys(memory));
    const one: unknown[] = [];
    const three: unknown[] = [];
    for (const [i, [method, path, options]] of steps.entries()) {
      const a = await call(memory, method, path, options);
      const b = await call(shared[i % 3]!, method, path, options);
      one.push({ status: a.status, headers: a.headers, text: a.text });
      three.push({ status: b.status, headers: b.headers, text: b.text });
    }
    expect(three).toEqual(one);
    expect((one as { status: number }[]).some((a) => a.status === 429)).toBe(true);
  });
});

describe('when Redis goes away', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After 5, recovers by itself within 5 s, and keeps every acknowledged event', async () => {
    const [a, b] = await sharing(2, { commandTimeoutMs: 800 });
    const track = secretOf(a!, 'key_acme_track');
    const read = secretOf(a!, 'key_acme_read');
    const tracked = await call(a!, 'POST', '/track', { key: track, query: { website_id: 'web_acme_www' }, body: [{ name: 'kept', timestamp: Date.UTC(2025, 5, 2, 9, 0) }] });
    expect(tracked.status).toBe(200);

    await redis.stop();
    const down = await call(b!, 'POST', '/v1/query', { key: read, ...QUERY });
    expect(down.status).toBe(503);
    expect(down.headers['Retry-After']).toBe('5');
    expect(down.json.code).toBe('SERVICE_UNAVAILABLE');
    expect((await call(a!, 'POST', '/track', { key: track, query: { website_id: 'web_acme_www' }, body: [{ name: 'kept' }] })).status).toBe(503);

    await redis.restart();
    const restartedAt = Date.now();
    let answer = await call(b!, 'POST', '/v1/query', { key: read, query: { website_id: 'web_acme_www' }, body: { parameters: ['custom_events'], startDate: '2025-06-02', endDate: '2025-06-02' } });
    while (answer.status === 503 && Date.now() - restartedAt < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await call(b!, 'POST', '/v1/query', { key: read, query: { website_id: 'web_acme_www' }, body: { parameters: ['custom_events'], startDate: '2025-06-02', endDate: '2025-06-02' } });
    }
    expect(answer.status).toBe(200);
    expect((answer.json.data[0].data as { name: string; total_events: number }[]).find((row) => row.name === 'kept')?.total_events).toBe(1);
  });
});
