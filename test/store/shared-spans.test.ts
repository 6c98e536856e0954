import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import { createSeededWorld } from '../../src/fixtures/world.js';
import { createRedisStore, type RedisStore } from '../../src/store/redis-store.js';
import { call, secretOf } from '../helpers/sim.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { errorSpan, postSpans } from '../sim/ingest/span-support.js';

/** Two simulators sharing one Redis prefix, as two processes of `serve --workers 2`. */
let redis: RedisServer;
const stores: RedisStore[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.allSettled(stores.map((s) => s.close()));
  await redis?.stop();
});

async function twoProcesses(): Promise<[Simulator, Simulator]> {
  const sims = [0, 1].map(() => {
    const store = createRedisStore({ url: redis.url, prefix: `spans-${process.pid}`, commandTimeoutMs: 2000 });
    stores.push(store);
    return createSimulator({ seed: 42, createWorld: createSeededWorld, profile: 'live', store });
  });
  for (const sim of sims) await sim.ready();
  return sims as [Simulator, Simulator];
}

describe('spans posted to one process of a shared simulator', () => {
  it('answers recent_errors on the other with the error posted to the first, and drops its repeated eventId there too', async () => {
    const [a, b] = await twoProcesses();
    const message = 'Span test: checkout button exploded';
    const query = async (sim: Simulator) => {
      const answer = await call(sim, 'POST', '/v1/query', {
        key: secretOf(sim, 'key_acme_read'),
        query: { website_id: 'web_acme_store' },
        body: { parameters: ['recent_errors'], startDate: '2025-06-02', endDate: '2025-06-02', filters: [{ field: 'message', op: 'eq', value: message }] },
      });
      return answer.json.data[0].data as { message: string; path: string }[];
    };
    expect((await postSpans(a, '/errors', [errorSpan({ eventId: 'evt-shared-1' })])).status).toBe(200);
    expect((await postSpans(b, '/errors', [errorSpan({ eventId: 'evt-shared-1' })])).json).toEqual({ status: 'success', type: 'error', count: 1 });
    const rows = await query(b);
    expect(rows.map((r) => [r.message, r.path])).toEqual([[message, '/checkout']]);
    expect(await query(a)).toEqual(rows);
  });
});
