import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const ENVELOPE_KEYS = ['code', 'error', 'fix', 'message', 'requestId', 'retryable', 'status', 'success', 'why'];

/** What the browser tracker sends, and what the Node SDK sends over HTTP (Node's fetch): the live profile blocks a request without a User-Agent. */
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' };
const NODE_FETCH = { 'user-agent': 'node' };

describe('track-errors', () => {
  it('answers /track without a key or website with basket.TRACK_MISSING_CREDENTIALS in the ingestion envelope under live, AUTH_REQUIRED under spec', async () => {
    const live = freshSimulator({ profile: 'live' });
    const res = await call(live, 'POST', '/track', { body: { name: 'signup' } });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({
      success: false,
      status: 'error',
      error: 'API key or website_id required',
      message: 'API key or website_id required',
      code: 'basket.TRACK_MISSING_CREDENTIALS',
      retryable: false,
      requestId: res.headers['X-Request-ID'],
      why: 'Neither an API key nor a website_id query parameter was provided.',
      fix: 'Send an API key header or include website_id on the query string.',
    });
    const spec = freshSimulator();
    const specRes = await call(spec, 'POST', '/track', { body: { name: 'signup' } });
    expect(specRes.status).toBe(401);
    expect(specRes.json).toMatchObject({ success: false, code: 'AUTH_REQUIRED', requestId: specRes.headers['X-Request-ID'] });
    expect(specRes.json.status).toBeUndefined();
  });

  it('answers an unknown website with basket.TRACK_WEBSITE_NOT_FOUND under live and NOT_FOUND under spec', async () => {
    for (const profile of ['spec', 'live'] as const) {
      const sim = freshSimulator({ profile });
      const res = await call(sim, 'POST', '/track', { query: { website_id: 'web_nope' }, body: { name: 'signup' } });
      expect(res.status).toBe(404);
      expect(res.json.code).toBe(profile === 'live' ? 'basket.TRACK_WEBSITE_NOT_FOUND' : 'NOT_FOUND');
      if (profile === 'live') expect(Object.keys(res.json).sort()).toEqual(ENVELOPE_KEYS);
    }
  });

  it('answers an event for another website with basket.TRACK_WEBSITE_SCOPE_MISMATCH under live', async () => {
    const live = freshSimulator({ profile: 'live' });
    const res = await call(live, 'POST', '/track', { query: { website_id: 'web_acme_store' }, headers: BROWSER, body: { name: 'signup', websiteId: 'web_acme_www' } });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ code: 'basket.TRACK_WEBSITE_SCOPE_MISMATCH', message: 'Website scope mismatch', retryable: false });
  });

  it('lists a timestamp out of range in errors[{code, field, message}] with the event index under live, and in details under spec', async () => {
    const body = [{ name: 'a' }, { name: 'b', timestamp: 1 }];
    const live = freshSimulator({ profile: 'live' });
    const res = await call(live, 'POST', '/track', { key: secretOf(live, 'key_acme_track'), body });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('basket.INVALID_EVENT_SCHEMA');
    expect(res.json.errors).toEqual([{ code: 'custom', field: '1.timestamp', message: expect.stringContaining('Timestamp outside accepted range') }]);
    expect(res.json.details).toBeUndefined();

    const spec = freshSimulator();
    const specRes = await call(spec, 'POST', '/track', { key: secretOf(spec, 'key_acme_track'), body });
    expect(specRes.json.code).toBe('INVALID_EVENT_SCHEMA');
    expect(specRes.json.details[0].field).toBe('body[1].timestamp');
  });

  it('answers the 601st request in a minute with basket.TRACK_RATE_LIMITED, retryable and without rate-limit headers, under live', async () => {
    for (const profile of ['spec', 'live'] as const) {
      const sim = freshSimulator({ profile });
      const key = secretOf(sim, 'key_acme_track');
      for (let i = 0; i < 600; i++) await call(sim, 'POST', '/track', { key, headers: NODE_FETCH, body: { name: 'tick' } });
      const res = await call(sim, 'POST', '/track', { key, headers: NODE_FETCH, body: { name: 'tick' } });
      expect(res.status).toBe(429);
      if (profile === 'live') {
        expect(res.json).toMatchObject({ code: 'basket.TRACK_RATE_LIMITED', message: 'Rate limit exceeded', retryable: true });
        expect(res.headers['Retry-After']).toBeUndefined();
      } else {
        expect(res.json).toMatchObject({ code: 'RATE_LIMITED', limit: 600, remaining: 0 });
        expect(res.headers['Retry-After']).toBeDefined();
      }
    }
  });
});

describe('refusals the pipeline makes on /track under live', () => {
  it('answers malformed JSON in the ingestion envelope too, with its own code', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const parse = await call(sim, 'POST', '/track', { query: { website_id: 'web_acme_store' }, body: '{"name":' });
    expect(parse.status).toBe(400);
    expect(parse.json).toMatchObject({ success: false, status: 'error' });
    expect(parse.json.code).toBe('PARSE');
    expect(typeof parse.json.retryable).toBe('boolean');
  });
});
