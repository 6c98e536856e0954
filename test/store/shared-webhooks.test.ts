import { describe, expect, it } from 'vitest';
import { sharedSimulatorsDuringSuite } from '../helpers/shared-simulators.js';
import { centsIn, paymentIntent, postStripe, revenueConfigOf, revenueRows, stripeEvent, unixNow } from '../sim/ingest/webhook-support.js';

/** Payment webhooks served by several processes sharing one Redis prefix. */
const shared = sharedSimulatorsDuringSuite('webhooks');

describe('payment webhooks with a shared store', () => {
  it('a signed Stripe payment sent to one process is in every process’s revenue, and a replay through another counts once', async () => {
    const [a, b] = await shared(2, { profile: 'live' });
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
