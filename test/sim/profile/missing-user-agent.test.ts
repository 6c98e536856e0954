import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/index.js';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import { engagementSpan, errorSpan, TODAY, vital } from '../ingest/span-support.js';

const AT = Date.UTC(2025, 5, 2, 11, 0);
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const BLOCKED = /user-agent: No User-Agent header was sent: blocked as a bot, as the live service blocks such a request \(blockMissingUserAgent\); nothing was stored\. Send a User-Agent header/;
const WOULD_BE_BLOCKED = /user-agent: No User-Agent header was sent: taken under the spec profile, but the live service \(and --profile live\) blocks such a request as a bot and stores nothing\. Send a User-Agent header/;

const pageView = (eventId: string, path: string) => ({ eventId, name: 'screen_view', path: `https://acme.io${path}`, anonymousId: 'anon_ua', sessionId: 'sess_ua', timestamp: AT });

/** A request to an ingestion route with the given headers (none: no User-Agent at all). */
function send(sim: Simulator, method: string, path: string, query: Record<string, string>, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(sim, method, path, { query, headers, ...(body === undefined ? {} : { body }) });
}

/** The rows of one type for a website today, read with key_acme_read. */
async function rows(sim: Simulator, websiteId: string, type: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
  const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { website_id: websiteId }, body: { parameters: [type], ...TODAY, limit: 1000, ...extra } });
  expect(answer.status).toBe(200);
  return answer.json.data[0].data;
}

const trackedCount = async (sim: Simulator, name: string): Promise<number> =>
  ((await rows(sim, 'web_acme_store', 'custom_events')).find((r) => r.name === name)?.total_events as number | undefined) ?? 0;

/** Every route that checks for bots, with a request it would otherwise accept, and what a blocked one answers. */
const ROUTES = [
  { route: 'POST /track', method: 'POST', path: '/track', query: { website_id: 'web_acme_store' }, body: { name: 'ua_less', timestamp: AT }, blocked: 204 },
  { route: 'POST /', method: 'POST', path: '/', query: { client_id: 'web_acme_www' }, body: pageView('ev_single', '/ua-less'), blocked: 204 },
  { route: 'POST /vitals', method: 'POST', path: '/vitals', query: { client_id: 'web_acme_store' }, body: [vital()], blocked: 204 },
  { route: 'POST /errors', method: 'POST', path: '/errors', query: { client_id: 'web_acme_store' }, body: [errorSpan()], blocked: 204 },
  { route: 'POST /engagement', method: 'POST', path: '/engagement', query: { client_id: 'web_acme_store' }, body: [engagementSpan()], blocked: 204 },
  { route: 'POST /events', method: 'POST', path: '/events', query: { client_id: 'web_acme_store' }, body: [{ eventName: 'ua_less', path: '/checkout', timestamp: AT }], blocked: 204 },
  { route: 'POST /identify', method: 'POST', path: '/identify', query: { client_id: 'web_acme_store' }, body: { profileId: 'customer_ua', anonymousId: 'anon_ua' }, blocked: 204 },
  { route: 'GET /px.jpg', method: 'GET', path: '/px.jpg', query: { client_id: 'web_acme_www', eventId: 'px_ua', name: 'screen_view', path: 'https://acme.io/ua-less-pixel' }, body: undefined, blocked: 200 },
] as const;

describe('missing-user-agent', () => {
  it.each(ROUTES)('answers $route without a User-Agent as a blocked bot under live, says why in a Warning, and takes it under spec with a Warning', async ({ method, path, query, body, blocked }) => {
    const live = await send(freshSimulator({ profile: 'live' }), method, path, query, body);
    expect(live.status).toBe(blocked);
    if (blocked === 204) expect(live.text).toBe('');
    else expect(live.headers['Content-Type']).toBe('image/gif');
    expect(live.headers.Warning).toMatch(BLOCKED);

    const spec = await send(freshSimulator(), method, path, query, body);
    expect(spec.status).toBe(200);
    expect(spec.headers.Warning).toMatch(WOULD_BE_BLOCKED);

    const withOne = await send(freshSimulator({ profile: 'live' }), method, path, query, body, { 'user-agent': CHROME });
    expect(withOne.status).toBe(200);
    expect(withOne.headers.Warning).toBeUndefined();
  });

  it('blocks a /track request with no User-Agent, or a blank one, under live and stores nothing; spec stores it', async () => {
    const live = freshSimulator({ profile: 'live' });
    const key = secretOf(live, 'key_acme_track');
    for (const headers of [{}, { 'user-agent': '' }, { 'user-agent': '   ' }] as Record<string, string>[]) {
      const answer = await call(live, 'POST', '/track', { key, headers, body: { name: 'ua_blank', websiteId: 'web_acme_store', timestamp: AT } });
      expect(answer.status).toBe(204);
      expect(answer.headers.Warning).toMatch(BLOCKED);
    }
    expect(await trackedCount(live, 'ua_blank')).toBe(0);

    const spec = freshSimulator();
    const taken = await call(spec, 'POST', '/track', { key: secretOf(spec, 'key_acme_track'), body: { name: 'ua_blank', websiteId: 'web_acme_store', timestamp: AT } });
    expect(taken.json).toEqual({ status: 'success', type: 'custom_event', count: 1 });
    expect(await trackedCount(spec, 'ua_blank')).toBe(1);
  });

  it('answers each item of a /batch without a User-Agent with Bot detected under live, with HTTP 200, and stores no page view', async () => {
    const live = freshSimulator({ profile: 'live' });
    const answer = await send(live, 'POST', '/batch', { client_id: 'web_acme_www' }, [pageView('ev_1', '/ua-less-batch'), { type: 'outgoing_link', eventId: 'ol_1', href: 'https://example.com', text: 'out' }]);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      status: 'error',
      batch: true,
      processed: 2,
      batched: { track: 0, outgoing_link: 0 },
      results: [
        { status: 'error', message: 'Bot detected', eventType: 'track', error: 'ignored' },
        { status: 'error', message: 'Bot detected', eventType: 'outgoing_link', error: 'ignored' },
      ],
    });
    expect(answer.headers.Warning).toMatch(BLOCKED);
    expect((await rows(live, 'web_acme_www', 'top_pages')).find((r) => r.name === '/ua-less-batch' || r.path === '/ua-less-batch')).toBeUndefined();

    const spec = freshSimulator();
    const taken = await send(spec, 'POST', '/batch', { client_id: 'web_acme_www' }, [pageView('ev_1', '/ua-less-batch')]);
    expect(taken.json.results).toEqual([{ status: 'success', type: 'track', eventId: 'ev_1' }]);
    expect(taken.headers.Warning).toMatch(WOULD_BE_BLOCKED);
    expect((await rows(spec, 'web_acme_www', 'top_pages')).find((r) => r.path === '/ua-less-batch')).toMatchObject({ pageviews: 1 });
  });

  it('spends no /track window on a blocked request: after 600 without a User-Agent, one with a User-Agent is still admitted under live', async () => {
    const live = freshSimulator({ profile: 'live' });
    const key = secretOf(live, 'key_acme_track');
    for (let i = 0; i < 600; i++) expect((await call(live, 'POST', '/track', { key, body: { name: 'ua_window', websiteId: 'web_acme_store' } })).status).toBe(204);
    const admitted = await call(live, 'POST', '/track', { key, headers: { 'user-agent': 'node' }, body: { name: 'ua_window', websiteId: 'web_acme_store', timestamp: AT } });
    expect(admitted.status).toBe(200);
    expect(await trackedCount(live, 'ua_window')).toBe(1);
  });

  it('blocks no /identify sent with an API key, as the service checks bots only on client-id requests', async () => {
    const live = freshSimulator({ profile: 'live' });
    const answer = await call(live, 'POST', '/identify', { key: secretOf(live, 'key_acme_track'), body: { websiteId: 'web_acme_store', profileId: 'customer_key', anonymousId: 'anon_key' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.Warning).toBeUndefined();
  });

  it('keeps the answer each profile gives under --strict: the Warning is not turned into a 400', async () => {
    for (const [profile, status] of [['live', 204], ['spec', 200]] as const) {
      const sim = freshSimulator({ profile, strict: true });
      const answer = await send(sim, 'POST', '/track', { website_id: 'web_acme_store' }, { name: 'ua_strict', timestamp: AT });
      expect(answer.status, profile).toBe(status);
      expect(answer.headers.Warning, profile).toMatch(profile === 'live' ? BLOCKED : WOULD_BE_BLOCKED);
    }
  });

  it('is listed by GET /__sim/profile with the side each profile follows', async () => {
    for (const profile of ['spec', 'live'] as const) {
      const report = await call(freshSimulator({ profile }), 'GET', '/__sim/profile');
      expect(report.json.switches).toContainEqual(expect.objectContaining({ name: 'missing-user-agent', follows: profile }));
    }
  });
});
