import { describe, expect, it } from 'vitest';
import { sessionCookie, sessionTokenOf } from '../../helpers/credentials.js';
import { freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import { event, GLOBEX_TRACK_KEY, RESTRICTED_TRACK_KEY, track, trackSimulator } from './support.js';

function expectRefusal(answer: Answer, status: number, code: string, error: string): void {
  expect(answer.status).toBe(status);
  expect(answer.json).toMatchObject({ success: false, code, error, requestId: answer.headers['X-Request-ID'] });
  expect(typeof answer.json.hint).toBe('string');
}

describe('POST /track with an API key', () => {
  it('needs the track:events scope', async () => {
    const sim = freshSimulator();
    for (const keyId of ['key_acme_read', 'key_acme_monitors', 'key_acme_quota']) {
      const answer = await track(sim, event('signup'), { key: secretOf(sim, keyId), query: { website_id: 'web_acme_store' } });
      expectRefusal(answer, 403, 'FORBIDDEN', 'API key missing track:events scope');
    }
    const all = await track(sim, event('signup'), { key: secretOf(sim, 'key_acme_all'), query: { website_id: 'web_acme_store' } });
    expect(all.status).toBe(200);
  });

  it('takes the key as x-api-key or as a bearer token', async () => {
    const sim = freshSimulator();
    const secret = secretOf(sim, 'key_acme_track');
    expect((await track(sim, event('a', { websiteId: 'web_acme_www' }), { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    expect((await track(sim, event('a', { websiteId: 'web_acme_www' }), { headers: { 'x-api-key': secret } })).status).toBe(200);
  });

  it('lets a global key send events without a website: organization-level events', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, [event('org_signup'), event('org_signup')], { key: secretOf(sim, 'key_acme_track') });
    expect(answer.status).toBe(200);
    expect(answer.json.count).toBe(2);
  });

  it('lets a global key send to any website of its organization, per event', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, [event('a', { websiteId: 'web_acme_store' }), event('b', { websiteId: 'web_acme_docs' }), event('c')], {
      key: secretOf(sim, 'key_acme_track'),
    });
    expect(answer.status).toBe(200);
    expect(answer.json.count).toBe(3);
  });

  it('refuses a website of another organization with Website scope mismatch', async () => {
    const sim = trackSimulator();
    const acme = await track(sim, event('a', { websiteId: 'web_globex_app' }), { key: secretOf(sim, 'key_acme_track') });
    expectRefusal(acme, 403, 'ACCESS_DENIED', 'Website scope mismatch');
    const globex = await track(sim, event('a'), { key: GLOBEX_TRACK_KEY.secret, query: { website_id: 'web_acme_store' } });
    expectRefusal(globex, 403, 'ACCESS_DENIED', 'Website scope mismatch');
    expect((await track(sim, event('a'), { key: GLOBEX_TRACK_KEY.secret, query: { website_id: 'web_globex_app' } })).status).toBe(200);
  });

  it('refuses an unknown website with 404 Website not found', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, [event('a', { websiteId: 'web_acme_store' }), event('b', { websiteId: 'web_nowhere' })], { key: secretOf(sim, 'key_acme_track') });
    expectRefusal(answer, 404, 'NOT_FOUND', 'Website not found');
  });

  it('lets a website-restricted key send only to its websites, and never without one', async () => {
    const sim = trackSimulator();
    const key = RESTRICTED_TRACK_KEY.secret;
    expect((await track(sim, event('a', { websiteId: 'web_acme_store' }), { key })).status).toBe(200);
    expect((await track(sim, [event('a'), event('b', { websiteId: 'web_acme_docs' })], { key, query: { website_id: 'web_acme_store' } })).status).toBe(200);

    expectRefusal(await track(sim, event('a'), { key }), 403, 'ACCESS_DENIED', 'Website scope mismatch');
    expectRefusal(await track(sim, event('a', { websiteId: 'web_acme_www' }), { key }), 403, 'ACCESS_DENIED', 'Website scope mismatch');
    expectRefusal(
      await track(sim, [event('a', { websiteId: 'web_acme_store' }), event('b')], { key }),
      403,
      'ACCESS_DENIED',
      'Website scope mismatch',
    );
    // A website outside its list is a mismatch even when it does not exist.
    expectRefusal(await track(sim, event('a', { websiteId: 'web_nowhere' }), { key }), 403, 'ACCESS_DENIED', 'Website scope mismatch');
  });
});

describe('POST /track without a usable key', () => {
  it('refuses a request that names no website with 401 API key or website_id required', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, event('signup'));
    expectRefusal(answer, 401, 'AUTH_REQUIRED', 'API key or website_id required');
    expect(answer.headers['WWW-Authenticate']).toMatch(/^Bearer /);
  });

  it('identifies the sender by ?website_id=', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, [event('a'), event('b')], { query: { website_id: 'web_acme_www' } });
    expect(answer.status).toBe(200);
    expect(answer.json.count).toBe(2);
  });

  it('identifies the sender by the first event’s websiteId', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, [event('a', { websiteId: 'web_globex_news' }), event('b')]);
    expect(answer.status).toBe(200);
    expect(answer.json.count).toBe(2);
  });

  it('refuses an unknown website with 404 Website not found', async () => {
    const sim = freshSimulator();
    expectRefusal(await track(sim, event('a'), { query: { website_id: 'web_nowhere' } }), 404, 'NOT_FOUND', 'Website not found');
    expectRefusal(await track(sim, event('a', { websiteId: 'web_nowhere' })), 404, 'NOT_FOUND', 'Website not found');
  });

  it('keeps every event of the request on that website', async () => {
    const sim = freshSimulator();
    const answer = await track(sim, [event('a'), event('b', { websiteId: 'web_acme_docs' })], { query: { website_id: 'web_acme_www' } });
    expectRefusal(answer, 403, 'ACCESS_DENIED', 'Website scope mismatch');
  });

  it.each(['key_acme_expired', 'key_acme_revoked', 'key_acme_disabled'])('treats %s as no key: it falls back to the website, and says why without one', async (keyId) => {
    const sim = freshSimulator();
    const key = secretOf(sim, keyId);
    expect((await track(sim, event('a'), { key, query: { website_id: 'web_acme_www' } })).status).toBe(200);
    const without = await track(sim, event('a'), { key });
    expectRefusal(without, 401, 'AUTH_REQUIRED', 'API key or website_id required');
    expect(without.json.hint).toMatch(/expired|revoked|disabled/);
  });

  it('treats an unknown or malformed key as no key', async () => {
    const sim = freshSimulator();
    for (const key of [`dbdy_${'z'.repeat(48)}`, 'not-a-key']) {
      expect((await track(sim, event('a', { websiteId: 'web_acme_www' }), { key })).status).toBe(200);
      const without = await track(sim, event('a'), { key });
      expectRefusal(without, 401, 'AUTH_REQUIRED', 'API key or website_id required');
      expect(without.json.hint).toMatch(/not recognised|malformed/);
    }
  });

  it('does not take a dashboard session as a credential for events', async () => {
    const sim = freshSimulator();
    const cookie = sessionCookie(sessionTokenOf(sim, 'user_alice'));
    expectRefusal(await track(sim, event('a'), { headers: cookie }), 401, 'AUTH_REQUIRED', 'API key or website_id required');
    expect((await track(sim, event('a'), { headers: cookie, query: { website_id: 'web_acme_www' } })).status).toBe(200);
  });
});
