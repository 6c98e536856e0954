import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../src/index.js';
import { call, freshSimulator } from '../../helpers/sim.js';
import { paddleEvent, paddleSignature, paddleTransaction, paymentIntent, postPaddle, postStripe, revenueConfigOf, revenueRows, stripe, stripeEvent, unixNow } from './webhook-support.js';

const HOST = { host: '127.0.0.1:8787' };

describe('the webhook endpoints of the seeded world', () => {
  it('GET /__sim/fixtures lists one configuration per organization, with both paths and secrets in the providers’ forms', async () => {
    const sim = freshSimulator();
    const listing = (await call(sim, 'GET', '/__sim/fixtures')).json;
    const configs = listing.revenueConfigs as Record<string, string | null>[];
    expect(configs.map((c) => c.organizationId).sort()).toEqual(['org_acme', 'org_globex']);
    for (const config of configs) {
      expect(config.webhookHash).toMatch(/^[0-9a-f]{32}$/);
      expect(config.stripeWebhookPath).toBe(`/webhooks/stripe/${config.webhookHash}`);
      expect(config.paddleWebhookPath).toBe(`/webhooks/paddle/${config.webhookHash}`);
      expect(config.stripeWebhookSecret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
      expect(config.paddleWebhookSecret).toMatch(/^pdl_ntfset_01[0-9a-z]{24}_[A-Za-z0-9]{32}$/);
    }
    expect(configs.find((c) => c.organizationId === 'org_acme')?.websiteId).toBe('web_acme_store');
  });

  it('derives hashes and secrets from the seed: the same for the same seed, others for another', () => {
    const secrets = (seed: number) => freshSimulator({ seed }).fixtures().revenueConfigs.map((c) => [c.webhookHash, c.stripeWebhookSecret, c.paddleWebhookSecret]);
    expect(secrets(42)).toEqual(secrets(42));
    const [a, b] = [secrets(42).flat(), secrets(7).flat()];
    for (const value of a) expect(b).not.toContain(value);
  });

  it('are in the OpenAPI document as public ingestion routes with their raw JSON body and every answer', async () => {
    const doc = (await call(freshSimulator(), 'GET', '/openapi.json', { headers: HOST })).json;
    for (const path of ['/webhooks/stripe/{hash}', '/webhooks/paddle/{hash}']) {
      const post = doc.paths[path]?.post;
      expect(post, path).toBeDefined();
      expect(post.tags).toEqual(['ingest']);
      expect(post.security).toEqual([]);
      expect(post.parameters).toEqual([{ name: 'hash', in: 'path', required: true, schema: { type: 'string' } }]);
      expect(post.requestBody.content['application/json'].schema.type).toBe('object');
      expect(Object.keys(post.responses).sort()).toEqual(['200', '400', '401', '404', '409', '413', '500']);
      expect(post.responses['401'].content['application/json'].schema.properties.code).toBeDefined();
    }
  });

  it('refuses a body over 1 MB with 413 in the ingestion envelope, before reading the signature', async () => {
    const sim = freshSimulator();
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const body = `{"type":"x","pad":"${'a'.repeat(MAX_BODY_BYTES)}"}`;
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret: stripeWebhookSecret as string, timestamp: unixNow(sim) });
    const answer = await call(sim, 'POST', stripeWebhookPath, { body, headers: { 'stripe-signature': header } });
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ success: false, status: 'error', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('verifies the exact bytes, whatever the content type: a form or text body signed as it is is accepted', async () => {
    const sim = freshSimulator();
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const payload = JSON.stringify(stripeEvent('evt_sim_ct', 'customer.created', { id: 'cus_1' }, unixNow(sim)));
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: stripeWebhookSecret as string, timestamp: unixNow(sim) });
    for (const type of ['application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded']) {
      const answer = await call(sim, 'POST', stripeWebhookPath, { body: payload, headers: { 'stripe-signature': header, 'content-type': type } });
      expect(answer.status, type).toBe(200);
    }
  });

  it('keeps a body with non-ASCII text byte for byte: a product name in Japanese verifies and is recorded as sent', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const created = unixNow(sim) - 600;
    const event = stripeEvent('evt_sim_utf8', 'payment_intent.succeeded', paymentIntent('pi_sim_utf8', 3000, 'jpy', created, { description: '抹茶セット 🍵' }), created);
    expect((await postStripe(sim, stripeWebhookPath, stripeWebhookSecret as string, event)).status).toBe(200);
    const rows = await revenueRows(sim, ['recent_transactions']);
    expect(rows.recent_transactions?.find((r) => r.transaction_id === 'pi_sim_utf8')?.product_name).toBe('抹茶セット 🍵');
  });

  it('answers 500 and keeps nothing when the ingest ledger is full, so a redelivery is refused again rather than taken for a duplicate', async () => {
    const sim = freshSimulator({ profile: 'live', eventStorage: { maxEvents: 1 } });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const secret = stripeWebhookSecret as string;
    const created = unixNow(sim) - 600;
    expect((await postStripe(sim, stripeWebhookPath, secret, stripeEvent('evt_sim_f1', 'payment_intent.succeeded', paymentIntent('pi_sim_f1', 100, 'usd', created), created))).status).toBe(200);
    const second = stripeEvent('evt_sim_f2', 'payment_intent.succeeded', paymentIntent('pi_sim_f2', 200, 'usd', created), created);
    for (let i = 0; i < 2; i++) {
      const full = await postStripe(sim, stripeWebhookPath, secret, second);
      expect(full.status).toBe(500);
      expect(full.json).toMatchObject({ code: 'basket.WEBHOOK_PROCESSING_FAILED', retryable: true, errors: [{ code: 'storage_full' }] });
    }
    const ids = (await revenueRows(sim, ['recent_transactions'])).recent_transactions?.map((r) => r.transaction_id);
    expect(ids).toContain('pi_sim_f1');
    expect(ids).not.toContain('pi_sim_f2');
    await sim.reset();
    expect((await postStripe(sim, stripeWebhookPath, secret, second)).status).toBe(200);
  });

  it('never fails with a server error or throws for hostile unsigned requests, and answers in the envelope', async () => {
    const sim = freshSimulator();
    const { stripeWebhookPath, paddleWebhookPath } = revenueConfigOf(sim, 'org_acme');
    const header = fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('t=,v1=', 't=1,v1=', 'ts=9999999999999999999;h1=zz', 't=abc,v1=00', ',,,,', '='.repeat(50), `t=${'9'.repeat(400)},v1=0`));
    const body = fc.oneof(fc.string({ maxLength: 300 }), fc.json({ maxDepth: 4 }), fc.constantFrom('[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]', '{"type":null}', '\u0000', '\ud800'));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(stripeWebhookPath, paddleWebhookPath, '/webhooks/stripe/%00', '/webhooks/paddle/..%2F'), fc.constantFrom('stripe-signature', 'paddle-signature'), header, body, async (path, name, value, text) => {
        const answer = await call(sim, 'POST', path, { body: text, headers: { [name]: value } });
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        expect(answer.json?.status).toBe('error');
      }),
      { numRuns: 300, seed: 17 },
    );
  });

  it('never crashes on hostile JSON that carries a valid signature: 200, 400 or 500 in the envelope, nothing thrown', async () => {
    const sim = freshSimulator();
    const { stripeWebhookPath, stripeWebhookSecret, paddleWebhookPath, paddleWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const anything = fc.anything({ maxDepth: 3, withNullPrototype: true });
    const stripeType = fc.constantFrom('payment_intent.succeeded', 'payment_intent.payment_failed', 'payment_intent.canceled', 'invoice.paid', 'invoice.payment_failed', 'charge.refunded', 'other');
    await fc.assert(
      fc.asyncProperty(stripeType, anything, anything, fc.boolean(), async (type, object, data, paddle) => {
        const event = paddle ? { event_type: type === 'other' ? type : 'transaction.completed', data: object } : { id: 'evt_x', type, data: { object }, extra: data };
        const payload = JSON.stringify(event) ?? 'null';
        const now = unixNow(sim);
        const headers: Record<string, string> = paddle
          ? { 'paddle-signature': paddleSignature(payload, paddleWebhookSecret as string, now) }
          : { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: stripeWebhookSecret as string, timestamp: now }) };
        const answer = await call(sim, 'POST', paddle ? paddleWebhookPath : stripeWebhookPath, { body: payload, headers });
        expect([200, 400, 500]).toContain(answer.status);
        if (answer.status === 500) expect(answer.json.code).toBe('basket.WEBHOOK_PROCESSING_FAILED');
      }),
      { numRuns: 300, seed: 23 },
    );
  });
});

describe('the visitor id of a payment', () => {
  const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36';

  /** The visitor id session_list shows for a page view of `anonymousId` posted now, in session `sessionId`. */
  async function pageViewVisitorId(sim: ReturnType<typeof freshSimulator>, anonymousId: string, sessionId: string): Promise<unknown> {
    const posted = await call(sim, 'POST', '/batch', {
      query: { client_id: 'web_acme_store' },
      headers: { 'user-agent': CHROME },
      body: [{ eventId: `pv_${sessionId}`, name: 'screen_view', path: 'https://store.acme.io/checkout', anonymousId, sessionId, timestamp: sim.clock.now() - 60_000 }],
    });
    expect(posted.status).toBe(200);
    const sessions = await revenueRows(sim, ['session_list'], { website_id: 'web_acme_store' }, { limit: 1000 });
    return sessions.session_list?.find((s) => s.session_id === sessionId)?.visitor_id;
  }

  it('is the Stripe databuddy_anonymous_id and the Paddle anonymous_id salted with the day’s salt, the id a page view of that visitor gets; /identify links the raw id', async () => {
    const sim = freshSimulator();
    const config = revenueConfigOf(sim, 'org_acme');
    const created = unixNow(sim) - 60;
    const intent = paymentIntent('pi_salted', 2500, 'usd', created, { metadata: { databuddy_client_id: 'web_acme_store', databuddy_anonymous_id: 'anon_buyer' } });
    expect((await postStripe(sim, config.stripeWebhookPath, config.stripeWebhookSecret as string, stripeEvent('evt_salted', 'payment_intent.succeeded', intent, created))).status).toBe(200);
    const billed = new Date(created * 1000).toISOString();
    const paddle = { ...paddleTransaction('txn_salted', '4200', 'USD', billed), custom_data: { anonymous_id: 'anon_buyer', website_id: 'web_acme_store' } };
    expect((await postPaddle(sim, config.paddleWebhookPath, config.paddleWebhookSecret as string, paddleEvent('evt_paddle_salted', 'transaction.completed', paddle, billed))).status).toBe(200);

    const salted = await pageViewVisitorId(sim, 'anon_buyer', 'sess_buyer');
    expect(salted).toMatch(/^[0-9a-f]{64}$/);
    const recent = (await revenueRows(sim, ['recent_transactions'])).recent_transactions ?? [];
    expect(recent.find((r) => r.transaction_id === 'pi_salted')?.anonymous_id).toBe(salted);
    expect(recent.find((r) => r.transaction_id === 'txn_salted')?.anonymous_id).toBe(salted);

    const identified = await call(sim, 'POST', '/identify', { query: { client_id: 'web_acme_store' }, headers: { 'user-agent': CHROME }, body: { profileId: 'customer_buyer', anonymousId: 'anon_buyer' } });
    expect(identified.status).toBe(200);
    const profiles = await call(sim, 'GET', '/__sim/profiles', { query: { website_id: 'web_acme_store', profile_id: 'customer_buyer' } });
    expect(profiles.json.profiles[0].anonymousIds).toEqual(['anon_buyer']);
  });

  it('gets the next day’s salt the next day, as a page view does', async () => {
    const sim = freshSimulator();
    const config = revenueConfigOf(sim, 'org_acme');
    const first = await pageViewVisitorId(sim, 'anon_regular', 'sess_day1');
    sim.clock.advance(24 * 3_600_000);
    const created = unixNow(sim) - 60;
    const intent = paymentIntent('pi_next_day', 900, 'usd', created, { metadata: { databuddy_client_id: 'web_acme_store', databuddy_anonymous_id: 'anon_regular' } });
    expect((await postStripe(sim, config.stripeWebhookPath, config.stripeWebhookSecret as string, stripeEvent('evt_next_day', 'payment_intent.succeeded', intent, created))).status).toBe(200);
    const second = await pageViewVisitorId(sim, 'anon_regular', 'sess_day2');
    expect(second).not.toBe(first);
    const recent = (await revenueRows(sim, ['recent_transactions'])).recent_transactions ?? [];
    expect(recent.find((r) => r.transaction_id === 'pi_next_day')?.anonymous_id).toBe(second);
  });
});
