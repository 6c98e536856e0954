import { afterAll, describe, expect, it } from 'vitest';
import { createTcpProxy } from '../../load/faults/tcp-proxy.js';
import { createSimulator } from '../../src/index.js';
import { createSeededWorld } from '../../src/fixtures/world.js';
import { createRedisStore } from '../../src/store/redis-store.js';
import { startRedis } from '../helpers/redis-server.js';
import { call, secretOf } from '../helpers/sim.js';

/**
 * A slow Redis (every answer late, none lost) must not make a request wait one slow answer per
 * step: after a command answered later than the store's bound, it refuses at once for a while,
 * so a request waits for one slow call at most (a step after it is refused at once, 503 with
 * Retry-After) and the requests after it are answered 503 at once. A TCP proxy in front
 * of Redis holds every byte 300 ms each way, so each answer is at least 600 ms late against a
 * bound of 400 ms; the guard lasts an hour of the guard's own clock, which the test moves past.
 */
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

describe('a Redis store that answers slowly', () => {
  it('answers the request that met a slow answer with what Redis said, then refuses at once with 503 and Retry-After while its guard is open, and serves again after it', async () => {
    const redis = await startRedis();
    closers.push(() => redis.stop());
    const proxy = await createTcpProxy(redis.port);
    closers.push(() => proxy.close());
    let skipped = 0;
    const store = createRedisStore({
      url: `redis://127.0.0.1:${proxy.port}`,
      prefix: `slow-${process.pid}`,
      commandTimeoutMs: 10_000,
      slowCallMs: 400,
      slowGuardMs: 3_600_000,
      now: () => Date.now() + skipped,
    });
    closers.push(() => store.close());
    const sim = createSimulator({ seed: 42, createWorld: createSeededWorld, store });
    await sim.ready();
    const key = secretOf(sim, 'key_acme_read');
    const query = () => call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_store' }, body: { parameters: ['summary_metrics'], preset: 'today' } });
    expect((await query()).status).toBe(200);

    // One slow round trip takes the request's slot and endpoint window: its answer stands.
    proxy.setDelay(300);
    const slow = await query();
    expect(slow.status).toBe(200);
    proxy.setDelay(0);

    // The guard is open: Redis is not asked, even though it answers fast again.
    const refused = await query();
    expect(refused.status).toBe(503);
    expect(refused.json.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(0);
    skipped += 3_600_001;
    expect((await query()).status).toBe(200);
    // The slow request's journal entry, refused by the open guard, was appended once Redis answered again.
    const journal = (await call(sim, 'GET', '/__sim/journal')).json;
    expect(journal.entries.map((e: { requestId: string }) => e.requestId)).toContain(slow.json.requestId);
    expect(journal.info).toMatchObject({ complete: true, dropped: 0 });
    expect((await call(sim, 'GET', '/__sim/journal/oracle')).json).toMatchObject({ overAdmissions: 0, underAdmissions: 0, accuracy: 100 });
  }, 30_000);
});
