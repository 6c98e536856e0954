import { Environment, Paddle } from '@paddle/paddle-node-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSeededWorld } from '../../../src/fixtures/world.js';
import { call, freshSimulator } from '../../helpers/sim.js';
import {
  centsIn,
  paddleEvent,
  paddleSignature,
  paddleTransaction,
  postPaddle,
  revenueConfigOf,
  revenueRows,
  rowOfCurrency,
  unixNow,
} from './webhook-support.js';

/** Paddle's SDK, used only to verify signatures (no request leaves the process). */
const paddle = new Paddle('pdl_sdbx_apikey_01hv8x2hbb6z8n9vh2x5q3kq7k_analyticsSimTestKeyAAAAAAAAA', { environment: Environment.sandbox });

/** An hour before the simulator's start, as Paddle writes instants. */
const anHourAgo = (sim: ReturnType<typeof freshSimulator>): string => new Date((unixNow(sim) - 3600) * 1000).toISOString();

afterEach(() => {
  vi.useRealTimers();
});

describe('POST /webhooks/paddle/:hash', () => {
  it('a signed transaction.completed raises revenue_by_provider’s paddle row and revenue_overview by its total', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { paddleWebhookPath, paddleWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const types = ['revenue_overview', 'revenue_by_provider', 'recent_transactions'];
    const before = await revenueRows(sim, types);
    const billed = anHourAgo(sim);
    const event = paddleEvent('evt_01hv8x2hbb6z8n9vh2x5q3kq7m', 'transaction.completed', paddleTransaction('txn_01hv8x2hbb6z8n9vh2x5q3kq7n', '4900', 'USD', billed, true), billed);
    const answer = await postPaddle(sim, paddleWebhookPath, paddleWebhookSecret as string, event);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ received: true, type: 'transaction.completed' });
    const after = await revenueRows(sim, types);
    const paddleRow = (rows: Record<string, Record<string, unknown>[]>) => (rows.revenue_by_provider ?? []).filter((r) => r.name === 'paddle');
    expect(centsIn(paddleRow(after), 'revenue', 'USD') - centsIn(paddleRow(before), 'revenue', 'USD')).toBe(4900);
    expect(centsIn(after.revenue_overview, 'total_revenue', 'USD') - centsIn(before.revenue_overview, 'total_revenue', 'USD')).toBe(4900);
    expect(centsIn(after.revenue_overview, 'subscription_revenue', 'USD') - centsIn(before.revenue_overview, 'subscription_revenue', 'USD')).toBe(4900);
    expect(centsIn(after.revenue_by_provider, 'revenue', 'USD')).toBe(centsIn(after.revenue_overview, 'total_revenue', 'USD'));
    // Live stores no customer for Paddle rows: no customer is counted.
    expect(rowOfCurrency(after.revenue_overview, 'USD')?.unique_customers).toBe(rowOfCurrency(before.revenue_overview, 'USD')?.unique_customers);
    expect(after.recent_transactions?.find((r) => r.transaction_id === 'txn_01hv8x2hbb6z8n9vh2x5q3kq7n')).toMatchObject({
      provider: 'paddle',
      type: 'subscription',
      amount: 49,
      product_name: 'Team plan',
      unmatched_reason: 'missing_browser_identity',
    });
  });

  it('signs as Paddle’s SDK verifies: the header the tests send is one the SDK accepts for the same secret', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { paddleWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const secret = paddleWebhookSecret as string;
    const billed = anHourAgo(sim);
    const body = JSON.stringify(paddleEvent('evt_01hv8x2hbb6z8n9vh2x5q3kq7p', 'transaction.completed', paddleTransaction('txn_01hv8x2hbb6z8n9vh2x5q3kq7q', '1000', 'EUR', billed), billed));
    const header = paddleSignature(body, secret, unixNow(sim));
    // The SDK checks the timestamp against the wall clock (5 s): let the wall clock read the simulator's time.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(sim.clock.now());
    expect(await paddle.webhooks.isSignatureValid(body, secret, header)).toBe(true);
    expect(await paddle.webhooks.isSignatureValid(body, `${secret}x`, header)).toBe(false);
    const event = await paddle.webhooks.unmarshal(body, secret, header);
    expect(event.eventType).toBe('transaction.completed');
    vi.useRealTimers();
    expect((await call(sim, 'POST', revenueConfigOf(sim, 'org_acme').paddleWebhookPath, { body, headers: { 'paddle-signature': header } })).status).toBe(200);
  });

  it('counts a sale without a billing cycle, in the currency as sent, on the website its custom data names', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { paddleWebhookPath, paddleWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const billed = anHourAgo(sim);
    const tx = { ...paddleTransaction('txn_01hv8x2hbb6z8n9vh2x5q3kq7r', '2550', 'GBP', billed), custom_data: { website_id: 'web_acme_www', anonymous_id: 'anon_paddle', session_id: 'sess_paddle' } };
    expect((await postPaddle(sim, paddleWebhookPath, paddleWebhookSecret as string, paddleEvent('evt_01hv8x2hbb6z8n9vh2x5q3kq7s', 'transaction.completed', tx, billed))).status).toBe(200);
    const rows = await revenueRows(sim, ['recent_transactions', 'revenue_overview'], { website_id: 'web_acme_www' });
    expect(rows.recent_transactions?.find((r) => r.transaction_id === 'txn_01hv8x2hbb6z8n9vh2x5q3kq7r')).toMatchObject({
      type: 'sale',
      amount: 25.5,
      currency: 'GBP',
      anonymous_id: expect.stringMatching(/^[0-9a-f]{64}$/), // anon_paddle with the day’s salt (held in webhook-endpoints.test.ts)
      unmatched_reason: 'no_verified_prior_match',
    });
  });

  it('answers 200 to the same notification delivered again and counts it once', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { paddleWebhookPath, paddleWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const before = await revenueRows(sim, ['revenue_by_provider']);
    const billed = anHourAgo(sim);
    const event = paddleEvent('evt_01hv8x2hbb6z8n9vh2x5q3kq7t', 'transaction.completed', paddleTransaction('txn_01hv8x2hbb6z8n9vh2x5q3kq7v', '1200', 'USD', billed), billed);
    for (let i = 0; i < 2; i++) expect((await postPaddle(sim, paddleWebhookPath, paddleWebhookSecret as string, event)).status).toBe(200);
    const after = await revenueRows(sim, ['revenue_by_provider']);
    expect(centsIn(after.revenue_by_provider, 'revenue', 'USD') - centsIn(before.revenue_by_provider, 'revenue', 'USD')).toBe(1200);
  });

  it('answers 200 to other event types and records nothing', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { paddleWebhookPath, paddleWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const before = await revenueRows(sim, ['revenue_overview']);
    const billed = anHourAgo(sim);
    const event = paddleEvent('evt_01hv8x2hbb6z8n9vh2x5q3kq7w', 'transaction.paid', paddleTransaction('txn_01hv8x2hbb6z8n9vh2x5q3kq7x', '1200', 'USD', billed), billed);
    const answer = await postPaddle(sim, paddleWebhookPath, paddleWebhookSecret as string, event);
    expect(answer.json).toEqual({ received: true, type: 'transaction.paid' });
    expect(await revenueRows(sim, ['revenue_overview'])).toEqual(before);
  });

  it('refuses a missing signature with 400, another secret or a stale timestamp with 401, and a signed body that is not JSON with 400', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { paddleWebhookPath, paddleWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const secret = paddleWebhookSecret as string;
    const billed = anHourAgo(sim);
    const event = paddleEvent('evt_01hv8x2hbb6z8n9vh2x5q3kq7y', 'transaction.completed', paddleTransaction('txn_01hv8x2hbb6z8n9vh2x5q3kq7z', '1200', 'USD', billed), billed);
    const unsigned = await call(sim, 'POST', paddleWebhookPath, { body: event });
    expect(unsigned.status).toBe(400);
    expect(unsigned.json.code).toBe('basket.WEBHOOK_MISSING_SIGNATURE');
    const wrong = await postPaddle(sim, paddleWebhookPath, secret, event, { secret: 'pdl_ntfset_wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ code: 'basket.WEBHOOK_INVALID_SIGNATURE', errors: [{ code: 'signature_mismatch', field: 'paddle-signature' }] });
    const stale = await postPaddle(sim, paddleWebhookPath, secret, event, { timestamp: unixNow(sim) - 301 });
    expect(stale.status).toBe(401);
    expect(stale.json.errors[0].code).toBe('timestamp_outside_tolerance');
    const notJson = await postPaddle(sim, paddleWebhookPath, secret, 'event_type=transaction.completed');
    expect(notJson.status).toBe(400);
    expect(notJson.json.code).toBe('basket.WEBHOOK_INVALID_PAYLOAD');
    const malformed = await call(sim, 'POST', paddleWebhookPath, { body: event, headers: { 'paddle-signature': 'h1=abc' } });
    expect(malformed.status).toBe(401);
    expect(malformed.json.errors[0].code).toBe('malformed_header');
  });

  it('answers 500 naming the field when a transaction.completed has no usable total', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { paddleWebhookPath, paddleWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const billed = anHourAgo(sim);
    const tx = paddleTransaction('txn_01hv8x2hbb6z8n9vh2x5q3kr01', '12.50', 'USD', billed);
    const answer = await postPaddle(sim, paddleWebhookPath, paddleWebhookSecret as string, paddleEvent('evt_01hv8x2hbb6z8n9vh2x5q3kr02', 'transaction.completed', tx, billed));
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({ code: 'basket.WEBHOOK_PROCESSING_FAILED', errors: [{ field: 'data.details.totals.total' }] });
  });

  it('answers 404 for an unknown hash, and for a configuration without a Paddle secret', async () => {
    const sim = freshSimulator({
      profile: 'live',
      createWorld: (seed) => {
        const world = createSeededWorld(seed);
        return { ...world, revenueConfigs: (world.revenueConfigs ?? []).map((c) => (c.organizationId === 'org_globex' ? { ...c, paddleWebhookSecret: null } : c)) };
      },
    });
    const acme = revenueConfigOf(sim, 'org_acme');
    const globex = revenueConfigOf(sim, 'org_globex');
    expect(globex.paddleWebhookSecret).toBeNull();
    const billed = anHourAgo(sim);
    const event = paddleEvent('evt_01hv8x2hbb6z8n9vh2x5q3kr03', 'transaction.completed', paddleTransaction('txn_01hv8x2hbb6z8n9vh2x5q3kr04', '100', 'USD', billed), billed);
    const unknown = await postPaddle(sim, '/webhooks/paddle/not-a-hash', acme.paddleWebhookSecret as string, event);
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('basket.WEBHOOK_ENDPOINT_NOT_FOUND');
    expect((await postPaddle(sim, globex.paddleWebhookPath, acme.paddleWebhookSecret as string, event)).status).toBe(404);
    // The same configuration's Stripe endpoint is still there.
    expect((await call(sim, 'POST', globex.stripeWebhookPath, { body: '{}' })).status).toBe(400);
  });
});
