import { Databuddy } from '@databuddy/sdk/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { secretOf } from '../helpers/sim.js';
import { fetchAnswer } from '../helpers/wire.js';
import { stripe } from '../sim/ingest/webhook-support.js';
import type { Answer } from '../helpers/sim.js';
import { setupSimulator } from '../../src/msw/index.js';

/**
 * What a client developer meets first: a record sent now is in every answer asked right after,
 * over HTTP, with no clock moved between the POST and the query. Each story runs on a frozen
 * virtual clock (the library's default, the clock CI suites use) and on the real clock.
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

interface Clocked {
  readonly name: string;
  readonly frozen: boolean;
  readonly make: () => Simulator;
}

const CLOCKS: readonly Clocked[] = [
  // The frozen virtual clock: nothing moves it during the story.
  { name: 'a frozen virtual clock', frozen: true, make: () => createSimulator({ seed: 42, profile: 'live' }) },
  { name: 'the real clock', frozen: false, make: () => createSimulator({ seed: 42, profile: 'live', clock: 'real', realNow: Date.now }) },
];

/** The UTC calendar day of an instant, as startDate/endDate take it. */
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

describe.each(CLOCKS)('what you send is what you see, on $name', ({ make, frozen }) => {
  let sim: Simulator;
  let server: RunningServer;
  beforeAll(async () => {
    sim = make();
    server = await startServer(sim, { port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  /** One query over HTTP with key_acme_read, for the day of `at`; its first parameter's rows. */
  async function rowsOf(websiteId: string, parameter: string, at: number, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
    const answer = await fetchAnswer(`${server.url}/v1/query?website_id=${websiteId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': secretOf(sim, 'key_acme_read') },
      body: JSON.stringify({ parameters: [parameter], startDate: dayOf(at), endDate: dayOf(at), limit: 1000, ...extra }),
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.data[0].success, answer.text).toBe(true);
    return answer.json.data[0].data as Record<string, unknown>[];
  }

  /** POSTs to the server the way a browser tracker does, with the website's client id. */
  function postAsBrowser(path: string, websiteId: string, body: unknown): Promise<Answer> {
    return fetchAnswer(`${server.url}${path}?client_id=${websiteId}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'user-agent': CHROME },
      body: JSON.stringify(body),
    });
  }

  it('an event the SDK tracks now is in custom_events at once, and an identify now names its visitor in profile_detail', async () => {
    const db = new Databuddy({ apiKey: secretOf(sim, 'key_acme_track'), websiteId: 'web_acme_store', apiUrl: server.url, enableBatching: false });
    const now = sim.clock.now();
    expect(await db.track({ name: 'story_signup', timestamp: now, anonymousId: 'anon_story', sessionId: 'sess_story', properties: { plan: 'pro' } })).toEqual({ success: true });
    const rows = await rowsOf('web_acme_store', 'custom_events', now, { filters: [{ field: 'event_name', op: 'eq', value: 'story_signup' }] });
    expect(rows.map((r) => [r.name, r.total_events, r.unique_users])).toEqual([['story_signup', 1, 1]]);

    expect(await db.identify({ profileId: 'customer_story', anonymousId: 'anon_story', traits: { plan: 'pro' } })).toEqual({ success: true });
    const detail = await rowsOf('web_acme_store', 'profile_detail', now, { filters: [{ field: 'anonymous_id', op: 'eq', value: 'anon_story' }] });
    expect(detail).toEqual([expect.objectContaining({ visitor_id: 'anon_story', profile_id: 'customer_story' })]);
  });

  it('a page view a browser posts to /batch now is a row of top_pages and a page view more in summary_metrics at once', async () => {
    const now = sim.clock.now();
    const answer = await postAsBrowser('/batch', 'web_acme_www', [
      { eventId: 'story_pv_1', name: 'screen_view', path: 'https://acme.io/story-launch', anonymousId: 'anon_story_pv', sessionId: 'sess_story_pv', timestamp: now },
    ]);
    expect(answer.status, answer.text).toBe(200);
    const pages = await rowsOf('web_acme_www', 'top_pages', now);
    // The live row names its page `name` (SPEC.md's, `path`).
    expect(pages.filter((r) => (r.name ?? r.path) === '/story-launch')).toEqual([expect.objectContaining({ pageviews: 1, visitors: 1 })]);
    // Filtered to the new page, so generated traffic that the real clock brings meanwhile does not count.
    const [summary] = await rowsOf('web_acme_www', 'summary_metrics', now, { filters: [{ field: 'path', op: 'eq', value: '/story-launch' }] });
    expect(summary).toMatchObject({ pageviews: 1, unique_visitors: 1, sessions: 1 });
  });

  it('an error posted to /errors now is the first of recent_errors at once', async () => {
    const now = sim.clock.now();
    const answer = await postAsBrowser('/errors', 'web_acme_store', [{
      path: '/story-checkout',
      message: 'Story: the pay button exploded',
      filename: 'https://store.acme.io/static/app.js',
      lineno: 7,
      colno: 3,
      errorType: 'TypeError',
      timestamp: now,
      anonymousId: 'anon_story_err',
      sessionId: 'sess_story_err',
    }]);
    expect(answer.status, answer.text).toBe(200);
    const rows = await rowsOf('web_acme_store', 'recent_errors', now);
    expect(rows.filter((r) => r.message === 'Story: the pay button exploded')).toHaveLength(1);
  });

  it('a web vital posted to /vitals now counts in vitals_overview and is a row of vitals_by_page at once', async () => {
    const now = sim.clock.now();
    const lcpSamples = async () => (await rowsOf('web_acme_docs', 'vitals_overview', now)).filter((r) => r.metric_name === 'LCP').reduce((n, r) => n + (r.samples as number), 0);
    const before = await lcpSamples();
    const answer = await postAsBrowser('/vitals', 'web_acme_docs', [
      { path: '/story-vitals', metricName: 'LCP', metricValue: 1234, timestamp: now, anonymousId: 'anon_story_v', sessionId: 'sess_story_v' },
    ]);
    expect(answer.status, answer.text).toBe(200);
    const added = (await lcpSamples()) - before;
    // On the real clock, generated traffic of the seconds in between may count too.
    if (frozen) expect(added).toBe(1);
    else expect(added).toBeGreaterThanOrEqual(1);
    const pages = await rowsOf('web_acme_docs', 'vitals_by_page', now);
    expect(pages.filter((r) => (r.name ?? r.path ?? r.page) === '/story-vitals' && r.metric_name === 'LCP')).toEqual([expect.objectContaining({ samples: 1 })]);
  });

  it('a payment a signed Stripe webhook reports now raises revenue_overview at once', async () => {
    const now = sim.clock.now();
    const config = sim.fixtures().revenueConfigs.find((c) => c.organizationId === 'org_acme');
    if (!config?.stripeWebhookSecret) throw new Error('no Stripe configuration for org_acme');
    // A currency the generated world never uses: its row is this payment alone.
    const totalNok = async () => {
      const rows = await rowsOf('web_acme_store', 'revenue_overview', now);
      return rows.filter((r) => r.currency === 'NOK').map((r) => [Math.round((r.total_revenue as number) * 100), r.total_transactions]);
    };
    expect(await totalNok()).toEqual([]);
    const created = Math.floor(now / 1000);
    const payload = JSON.stringify({
      id: 'evt_story_1',
      object: 'event',
      api_version: '2025-05-28.basil',
      created,
      livemode: false,
      pending_webhooks: 1,
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_story_1', object: 'payment_intent', amount: 4999, amount_received: 4999, currency: 'nok', created, status: 'succeeded', customer: 'cus_Story0001', metadata: {} } },
    });
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: config.stripeWebhookSecret, timestamp: created });
    const answer = await fetchAnswer(`${server.url}${config.stripeWebhookPath}`, { method: 'POST', headers: { 'stripe-signature': header, 'content-type': 'application/json' }, body: payload });
    expect(answer.status, answer.text).toBe(200);
    expect(await totalNok()).toEqual([[4999, 1]]);
  });
});

describe('what you send is what you see, in process, on a frozen virtual clock', () => {
  const body = (at: number) => JSON.stringify({ parameters: ['custom_events'], startDate: dayOf(at), endDate: dayOf(at), filters: [{ field: 'event_name', op: 'eq', value: 'in_process_now' }] });

  it('through sim.fetch: an event posted to /track now is in custom_events at once', async () => {
    const sim = createSimulator({ seed: 42 });
    const now = sim.clock.now();
    const tracked = await sim.fetch('http://analytics.test/track', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secretOf(sim, 'key_acme_track')}` },
      body: JSON.stringify({ name: 'in_process_now', websiteId: 'web_acme_store', timestamp: now }),
    });
    expect(tracked.status).toBe(200);
    const res = await sim.fetch('http://analytics.test/v1/query?website_id=web_acme_store', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': secretOf(sim, 'key_acme_read') },
      body: body(now),
    });
    const json = (await res.json()) as { data: { data: { name: string; total_events: number }[] }[] };
    expect(json.data[0]?.data.map((r) => [r.name, r.total_events])).toEqual([['in_process_now', 1]]);
  });

  it('through MSW: an event posted to /track now is in custom_events at once', async () => {
    const sim = setupSimulator({ seed: 42 });
    try {
      const now = sim.clock.now();
      const tracked = await fetch(sim.url('/track'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': sim.secretOf('key_acme_track') },
        body: JSON.stringify({ name: 'in_process_now', websiteId: 'web_acme_www', timestamp: now }),
      });
      expect(tracked.status).toBe(200);
      const res = await fetch(sim.url('/v1/query?website_id=web_acme_www'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': sim.secretOf('key_acme_read') },
        body: body(now),
      });
      const json = (await res.json()) as { data: { data: { name: string; total_events: number }[] }[] };
      expect(json.data[0]?.data.map((r) => [r.name, r.total_events])).toEqual([['in_process_now', 1]]);
    } finally {
      sim.close();
    }
  });
});

describe('a batch stored while it is queried', () => {
  it('is seen whole or not at all by a query sent in the same instant, and whole by the next one', async () => {
    const sim = createSimulator({ seed: 42 });
    const now = sim.clock.now();
    const events = Array.from({ length: 100 }, (_, i) => ({ name: 'batch_whole', websiteId: 'web_acme_store', timestamp: now - i, anonymousId: `anon_${i}` }));
    const query = () =>
      sim.handle({
        method: 'POST',
        path: '/v1/query',
        query: { website_id: 'web_acme_store' },
        headers: { 'content-type': 'application/json', 'x-api-key': secretOf(sim, 'key_acme_read') },
        body: JSON.stringify({ parameters: ['custom_events'], startDate: dayOf(now), endDate: dayOf(now), filters: [{ field: 'event_name', op: 'eq', value: 'batch_whole' }] }),
      });
    const totalOf = (body: string) => ((JSON.parse(body) as { data: { data: { total_events: number }[] }[] }).data[0]?.data[0]?.total_events ?? 0);
    // The query and the batch are handed over together, neither awaited before the other.
    const [before, tracked, during] = await Promise.all([
      query(),
      sim.handle({ method: 'POST', path: '/track', query: {}, headers: { 'content-type': 'application/json', 'x-api-key': secretOf(sim, 'key_acme_track') }, body: JSON.stringify(events) }),
      query(),
    ]);
    expect(tracked.status).toBe(200);
    expect([0, 100]).toContain(totalOf(before.body));
    expect([0, 100]).toContain(totalOf(during.body));
    expect(totalOf((await query()).body)).toBe(100);
  });
});
