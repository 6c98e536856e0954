import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/index.js';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const AT = (minute: number): number => Date.UTC(2025, 5, 2, 10, minute);

/** A page view as the browser tracker sends it. */
function pageView(eventId: string, path: string, minute: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { eventId, name: 'screen_view', path: `https://acme.io${path}`, anonymousId: 'anon_visitor1', sessionId: 'sess_visit1', timestamp: AT(minute), ...fields };
}

function batch(sim: Simulator, body: unknown, options: { clientId?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return call(sim, 'POST', '/batch', {
    ...(options.clientId === '' ? {} : { query: { client_id: options.clientId ?? 'web_acme_www' } }),
    headers: { 'user-agent': CHROME, ...options.headers },
    body,
  });
}

async function rows(sim: Simulator, type: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
  const answer = await call(sim, 'POST', '/v1/query', {
    key: secretOf(sim, 'key_acme_read'),
    query: { website_id: 'web_acme_www' },
    body: { parameters: [type], startDate: '2025-06-02', endDate: '2025-06-02', limit: 1000, ...extra },
  });
  expect(answer.status).toBe(200);
  return answer.json.data[0].data;
}

const pathRow = (list: Record<string, unknown>[], path: string) => list.find((r) => (r.path ?? r.name) === path);

describe('POST /batch: page views flow into the query catalogue', () => {
  it('shows a page view posted for a new path in top_pages with one view, one visitor and one session', async () => {
    const sim = freshSimulator();
    expect(pathRow(await rows(sim, 'top_pages'), '/launch-offer')).toBeUndefined();
    const answer = await batch(sim, [pageView('ev_1', '/launch-offer', 0)]);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      status: 'success',
      batch: true,
      processed: 1,
      batched: { track: 1, outgoing_link: 0 },
      results: [{ status: 'success', type: 'track', eventId: 'ev_1' }],
    });
    expect(pathRow(await rows(sim, 'top_pages'), '/launch-offer')).toMatchObject({ pageviews: 1, visitors: 1, sessions: 1 });
  });

  it('adds a two-page session to summary_metrics, the browser breakdown and an existing page, as generated traffic counts', async () => {
    const sim = freshSimulator();
    const [summaryBefore] = await rows(sim, 'summary_metrics');
    const chromeBefore = (await rows(sim, 'browser_name')).find((r) => r.name === 'Chrome');
    const pricingBefore = pathRow(await rows(sim, 'top_pages'), '/pricing');
    await batch(sim, [pageView('ev_1', '/launch-offer', 0), pageView('ev_2', '/pricing', 2)]);
    const [summaryAfter] = await rows(sim, 'summary_metrics');
    expect(summaryAfter).toMatchObject({
      pageviews: (summaryBefore?.pageviews as number) + 2,
      sessions: (summaryBefore?.sessions as number) + 1,
      visitors: (summaryBefore?.visitors as number) + 1,
    });
    const chromeAfter = (await rows(sim, 'browser_name')).find((r) => r.name === 'Chrome');
    expect(chromeAfter?.pageviews).toBe((chromeBefore?.pageviews as number) + 2);
    expect(chromeAfter?.visitors).toBe((chromeBefore?.visitors as number) + 1);
    expect(pathRow(await rows(sim, 'top_pages'), '/pricing')?.pageviews).toBe((pricingBefore?.pageviews as number) + 1);
  });

  it('applies filters to ingested sessions as to generated ones: a browser filter that excludes them leaves the totals unchanged', async () => {
    const sim = freshSimulator();
    const filters = [{ field: 'browser_name', op: 'eq', value: 'Firefox' }];
    const [before] = await rows(sim, 'summary_metrics', { filters });
    await batch(sim, [pageView('ev_1', '/launch-offer', 0)]);
    const [after] = await rows(sim, 'summary_metrics', { filters });
    expect(after).toEqual(before);
  });

  it('answers every item on its own and still with HTTP 200: a success, an unknown type, a schema failure naming the field', async () => {
    const sim = freshSimulator();
    const answer = await batch(sim, [pageView('ev_1', '/a', 0), { type: 'heartbeat', eventId: 'x' }, { eventId: 'ev_3', name: 'screen_view', path: 'not a url' }]);
    expect(answer.status).toBe(200);
    expect(answer.json.status).toBe('partial');
    expect(answer.json.batched).toEqual({ track: 1, outgoing_link: 0 });
    expect(answer.json.results[1]).toEqual({ status: 'error', message: 'Unknown event type', eventType: 'heartbeat' });
    expect(answer.json.results[2]).toMatchObject({ status: 'error', code: 'INVALID_EVENT_SCHEMA', eventType: 'track', eventId: 'ev_3', errors: [{ field: 'path' }] });
    const none = await batch(sim, [{ type: 'heartbeat' }]);
    expect(none.status).toBe(200);
    expect(none.json.status).toBe('error');
  });

  it('stores a repeated event id once and still answers success for it', async () => {
    const sim = freshSimulator();
    await batch(sim, [pageView('ev_1', '/launch-offer', 0)]);
    const again = await batch(sim, [pageView('ev_1', '/launch-offer', 0), pageView('ev_1', '/launch-offer', 0)]);
    expect(again.json.results).toEqual([
      { status: 'success', type: 'track', eventId: 'ev_1' },
      { status: 'success', type: 'track', eventId: 'ev_1' },
    ]);
    expect(pathRow(await rows(sim, 'top_pages'), '/launch-offer')?.pageviews).toBe(1);
  });

  it('accepts a sendBeacon body sent as text/plain', async () => {
    const sim = freshSimulator();
    const answer = await batch(sim, JSON.stringify([pageView('ev_1', '/beacon-page', 0)]), { headers: { 'content-type': 'text/plain;charset=UTF-8' } });
    expect(answer.status).toBe(200);
    expect(pathRow(await rows(sim, 'top_pages'), '/beacon-page')?.pageviews).toBe(1);
  });

  it("answers a bot's batch item by item with Bot detected and stores nothing", async () => {
    const sim = freshSimulator();
    const answer = await batch(sim, [pageView('ev_1', '/bot-page', 0)], { headers: { 'user-agent': 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)' } });
    expect(answer.status).toBe(200);
    expect(answer.json.results).toEqual([{ status: 'error', message: 'Bot detected', eventType: 'track', error: 'ignored' }]);
    expect(pathRow(await rows(sim, 'top_pages'), '/bot-page')).toBeUndefined();
  });

  it('admits 1,000 batches of one client id and IP in the same minute, as /batch has no rate limit (/track refuses the 601st)', async () => {
    const sim = freshSimulator();
    for (let i = 0; i < 1000; i++) {
      const answer = await batch(sim, [pageView(`ev_burst_${i}`, '/burst', 0)]);
      expect(answer.status).toBe(200);
      expect(answer.json.status).toBe('success');
    }
    expect(pathRow(await rows(sim, 'top_pages'), '/burst')).toMatchObject({ pageviews: 1000 });
  });

  it('forgets ingested page views on reset', async () => {
    const sim = freshSimulator();
    await batch(sim, [pageView('ev_1', '/launch-offer', 0)]);
    await sim.reset();
    expect(pathRow(await rows(sim, 'top_pages'), '/launch-offer')).toBeUndefined();
  });
});

describe('POST /batch and POST /: refusals in the ingestion envelope', () => {
  it('refuses a request without a client id with 400 basket.INGEST_MISSING_CLIENT_ID, not retryable', async () => {
    const answer = await batch(freshSimulator(), [pageView('ev_1', '/a', 0)], { clientId: '' });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ success: false, status: 'error', code: 'basket.INGEST_MISSING_CLIENT_ID', message: 'Missing client ID', retryable: false });
    expect(answer.json.why).toEqual(expect.any(String));
    expect(answer.json.fix).toEqual(expect.any(String));
  });

  it('reads the client id from the databuddy-client-id header when the query has none', async () => {
    const answer = await batch(freshSimulator(), [pageView('ev_1', '/a', 0)], { clientId: '', headers: { 'databuddy-client-id': 'web_acme_www' } });
    expect(answer.status).toBe(200);
  });

  it('refuses an unknown website with 400 basket.INGEST_INVALID_CLIENT_ID', async () => {
    const answer = await batch(freshSimulator(), [pageView('ev_1', '/a', 0)], { clientId: 'web_nope' });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('basket.INGEST_INVALID_CLIENT_ID');
  });

  it("refuses a foreign Origin with 403 basket.INGEST_ORIGIN_NOT_AUTHORIZED and accepts the website's own domain and subdomains", async () => {
    const sim = freshSimulator();
    const foreign = await batch(sim, [pageView('ev_1', '/a', 0)], { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.json.code).toBe('basket.INGEST_ORIGIN_NOT_AUTHORIZED');
    expect((await batch(sim, [pageView('ev_2', '/a', 0)], { headers: { origin: 'https://www.acme.io' } })).status).toBe(200);
    expect((await batch(sim, [pageView('ev_3', '/a', 0)], { headers: { origin: 'https://shop.acme.io' } })).status).toBe(200);
    expect((await batch(sim, [pageView('ev_4', '/a', 0)], { headers: { origin: 'null' } })).status).toBe(403);
  });

  it('refuses a body that is not an array with 400 basket.INGEST_BATCH_NOT_ARRAY, and 101 items with basket.INGEST_BATCH_TOO_LARGE', async () => {
    const sim = freshSimulator();
    const object = await batch(sim, pageView('ev_1', '/a', 0));
    expect(object.status).toBe(400);
    expect(object.json.code).toBe('basket.INGEST_BATCH_NOT_ARRAY');
    const tooMany = await batch(sim, Array.from({ length: 101 }, (_, i) => pageView(`ev_${i}`, '/a', 0)));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.code).toBe('basket.INGEST_BATCH_TOO_LARGE');
  });

  it('answers malformed JSON with 400 in the ingestion envelope, retryable false', async () => {
    const answer = await batch(freshSimulator(), '[{"eventId":');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ success: false, status: 'error', retryable: false });
  });

  it('POST / stores an outgoing-link click that outbound_links then lists, and refuses an unknown type with basket.INGEST_UNKNOWN_EVENT_TYPE', async () => {
    const sim = freshSimulator();
    const click = await call(sim, 'POST', '/', {
      query: { client_id: 'web_acme_www' },
      headers: { 'user-agent': CHROME },
      body: { type: 'outgoing_link', eventId: 'ol_1', href: 'https://partner.example/offer', text: 'Partner offer', anonymousId: 'anon_visitor1', sessionId: 'sess_visit1', timestamp: AT(3) },
    });
    expect(click.status).toBe(200);
    expect(click.json).toEqual({ status: 'success', type: 'outgoing_link' });
    const links = await rows(sim, 'outbound_links');
    expect(links.find((r) => r.href === 'https://partner.example/offer')).toMatchObject({ text: 'Partner offer', total_clicks: 1, unique_users: 1, unique_sessions: 1 });
    const domains = await rows(sim, 'outbound_domains');
    expect(domains.find((r) => r.domain === 'partner.example')).toMatchObject({ total_clicks: 1, unique_links: 1 });
    const unknown = await call(sim, 'POST', '/', { query: { client_id: 'web_acme_www' }, headers: { 'user-agent': CHROME }, body: { type: 'heartbeat' } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.code).toBe('basket.INGEST_UNKNOWN_EVENT_TYPE');
  });

  it('POST / answers a schema failure with 400 basket.INVALID_EVENT_SCHEMA listing the fields, and a bot with 204', async () => {
    const sim = freshSimulator();
    const bad = await call(sim, 'POST', '/', { query: { client_id: 'web_acme_www' }, headers: { 'user-agent': CHROME }, body: { name: 'screen_view' } });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('basket.INVALID_EVENT_SCHEMA');
    expect(bad.json.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['eventId', 'path']));
    const bot = await call(sim, 'POST', '/', { query: { client_id: 'web_acme_www' }, headers: { 'user-agent': 'curl-bot/1.0 crawler' }, body: pageView('ev_1', '/a', 0) });
    expect(bot.status).toBe(204);
    expect(bot.text).toBe('');
  });
});

describe('POST /batch: ingested sessions in the sessions family', () => {
  it('lists an ingested session in session_list under the session id it was sent with, with its page views', async () => {
    const sim = freshSimulator();
    await batch(sim, [pageView('ev_1', '/launch-offer', 0), pageView('ev_2', '/pricing', 2), pageView('ev_3', '/signup', 5)]);
    const sessions = await rows(sim, 'session_list');
    const mine = sessions.find((r) => r.session_id === 'sess_visit1');
    expect(mine).toBeDefined();
    expect(mine).toMatchObject({ page_views: 3 });
  });
});

describe('POST /batch: ingested page views in the realtime types', () => {
  it('shows a page view sent a minute ago in realtime_pages and realtime_feed', async () => {
    const sim = freshSimulator();
    const now = sim.clock.now();
    await batch(sim, [{ eventId: 'rt_1', name: 'screen_view', path: 'https://acme.io/live-now', anonymousId: 'anon_rt', sessionId: 'sess_rt', timestamp: now - 60_000 }]);
    const pages = await rows(sim, 'realtime_pages');
    expect(pages.find((r) => (r.path ?? r.name ?? r.page) === '/live-now')).toBeDefined();
    const feed = await rows(sim, 'realtime_feed');
    expect(feed.some((r) => JSON.stringify(r).includes('/live-now'))).toBe(true);
  });
});

describe('POST /batch: oversized bodies', () => {
  it('refuses a body over 1 MB with 413 basket.INGEST_PAYLOAD_TOO_LARGE, not retryable', async () => {
    const big = [pageView('ev_1', '/a', 0, { title: 'x'.repeat(512) })];
    const body = JSON.stringify(Array.from({ length: 2100 }, () => big[0]));
    const answer = await batch(freshSimulator(), body);
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ code: 'basket.INGEST_PAYLOAD_TOO_LARGE', retryable: false });
  });
});

describe('POST /batch: bots as the service sorts them', () => {
  it('ingests a search engine’s page view like a person’s, as the service lets search engines through', async () => {
    const sim = freshSimulator();
    const answer = await batch(sim, [pageView('ev_g', '/indexed-page', 0)], { headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } });
    expect(answer.json.results).toEqual([{ status: 'success', type: 'track', eventId: 'ev_g' }]);
    expect(pathRow(await rows(sim, 'top_pages'), '/indexed-page')).toMatchObject({ pageviews: 1 });
  });

  it('keeps an AI crawler’s page view as AI traffic only: Bot detected per item, nothing in top_pages, the request in ai_recent_requests', async () => {
    const sim = freshSimulator();
    const answer = await batch(sim, [pageView('ev_ai', '/docs-for-llms', 0)], { headers: { 'user-agent': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)' } });
    expect(answer.json.results).toEqual([{ status: 'error', message: 'Bot detected', eventType: 'track', error: 'ignored' }]);
    expect(pathRow(await rows(sim, 'top_pages'), '/docs-for-llms')).toBeUndefined();
    sim.clock.advance(120_000);
    const recent = await call(sim, 'POST', '/v1/query', {
      key: secretOf(sim, 'key_acme_read'),
      query: { website_id: 'web_acme_www' },
      body: { parameters: ['ai_recent_requests'], preset: 'today', limit: 1000 },
    });
    expect(JSON.stringify(recent.json.data[0].data)).toContain('/docs-for-llms');
  });
});
