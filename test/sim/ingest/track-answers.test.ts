import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import { event, NOW, queryRows, rowOf, track } from './support.js';

const STORE = { website_id: 'web_acme_store' };

function expectRefusal(answer: Answer, status: number, code: string, error: string): void {
  expect(answer.status).toBe(status);
  expect(answer.json).toMatchObject({ success: false, code, error, requestId: answer.headers['X-Request-ID'] });
  expect(answer.headers['X-Request-ID']).toMatch(/^req_[A-Za-z0-9]{16}$/);
}

/** The fields named by a 400 INVALID_EVENT_SCHEMA, after checking its body. */
function invalidFields(answer: Answer): string[] {
  expectRefusal(answer, 400, 'INVALID_EVENT_SCHEMA', 'Invalid event schema');
  expect(answer.json.details.length).toBeGreaterThan(0);
  return answer.json.details.map((d: { field: string; message: string }) => {
    expect(d.message.length).toBeGreaterThan(0);
    return d.field;
  });
}

describe('POST /track accepts events', () => {
  it('answers 200 with status, type and count for one event', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, event('signup'), { key: secretOf(sim, 'key_acme_track'), query: STORE });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 'success', type: 'custom_event', count: 1 });
    expect(answer.headers['Content-Type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['X-Request-ID']).toMatch(/^req_/);
  });

  it('accepts a batch of 100 events and counts them all', async () => {
    const sim = freshSimulator();
    const batch = Array.from({ length: 100 }, (_, i) => event(`batch_${i % 5}`, { websiteId: 'web_acme_store' }));
    const answer = await track(sim, batch, { key: secretOf(sim, 'key_acme_track') });
    expect(answer.status).toBe(200);
    expect(answer.json.count).toBe(100);
  });

  it('refuses a batch of 101 events with 400 naming the body, and stores none of them', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    const batch = Array.from({ length: 101 }, () => event('too_many', { websiteId: 'web_acme_store' }));
    const answer = await track(sim, batch, { key });
    expect(invalidFields(answer)).toEqual(['body']);
    expect(answer.json.details[0].message).toBe('A batch holds at most 100 events');
    const rows = await queryRows(sim, secretOf(sim, 'key_acme_read'), STORE, { startDate: '2025-06-02', endDate: '2025-06-02' });
    expect(rowOf(rows, 'too_many')).toBeUndefined();
  });

  it('accepts every optional field at its largest size', async () => {
    const sim = freshSimulator();
    const properties = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${'p'.repeat(125)}${String(i).padStart(3, '0')}`, i]));
    const answer = await track(
      sim,
      event('n'.repeat(256), {
        namespace: 'n'.repeat(64),
        source: 's'.repeat(64),
        properties,
        anonymousId: 'a'.repeat(256),
        sessionId: 's'.repeat(256),
        profileId: 'u'.repeat(256),
        websiteId: 'web_acme_store',
        path: `/${'x'.repeat(2047)}`,
        eventId: 'e'.repeat(512),
        anonymizeVisitorIds: 'auto',
        type: 'custom',
      }),
      { key: secretOf(sim, 'key_acme_track') },
    );
    expect(answer.status).toBe(200);
    expect(answer.json.count).toBe(1);
  });

  it('accepts timestamps as epoch milliseconds, ISO date-times with a zone and dates, up to one hour ahead', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    for (const timestamp of [NOW - 1000, NOW + 3_600_000, '2025-06-02T11:00:00Z', '2025-06-02T13:30:00+02:00', '2025-06-01', Date.UTC(2000, 0, 1)]) {
      const answer = await track(sim, { name: 'timed', timestamp }, { key, query: STORE });
      expect(answer.status, String(timestamp)).toBe(200);
    }
  });

  it('takes a text/plain body, as beacons send it', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, JSON.stringify(event('beacon')), {
      query: { website_id: 'web_acme_blog' },
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.count).toBe(1);
  });

  it('takes an empty batch and stores nothing', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, [], { key: secretOf(sim, 'key_acme_track') });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 'success', type: 'custom_event', count: 0 });
  });
});

describe('POST /track answers bots with 204', () => {
  const BOTS = [
    'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
    'Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0)',
    'Screaming Frog SEO Spider/19.0',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
    'my-crawler/1.0',
  ];

  it.each(BOTS)('answers %s with 204, an empty body, and stores nothing', async (userAgent) => {
    const sim = freshSimulator();
    const answer = await track(sim, event('bot_visit'), { query: STORE, headers: { 'user-agent': userAgent } });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers['X-Request-ID']).toMatch(/^req_/);
    const rows = await queryRows(sim, secretOf(sim, 'key_acme_read'), STORE, { startDate: '2025-06-02', endDate: '2025-06-02' });
    expect(rowOf(rows, 'bot_visit')).toBeUndefined();
  });

  it.each([
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0)',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)',
  ])('ingests %s like a person, as the service lets search engines, link previewers and monitors through', async (userAgent) => {
    const sim = freshSimulator();
    const answer = await track(sim, event('allowed_bot'), { query: STORE, headers: { 'user-agent': userAgent } });
    expect(answer.status).toBe(200);
  });

  it('treats browsers, curl, node fetch and the SDKs as people', async () => {
    const sim = freshSimulator();
    for (const userAgent of ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15', 'curl/8.5.0', 'node', 'undici', '']) {
      const answer = await track(sim, event('human'), { query: STORE, headers: { 'user-agent': userAgent } });
      expect(answer.status, userAgent).toBe(200);
    }
  });

  it('checks the credential before it looks at the user agent', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, event('bot_visit'), { headers: { 'user-agent': 'AhrefsBot/7.0' } });
    expectRefusal(answer, 401, 'AUTH_REQUIRED', 'API key or website_id required');
  });
});

describe('POST /track refuses malformed requests', () => {
  it('refuses a missing or empty name, naming the field', async () => {
    const sim = freshSimulator();
    expect(invalidFields(await track(sim, {}, { query: STORE }))).toEqual(['body.name']);
    expect(invalidFields(await track(sim, { name: '' }, { query: STORE }))).toEqual(['body.name']);
    expect(invalidFields(await track(sim, [event('ok'), { name: 7 }], { query: STORE }))).toEqual(['body[1].name']);
  });

  it('names every field over its bound', async () => {
    const sim = freshSimulator();
    const answer = await track(
      sim,
      {
        name: 'n'.repeat(257),
        namespace: 'n'.repeat(65),
        source: 's'.repeat(65),
        anonymousId: 'a'.repeat(257),
        sessionId: 's'.repeat(257),
        profileId: 'p'.repeat(257),
        websiteId: 'w'.repeat(256),
        path: 'p'.repeat(2049),
        eventId: 'e'.repeat(513),
      },
      { query: STORE },
    );
    expect(invalidFields(answer).sort()).toEqual(
      ['body.anonymousId', 'body.eventId', 'body.name', 'body.namespace', 'body.path', 'body.profileId', 'body.sessionId', 'body.source', 'body.websiteId'].sort(),
    );
  });

  it('refuses more than 50 properties, a property name over 128 characters and properties over 32768 characters of JSON', async () => {
    const sim = freshSimulator();
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    const tooMany = await track(sim, event('p', { properties: many }), { query: STORE });
    expect(invalidFields(tooMany)).toEqual(['body.properties']);
    expect(tooMany.json.details[0].message).toBe('Too many properties (at most 50)');

    const longName = await track(sim, [event('p', { properties: { ['k'.repeat(129)]: 1 } })], { query: STORE });
    expect(invalidFields(longName)).toEqual(['body[0].properties']);
    expect(longName.json.details[0].message).toMatch(/longer than 128 characters/);

    const large = await track(sim, event('p', { properties: { blob: 'x'.repeat(32_760) } }), { query: STORE });
    expect(invalidFields(large)).toEqual(['body.properties']);
    expect(large.json.details[0].message).toMatch(/32768/);

    const notRecord = await track(sim, event('p', { properties: [1, 2] }), { query: STORE });
    expect(invalidFields(notRecord)).toEqual(['body.properties']);
  });

  it('refuses timestamps that are not whole milliseconds or ISO 8601 with a zone', async () => {
    const sim = freshSimulator();
    for (const timestamp of [1.5, 'yesterday', '2025-06-02T10:00:00', '2025-13-40T00:00:00Z', true]) {
      const answer = await track(sim, event('t', { timestamp }), { query: STORE });
      expect(invalidFields(answer), String(timestamp)).toEqual(['body.timestamp']);
    }
  });

  it('refuses timestamps before 2000 or more than an hour ahead of the simulator clock, in a batch by index', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, [event('ok'), event('old', { timestamp: Date.UTC(1999, 11, 31, 23, 59, 59, 999) }), event('late', { timestamp: NOW + 3_600_001 })], {
      query: STORE,
    });
    expect(invalidFields(answer)).toEqual(['body[1].timestamp', 'body[2].timestamp']);
    expect(answer.json.details[1].message).toContain('2025-06-02T13:00:00.000Z');
  });

  it('follows the simulator clock for the future bound', async () => {
    const sim = freshSimulator();
    const later = NOW + 5 * 3_600_000;
    expect(invalidFields(await track(sim, event('t', { timestamp: later }), { query: STORE }))).toEqual(['body.timestamp']);
    sim.clock.advance(4 * 3_600_000);
    expect((await track(sim, event('t', { timestamp: later }), { query: STORE })).status).toBe(200);
  });

  it('refuses a body that is neither an event nor a list of events', async () => {
    const sim = freshSimulator();
    for (const body of ['"signup"', 'null', '42']) {
      const answer = await track(sim, body, { query: STORE });
      expect(invalidFields(answer)).toEqual(['body']);
    }
    const empty = await call(sim, 'POST', '/track', { query: STORE, headers: { 'content-type': 'application/json' } });
    expect(invalidFields(empty)).toEqual(['body']);
  });

  it('refuses malformed JSON with 400 PARSE', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, '{"name": "signup",', { query: STORE });
    expectRefusal(answer, 400, 'PARSE', 'The request could not be read. Check that it is valid JSON and try again.');
  });

  it('refuses a form body with 415', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, 'name=signup', { query: STORE, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectRefusal(answer, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type');
  });

  it('refuses a body over 1 MB with 413, before reading it', async () => {
    const sim = freshSimulator();
    const big = JSON.stringify(Array.from({ length: 40 }, () => event('big', { properties: { blob: 'x'.repeat(30_000) } })));
    expect(big.length).toBeGreaterThan(1_000_000);
    const answer = await track(sim, big, { query: STORE });
    expectRefusal(answer, 413, 'PAYLOAD_TOO_LARGE', 'Payload too large');
  });

  it('answers other methods on /track with 405', async () => {
    const answer = await call(freshSimulator(), 'GET', '/track');
    expect(answer.status).toBe(405);
    expect(answer.headers.Allow).toContain('POST');
  });
});

describe('POST /track without a key: the website’s Origin rule', () => {
  it('refuses a foreign Origin with 403 and accepts the website’s own domain, as the service checks a present Origin', async () => {
    const sim = freshSimulator();
    const foreign = await track(sim, event('from_elsewhere'), { query: STORE, headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.json).toMatchObject({ code: 'ACCESS_DENIED', error: 'Origin not authorized' });
    const own = await track(sim, event('from_store'), { query: STORE, headers: { origin: 'https://store.acme.io' } });
    expect(own.status).toBe(200);
  });

  it('refuses a foreign Origin with 403 basket.INGEST_ORIGIN_NOT_AUTHORIZED under the live profile', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const foreign = await track(sim, event('from_elsewhere'), { query: STORE, headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.json.code).toBe('basket.INGEST_ORIGIN_NOT_AUTHORIZED');
  });
});
