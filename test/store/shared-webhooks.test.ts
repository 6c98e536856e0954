import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import { createSeededWorld } from '../../src/fixtures/world.js';
import { createRedisStore, type RedisStore } from '../../src/store/redis-store.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { centsIn, paymentIntent, postStripe, revenueConfigOf, revenueRows, stripeEvent, unixNow } from '../sim/ingest/webhook-support.js';

/** Payment webhooks served by several processes sharing one Redis prefix. */
let redis: RedisServer;
const stores: RedisStore[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.allSettled(stores.map((s) => s.close()));
  await redis?.stop();
});

async function sharing(count: number): Promise<Simulator[]> {
  const prefix = `webhooks-${process.pid}`;
  const sims = Array.from({ length: count }, () => {
    const store = createRedisStore({ url: redis.url, prefix, commandTimeoutMs: 2000 });
    stores.push(store);
    return createSimulator({ seed: 42, createWorld: createSeededWorld, store, profile: 'live' });
  });
  for (const sim of sims) await sim.ready();
  return sims;
}

describe('payment webhooks with a shared store', () => {
  it('a signed Stripe payment sent to one process is in every process’s revenue, and a replay through another counts once', async () => {
    const [a, b] = await sharing(2);
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(a!, 'org_acme');
    const secret = stripeWebhookSecret as string;
    const before = await revenueRows(b!, ['revenue_overview']);
    const created = unixNow(a!) - 600;
    const event = stripeEvent('evt_shared_1', 'payment_intent.succeeded', paymentIntent('pi_shared_1', 6400, 'usd', created), created);
    expect((await postStripe(a!, stripeWebhookPath, secret, event)).status).toBe(200);
    expect((await postStripe(b!, stripeWebhookPath, secret, event)).json).toEqual({ received: true, type: 'payment_intent.succeeded' });
    expect((await postStripe(b!, stripeWebhookPath, secret, event, { secret: 'whsec_wrong' })).status).toBe(401);
    for (const sim of [a!, b!]) {
      const after = await revenueRows(sim, ['revenue_overview']);
      expect(centsIn(after.revenue_overview, 'total_revenue', 'USD') - centsIn(before.revenue_overview, 'total_revenue', 'USD')).toBe(6400);
    }
  });
});
