import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/index.js';
import { createSimulator } from '../../../src/index.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const GIF_HEAD = 'GIF89a';

function pixel(sim: Simulator, query: Record<string, string>, headers: Record<string, string> = {}) {
  return sim.handle({ method: 'GET', path: '/px.jpg', query, headers: { 'user-agent': CHROME, ...headers } });
}

async function topPage(sim: Simulator, path: string) {
  const answer = await call(sim, 'POST', '/v1/query', {
    key: secretOf(sim, 'key_acme_read'),
    query: { website_id: 'web_acme_www' },
    body: { parameters: ['top_pages'], startDate: '2025-06-02', endDate: '2025-06-02', limit: 1000 },
  });
  return (answer.json.data[0].data as Record<string, unknown>[]).find((r) => (r.path ?? r.name) === path);
}

describe('GET /px.jpg: the pixel transport', () => {
  it('answers a 1×1 GIF and stores the page view its query string carries, nested properties included', async () => {
    const sim = freshSimulator();
    const response = await pixel(sim, {
      client_id: 'web_acme_www',
      sdk_name: 'web',
      sdk_version: '2.0.0',
      type: 'track',
      eventId: 'px_1',
      name: 'screen_view',
      path: 'https://acme.io/pixel-page',
      anonymousId: 'anon_px',
      sessionId: 'sess_px',
      timestamp: String(Date.UTC(2025, 5, 2, 9)),
      'properties[plan]': 'pro',
    });
    expect(response.status).toBe(200);
    expect(response.headers['Content-Type']).toBe('image/gif');
    expect(response.bytes?.length).toBe(43);
    expect(Buffer.from(response.bytes ?? []).subarray(0, 6).toString('latin1')).toBe(GIF_HEAD);
    expect(await topPage(sim, '/pixel-page')).toMatchObject({ pageviews: 1, visitors: 1 });
  });

  it('stores a track event unchecked, as the service does, and says so in a Warning header', async () => {
    const sim = freshSimulator();
    const response = await pixel(sim, { client_id: 'web_acme_www', eventId: 'px_2', name: 'screen_view', path: 'https://acme.io/loose', title: 'x'.repeat(600), timestamp: String(Date.UTC(2025, 5, 2, 9)) });
    expect(response.status).toBe(200);
    expect(response.headers.Warning).toMatch(/unchecked/);
    expect(await topPage(sim, '/loose')).toMatchObject({ pageviews: 1 });
  });

  it('answers the GIF with HTTP 200 for an unknown client id and for a bot, and stores nothing', async () => {
    const sim = freshSimulator();
    const unknown = await pixel(sim, { client_id: 'web_nope', eventId: 'px_3', name: 'screen_view', path: 'https://acme.io/ghost' });
    expect(unknown.status).toBe(200);
    expect(unknown.headers['Content-Type']).toBe('image/gif');
    const bot = await pixel(sim, { client_id: 'web_acme_www', eventId: 'px_4', name: 'screen_view', path: 'https://acme.io/ghost' }, { 'user-agent': 'AhrefsBot/7.0' });
    expect(bot.status).toBe(200);
    expect(await topPage(sim, '/ghost')).toBeUndefined();
  });

  it('answers a full ingestion storage with 503, an empty body and Retry-After: 5, so the tracker retries', async () => {
    const sim = createSimulator({ seed: 42, eventStorage: { maxEvents: 1 } });
    expect((await pixel(sim, { client_id: 'web_acme_www', eventId: 'px_5', name: 'screen_view', path: 'https://acme.io/a' })).status).toBe(200);
    const full = await pixel(sim, { client_id: 'web_acme_www', eventId: 'px_6', name: 'screen_view', path: 'https://acme.io/b' });
    expect(full.status).toBe(503);
    expect(full.body).toBe('');
    expect(full.headers['Retry-After']).toBe('5');
  });

  it('serves the GIF bytes unchanged through the fetch adapter', async () => {
    const sim = freshSimulator();
    const response = await sim.fetch(new Request('http://sim.test/px.jpg?client_id=web_acme_www&eventId=px_7&name=screen_view&path=https%3A%2F%2Facme.io%2Ff', { headers: { 'user-agent': CHROME } }));
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.length).toBe(43);
    expect(bytes[10]).toBe(0x80);
  });

  it('stores an error pixel event that recent_errors then lists, and drops an invalid one with the GIF and a Warning', async () => {
    const sim = freshSimulator();
    const at = String(Date.UTC(2025, 5, 2, 9, 30));
    const stored = await pixel(sim, { client_id: 'web_acme_www', type: 'error', eventId: 'px_err', path: 'https://acme.io/checkout', message: 'Pixel boom', errorType: 'TypeError', timestamp: at });
    expect(stored.status).toBe(200);
    const answer = await call(sim, 'POST', '/v1/query', {
      key: secretOf(sim, 'key_acme_read'),
      query: { website_id: 'web_acme_www' },
      body: { parameters: ['recent_errors'], startDate: '2025-06-02', endDate: '2025-06-02', limit: 1000 },
    });
    expect(JSON.stringify(answer.json.data[0].data)).toContain('Pixel boom');
    const invalid = await pixel(sim, { client_id: 'web_acme_www', type: 'web_vitals', eventId: 'px_v', path: 'https://acme.io/', metricName: 'NOPE', metricValue: '1' });
    expect(invalid.status).toBe(200);
    expect(invalid.headers['Content-Type']).toBe('image/gif');
    expect(invalid.headers.Warning).toMatch(/invalid web_vitals pixel event was dropped/);
  });

  it.each(['identify', 'engagement'])('answers the GIF for a pixel of type %s, which has no pixel mapping, stores nothing and says so in a Warning', async (type) => {
    const sim = freshSimulator();
    const response = await pixel(sim, { client_id: 'web_acme_www', type, profileId: 'customer_px', anonymousId: 'anon_px', path: 'https://acme.io/px-unmapped', timeOnPage: '40' });
    expect(response.status).toBe(200);
    expect(response.headers['Content-Type']).toBe('image/gif');
    expect(response.headers.Warning).toMatch(new RegExp(`type: Pixel events of type ${type} are not an event type of the service and were dropped`));
    expect((await call(sim, 'GET', '/__sim/profiles', { query: { website_id: 'web_acme_www' } })).json.total).toBe(0);
    expect(await topPage(sim, '/px-unmapped')).toBeUndefined();
  });

  it('keeps a named event sent as a pixel out of custom_events, as the service writes pixel track events to events', async () => {
    const sim = freshSimulator();
    const at = Date.UTC(2025, 5, 2, 9, 45);
    const customEvents = async (): Promise<string[]> => {
      const answer = await call(sim, 'POST', '/v1/query', {
        key: secretOf(sim, 'key_acme_read'),
        query: { website_id: 'web_acme_www' },
        body: { parameters: ['custom_events'], startDate: '2025-06-02', endDate: '2025-06-02', limit: 1000 },
      });
      return (answer.json.data[0].data as { name: string }[]).map((r) => r.name);
    };
    const response = await pixel(sim, { client_id: 'web_acme_www', type: 'track', eventId: 'px_custom', name: 'pixel_signup', path: 'https://acme.io/pricing', timestamp: String(at) });
    expect(response.status).toBe(200);
    expect(response.headers['Content-Type']).toBe('image/gif');
    expect(await customEvents()).not.toContain('pixel_signup');
    // The same event sent to /track is a custom event.
    const tracked = await call(sim, 'POST', '/track', { query: { website_id: 'web_acme_www' }, headers: { 'user-agent': CHROME }, body: { name: 'pixel_signup', timestamp: at } });
    expect(tracked.status).toBe(200);
    expect(await customEvents()).toContain('pixel_signup');
  });
});
