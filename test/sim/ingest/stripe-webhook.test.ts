import { describe, expect, it } from 'vitest';
import { call, freshSimulator } from '../../helpers/sim.js';
import {
  centsIn,
  paymentIntent,
  postStripe,
  revenueConfigOf,
  revenueRows,
  rowOfCurrency,
  stripe,
  stripeEvent,
  unixNow,
} from './webhook-support.js';

/** An hour before the simulator's start: inside today's range, before the query cut. */
const anHourAgo = (sim: ReturnType<typeof freshSimulator>): number => unixNow(sim) - 3600;

const OVERVIEW = ['revenue_overview'];

describe('POST /webhooks/stripe/:hash', () => {
  it('a signed payment_intent.succeeded raises revenue_overview’s total by exactly its amount', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const before = await revenueRows(sim, OVERVIEW);
    const created = anHourAgo(sim);
    const answer = await postStripe(sim, stripeWebhookPath, stripeWebhookSecret as string, stripeEvent('evt_sim_001', 'payment_intent.succeeded', paymentIntent('pi_sim_001', 4999, 'usd', created), created));
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ received: true, type: 'payment_intent.succeeded' });
    const after = await revenueRows(sim, OVERVIEW);
    const [was, now] = [rowOfCurrency(before.revenue_overview, 'USD'), rowOfCurrency(after.revenue_overview, 'USD')];
    expect(centsIn(after.revenue_overview, 'total_revenue', 'USD') - centsIn(before.revenue_overview, 'total_revenue', 'USD')).toBe(4999);
    expect((now?.total_transactions as number) - (was?.total_transactions as number)).toBe(1);
    expect((now?.sale_count as number) - (was?.sale_count as number)).toBe(1);
    expect((now?.unique_customers as number) - (was?.unique_customers as number)).toBe(1);
    expect(now?.attributed_revenue).toBe(was?.attributed_revenue);
    expect((now?.successful_payment_attempts as number) - (was?.successful_payment_attempts as number)).toBe(1);
  });

  it('counts a zero-decimal currency in whole units, in a row of its own', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const created = anHourAgo(sim);
    await postStripe(sim, stripeWebhookPath, stripeWebhookSecret as string, stripeEvent('evt_sim_jpy', 'payment_intent.succeeded', paymentIntent('pi_sim_jpy', 1500, 'jpy', created), created));
    const rows = await revenueRows(sim, OVERVIEW);
    expect(rowOfCurrency(rows.revenue_overview, 'JPY')).toMatchObject({ total_revenue: 1500, total_transactions: 1, sale_revenue: 1500 });
  });

  it('adds up with the generated revenue in every revenue breakdown, the time series and the recent transactions', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const created = anHourAgo(sim);
    const intent = paymentIntent('pi_sim_sum', 12_345, 'eur', created, { metadata: { databuddy_anonymous_id: 'anon_from_checkout' }, description: 'Gift card' });
    await postStripe(sim, stripeWebhookPath, stripeWebhookSecret as string, stripeEvent('evt_sim_sum', 'payment_intent.succeeded', intent, created));
    const breakdowns = ['revenue_by_provider', 'revenue_by_country', 'revenue_by_browser', 'revenue_by_utm_source', 'revenue_attribution_overview', 'revenue_by_entry_page'];
    const rows = await revenueRows(sim, ['revenue_overview', 'revenue_time_series', 'recent_transactions', 'revenue_by_product', ...breakdowns]);
    const total = centsIn(rows.revenue_overview, 'total_revenue', 'EUR');
    for (const type of breakdowns) expect(centsIn(rows[type], 'revenue', 'EUR'), type).toBe(total);
    expect(centsIn(rows.revenue_time_series, 'revenue', 'EUR')).toBe(total);
    expect(centsIn(rows.revenue_by_product, 'revenue', 'EUR', (r) => r.name === 'Gift card')).toBe(12_345);
    const unattributed = rows.revenue_attribution_overview?.find((r) => r.name === 'Unattributed' && r.currency === 'EUR');
    expect(unattributed).toBeDefined();
    const recent = rows.recent_transactions?.find((r) => r.transaction_id === 'pi_sim_sum');
    expect(recent).toMatchObject({
      provider: 'stripe',
      type: 'sale',
      amount: 123.45,
      currency: 'EUR',
      anonymous_id: expect.stringMatching(/^[0-9a-f]{64}$/), // anon_from_checkout with the day’s salt (held in webhook-endpoints.test.ts)
      product_name: 'Gift card',
      is_attributed: 0,
      attribution_method: 'unmatched',
      unmatched_reason: 'no_verified_prior_match',
      country: 'Unattributed',
    });
  });

  it('answers 200 to the same event delivered again and counts it once', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const before = await revenueRows(sim, OVERVIEW);
    const created = anHourAgo(sim);
    const event = stripeEvent('evt_sim_twice', 'payment_intent.succeeded', paymentIntent('pi_sim_twice', 2500, 'usd', created), created);
    for (let i = 0; i < 3; i++) expect((await postStripe(sim, stripeWebhookPath, stripeWebhookSecret as string, event)).status).toBe(200);
    const after = await revenueRows(sim, OVERVIEW);
    expect(centsIn(after.revenue_overview, 'total_revenue', 'USD') - centsIn(before.revenue_overview, 'total_revenue', 'USD')).toBe(2500);
  });

  it('records a paid invoice as a subscription under its PaymentIntent, once for invoice.paid and invoice.payment_succeeded, and skips a zero invoice', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const secret = stripeWebhookSecret as string;
    const before = await revenueRows(sim, ['revenue_overview']);
    const created = anHourAgo(sim);
    const invoice = { id: 'in_sim_1', object: 'invoice', amount_paid: 1900, currency: 'usd', created, customer: 'cus_SimSub', payment_intent: 'pi_sim_inv', description: 'Pro (monthly)', subscription_details: { metadata: { databuddy_session_id: 'sess_checkout' } } };
    expect((await postStripe(sim, stripeWebhookPath, secret, stripeEvent('evt_sim_inv_a', 'invoice.paid', invoice, created))).status).toBe(200);
    expect((await postStripe(sim, stripeWebhookPath, secret, stripeEvent('evt_sim_inv_b', 'invoice.payment_succeeded', invoice, created))).status).toBe(200);
    const free = { ...invoice, id: 'in_sim_free', amount_paid: 0, payment_intent: null };
    expect((await postStripe(sim, stripeWebhookPath, secret, stripeEvent('evt_sim_inv_c', 'invoice.paid', free, created))).json).toEqual({ received: true, type: 'invoice.paid' });
    const after = await revenueRows(sim, ['revenue_overview', 'recent_transactions']);
    const [was, now] = [rowOfCurrency(before.revenue_overview, 'USD'), rowOfCurrency(after.revenue_overview, 'USD')];
    expect(centsIn(after.revenue_overview, 'subscription_revenue', 'USD') - centsIn(before.revenue_overview, 'subscription_revenue', 'USD')).toBe(1900);
    expect((now?.subscription_count as number) - (was?.subscription_count as number)).toBe(1);
    expect(after.recent_transactions?.find((r) => r.transaction_id === 'pi_sim_inv')).toMatchObject({ type: 'subscription', product_name: 'Pro (monthly)' });
  });

  it('adds each refund of a charge.refunded to refund_amount, lowering net revenue, and a later event listing it again adds nothing twice', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const secret = stripeWebhookSecret as string;
    const created = anHourAgo(sim);
    await postStripe(sim, stripeWebhookPath, secret, stripeEvent('evt_sim_sale', 'payment_intent.succeeded', paymentIntent('pi_sim_ref', 8000, 'usd', created), created));
    const before = await revenueRows(sim, ['revenue_overview', 'revenue_time_series']);
    const net = (rows: Record<string, Record<string, unknown>[]>): number => centsIn(rows.revenue_overview, 'total_revenue', 'USD') - centsIn(rows.revenue_overview, 'refund_amount', 'USD');
    const first = { id: 're_sim_1', object: 'refund', amount: 3000, created: created + 600 };
    const charge = (refunds: unknown[]) => ({ id: 'ch_sim_1', object: 'charge', amount: 8000, amount_refunded: 3000, currency: 'usd', customer: 'cus_SimTest0001', payment_intent: 'pi_sim_ref', refunds: { object: 'list', data: refunds } });
    expect((await postStripe(sim, stripeWebhookPath, secret, stripeEvent('evt_sim_ref_1', 'charge.refunded', charge([first]), created + 600))).status).toBe(200);
    const second = { id: 're_sim_2', object: 'refund', amount: 1000, created: created + 900 };
    expect((await postStripe(sim, stripeWebhookPath, secret, stripeEvent('evt_sim_ref_2', 'charge.refunded', charge([second, first]), created + 900))).status).toBe(200);
    const after = await revenueRows(sim, ['revenue_overview', 'revenue_time_series', 'recent_transactions']);
    const [was, now] = [rowOfCurrency(before.revenue_overview, 'USD'), rowOfCurrency(after.revenue_overview, 'USD')];
    expect(centsIn(after.revenue_overview, 'refund_amount', 'USD') - centsIn(before.revenue_overview, 'refund_amount', 'USD')).toBe(4000);
    expect((now?.refund_count as number) - (was?.refund_count as number)).toBe(2);
    expect(now?.total_revenue).toBe(was?.total_revenue);
    expect(net(before) - net(after)).toBe(4000);
    expect(centsIn(after.revenue_time_series, 'refund_amount', 'USD')).toBe(centsIn(after.revenue_overview, 'refund_amount', 'USD'));
    expect(after.recent_transactions?.some((r) => String(r.transaction_id).startsWith('re_sim'))).toBe(false);
  });

  it('counts failed and canceled payment intents in the payment diagnostics and not in the revenue', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const secret = stripeWebhookSecret as string;
    const created = anHourAgo(sim);
    const before = await revenueRows(sim, OVERVIEW);
    const failed = paymentIntent('pi_sim_retry', 5000, 'gbp', created, { status: 'requires_payment_method', amount_received: 0, last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds', type: 'card_error' } });
    const canceled = paymentIntent('pi_sim_gone', 7000, 'gbp', created, { status: 'canceled', amount_received: 0, cancellation_reason: 'abandoned' });
    expect((await postStripe(sim, stripeWebhookPath, secret, stripeEvent('evt_sim_fail', 'payment_intent.payment_failed', failed, created))).status).toBe(200);
    expect((await postStripe(sim, stripeWebhookPath, secret, stripeEvent('evt_sim_cancel', 'payment_intent.canceled', canceled, created))).status).toBe(200);
    const middle = await revenueRows(sim, OVERVIEW);
    const [was, mid] = [rowOfCurrency(before.revenue_overview, 'GBP'), rowOfCurrency(middle.revenue_overview, 'GBP')];
    expect(mid?.total_revenue).toBe(was?.total_revenue);
    expect((mid?.failed_payment_attempts as number) - (was?.failed_payment_attempts as number)).toBe(1);
    expect((mid?.canceled_payment_attempts as number) - (was?.canceled_payment_attempts as number)).toBe(1);
    expect(centsIn(middle.revenue_overview, 'failed_payment_amount', 'GBP') - centsIn(before.revenue_overview, 'failed_payment_amount', 'GBP')).toBe(5000);
    // The same intent succeeds later: the failed attempt is recovered.
    const succeeded = paymentIntent('pi_sim_retry', 5000, 'gbp', created + 60);
    await postStripe(sim, stripeWebhookPath, secret, stripeEvent('evt_sim_retry_ok', 'payment_intent.succeeded', succeeded, created + 60));
    const after = await revenueRows(sim, OVERVIEW);
    const now = rowOfCurrency(after.revenue_overview, 'GBP');
    expect((now?.recovered_payment_attempts as number) - (mid?.recovered_payment_attempts as number)).toBe(1);
    expect(centsIn(after.revenue_overview, 'total_revenue', 'GBP') - centsIn(middle.revenue_overview, 'total_revenue', 'GBP')).toBe(5000);
  });

  it('refuses a delivery without stripe-signature with 400 and records nothing', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath } = revenueConfigOf(sim, 'org_acme');
    const before = await revenueRows(sim, OVERVIEW);
    const created = anHourAgo(sim);
    const event = stripeEvent('evt_sim_x', 'payment_intent.succeeded', paymentIntent('pi_sim_x', 100, 'usd', created), created);
    for (const headers of [{}, { 'stripe-signature': '' }] as Record<string, string>[]) {
      const answer = await call(sim, 'POST', stripeWebhookPath, { body: event, headers });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ success: false, status: 'error', code: 'basket.WEBHOOK_MISSING_SIGNATURE', retryable: false });
    }
    expect(await revenueRows(sim, OVERVIEW)).toEqual(before);
  });

  it('refuses a signature made with another secret, or over other bytes, with 401', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const before = await revenueRows(sim, OVERVIEW);
    const created = anHourAgo(sim);
    const event = stripeEvent('evt_sim_bad', 'payment_intent.succeeded', paymentIntent('pi_sim_bad', 100, 'usd', created), created);
    const wrong = await postStripe(sim, stripeWebhookPath, stripeWebhookSecret as string, event, { secret: 'whsec_not_the_endpoint_secret' });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ code: 'basket.WEBHOOK_INVALID_SIGNATURE', errors: [{ code: 'signature_mismatch', field: 'stripe-signature' }] });
    // Signed over the compact JSON, sent re-indented: the bytes differ, so does the signature.
    const payload = JSON.stringify(event);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: stripeWebhookSecret as string, timestamp: unixNow(sim) });
    const reformatted = await call(sim, 'POST', stripeWebhookPath, { body: JSON.stringify(event, null, 2), headers: { 'stripe-signature': header } });
    expect(reformatted.status).toBe(401);
    expect(await revenueRows(sim, OVERVIEW)).toEqual(before);
  });

  it('refuses a signature made more than 300 s away from the simulator’s clock with 401, and accepts one at 300 s', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const secret = stripeWebhookSecret as string;
    const created = anHourAgo(sim);
    const event = stripeEvent('evt_sim_old', 'payment_intent.succeeded', paymentIntent('pi_sim_old', 100, 'usd', created), created);
    const stale = await postStripe(sim, stripeWebhookPath, secret, event, { timestamp: unixNow(sim) - 301 });
    expect(stale.status).toBe(401);
    expect(stale.json.errors[0]).toMatchObject({ code: 'timestamp_outside_tolerance' });
    expect((await postStripe(sim, stripeWebhookPath, secret, event, { timestamp: unixNow(sim) + 301 })).status).toBe(401);
    // Signed with the wall clock instead of the simulator's virtual one: months away.
    expect((await postStripe(sim, stripeWebhookPath, secret, event, { timestamp: Math.floor(Date.now() / 1000) })).status).toBe(401);
    expect((await postStripe(sim, stripeWebhookPath, secret, event, { timestamp: unixNow(sim) - 300 })).status).toBe(200);
    sim.clock.advance(10 * 60_000);
    expect((await postStripe(sim, stripeWebhookPath, secret, event, { timestamp: unixNow(sim) })).status).toBe(200);
  });

  it('answers 404 for a hash no revenue configuration has, whatever the signature', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const created = anHourAgo(sim);
    const event = stripeEvent('evt_sim_nohash', 'payment_intent.succeeded', paymentIntent('pi_sim_nohash', 100, 'usd', created), created);
    const answer = await postStripe(sim, '/webhooks/stripe/0123456789abcdef0123456789abcdef', stripeWebhookSecret as string, event);
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ code: 'basket.WEBHOOK_ENDPOINT_NOT_FOUND', message: 'Webhook endpoint not found' });
    expect((await call(sim, 'POST', '/webhooks/stripe/0123456789abcdef0123456789abcdef', { body: '{}' })).status).toBe(404);
  });

  it('answers 200 to an event type it does not record, and records nothing', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const before = await revenueRows(sim, ['revenue_overview', 'recent_transactions']);
    const created = anHourAgo(sim);
    const answer = await postStripe(sim, stripeWebhookPath, stripeWebhookSecret as string, stripeEvent('evt_sim_cust', 'customer.created', { id: 'cus_SimNew', object: 'customer', created }, created));
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ received: true, type: 'customer.created' });
    expect(await revenueRows(sim, ['revenue_overview', 'recent_transactions'])).toEqual(before);
  });

  it('refuses a signed body that is not JSON with 401, and signed JSON that is not an event with 400', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const secret = stripeWebhookSecret as string;
    const notJson = await postStripe(sim, stripeWebhookPath, secret, '{"id": "evt_cut');
    expect(notJson.status).toBe(401);
    expect(notJson.json.errors[0]).toMatchObject({ code: 'invalid_json' });
    for (const body of ['[]', '42', 'null', '{"id":"evt_1"}', '{"type":7}']) {
      const answer = await postStripe(sim, stripeWebhookPath, secret, body);
      expect(answer.status, body).toBe(400);
      expect(answer.json.code).toBe('basket.WEBHOOK_INVALID_PAYLOAD');
    }
  });

  it('answers 500 naming the fields when a handled event lacks what a revenue row needs, and a corrected redelivery is recorded', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const secret = stripeWebhookSecret as string;
    const created = anHourAgo(sim);
    const broken = stripeEvent('evt_sim_broken', 'payment_intent.succeeded', { id: 'pi_sim_broken', amount: '12.00', currency: 'usd', created }, created);
    const answer = await postStripe(sim, stripeWebhookPath, secret, broken);
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({ code: 'basket.WEBHOOK_PROCESSING_FAILED', retryable: true, errors: [{ field: 'data.object.amount' }] });
    const fixed = stripeEvent('evt_sim_broken', 'payment_intent.succeeded', paymentIntent('pi_sim_broken', 1200, 'usd', created), created);
    expect((await postStripe(sim, stripeWebhookPath, secret, fixed)).status).toBe(200);
    const rows = await revenueRows(sim, ['recent_transactions']);
    expect(rows.recent_transactions?.some((r) => r.transaction_id === 'pi_sim_broken')).toBe(true);
  });

  it('puts a payment on the website its metadata names when the organization owns it, else on the configured website', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const secret = stripeWebhookSecret as string;
    const created = anHourAgo(sim);
    const named = paymentIntent('pi_sim_www', 700, 'usd', created, { metadata: { databuddy_client_id: 'web_acme_www' } });
    const foreign = paymentIntent('pi_sim_foreign', 900, 'usd', created, { metadata: { databuddy_client_id: 'web_globex_app' } });
    await postStripe(sim, stripeWebhookPath, secret, stripeEvent('evt_sim_www', 'payment_intent.succeeded', named, created));
    await postStripe(sim, stripeWebhookPath, secret, stripeEvent('evt_sim_foreign', 'payment_intent.succeeded', foreign, created));
    const ids = async (website: string): Promise<unknown[]> => {
      const key = website.startsWith('web_globex') ? 'key_globex_read' : 'key_acme_read';
      return ((await revenueRows(sim, ['recent_transactions'], { website_id: website }, {}, key)).recent_transactions ?? []).map((r) => r.transaction_id);
    };
    expect(await ids('web_acme_www')).toContain('pi_sim_www');
    expect(await ids('web_acme_store')).toContain('pi_sim_foreign');
    expect(await ids('web_acme_store')).not.toContain('pi_sim_www');
    expect(await ids('web_globex_app')).not.toContain('pi_sim_foreign');
  });

  it('sends Globex’s revenue, which names no website, to its first website', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret, websiteId } = revenueConfigOf(sim, 'org_globex');
    expect(websiteId).toBeNull();
    const created = anHourAgo(sim);
    await postStripe(sim, stripeWebhookPath, stripeWebhookSecret as string, stripeEvent('evt_sim_globex', 'payment_intent.succeeded', paymentIntent('pi_sim_globex', 1000, 'usd', created), created));
    const first = (sim.fixtures().websites as { id: string; organizationId: string }[]).find((w) => w.organizationId === 'org_globex')?.id as string;
    const rows = await revenueRows(sim, ['recent_transactions'], { website_id: first }, {}, 'key_globex_read');
    expect(rows.recent_transactions?.map((r) => r.transaction_id)).toContain('pi_sim_globex');
  });

  it('never writes the endpoint secret into an answer or the journal', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const secret = stripeWebhookSecret as string;
    const created = anHourAgo(sim);
    const event = stripeEvent('evt_sim_leak', 'payment_intent.succeeded', paymentIntent('pi_sim_leak', 100, 'usd', created), created);
    const answers = [
      await postStripe(sim, stripeWebhookPath, secret, event, { secret: 'whsec_wrong' }),
      await postStripe(sim, stripeWebhookPath, secret, event, { timestamp: 1 }),
      await postStripe(sim, stripeWebhookPath, secret, '{"broken'),
      await postStripe(sim, stripeWebhookPath, secret, stripeEvent('evt_sim_leak2', 'charge.refunded', { id: 'ch_1' }, created)),
      await postStripe(sim, stripeWebhookPath, secret, event),
    ];
    for (const answer of answers) expect(answer.text).not.toContain(secret);
    const journal = await call(sim, 'GET', '/__sim/journal');
    expect(journal.text).not.toContain(secret);
    expect(journal.text).not.toContain(secret.slice(6));
  });

  it('goes back to the seeded world on reset', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const seeded = await revenueRows(sim, ['revenue_overview', 'revenue_by_provider', 'recent_transactions']);
    const { stripeWebhookPath, stripeWebhookSecret } = revenueConfigOf(sim, 'org_acme');
    const created = anHourAgo(sim);
    const event = stripeEvent('evt_sim_reset', 'payment_intent.succeeded', paymentIntent('pi_sim_reset', 3333, 'usd', created), created);
    await postStripe(sim, stripeWebhookPath, stripeWebhookSecret as string, event);
    expect(await revenueRows(sim, ['revenue_overview', 'revenue_by_provider', 'recent_transactions'])).not.toEqual(seeded);
    await sim.reset();
    expect(await revenueRows(sim, ['revenue_overview', 'revenue_by_provider', 'recent_transactions'])).toEqual(seeded);
    // After the reset the event is new again.
    await postStripe(sim, stripeWebhookPath, stripeWebhookSecret as string, event);
    const again = await revenueRows(sim, ['revenue_overview']);
    expect(centsIn(again.revenue_overview, 'total_revenue', 'USD') - centsIn(seeded.revenue_overview, 'total_revenue', 'USD')).toBe(3333);
  });
});
