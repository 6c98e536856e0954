import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/index.js';
import { GLOBEX_TRACK_KEY, RESTRICTED_TRACK_KEY, trackSimulator } from './support.js';

const STORE = 'web_acme_store';
const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };

function identify(sim: Simulator, body: unknown, options: { key?: string; query?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Answer> {
  return call(sim, 'POST', '/identify', { body, ...options });
}

function expectBasket(answer: Answer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.json).toMatchObject({ success: false, status: 'error', code: `basket.${code}` });
  expect(answer.json.requestId).toBe(answer.headers['X-Request-ID']);
  expect(answer.headers['X-Request-ID']).toMatch(/^req_/);
}

async function profiles(sim: Simulator, websiteId = STORE, query: Record<string, string> = {}) {
  const answer = await call(sim, 'GET', '/__sim/profiles', { query: { website_id: websiteId, ...query } });
  expect(answer.status).toBe(200);
  return answer.json as { total: number; profiles: { profileId: string; displayName: string | null; email: string | null; traits: Record<string, unknown>; anonymousIds: string[] }[] };
}

async function query(sim: Simulator, parameters: string[], body: Record<string, unknown>): Promise<Record<string, unknown>[][]> {
  const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { website_id: STORE }, body: { parameters, ...body } });
  expect(answer.status).toBe(200);
  return answer.json.data.map((d: { data: Record<string, unknown>[] }) => d.data);
}

describe('POST /identify with an API key', () => {
  it('answers 200 {status, type} and stores the profile with its traits, display name and lower-cased email', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    const answer = await identify(sim, { profileId: 'user_1', anonymousId: 'anon_a', traits: { name: 'Ann Lee', email: 'Ann@Example.COM', plan: 'pro', seats: 3 }, websiteId: STORE }, { key });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 'success', type: 'identify' });
    const listed = await profiles(sim);
    expect(listed.total).toBe(1);
    expect(listed.profiles[0]).toMatchObject({ profileId: 'user_1', displayName: 'Ann Lee', email: 'ann@example.com', traits: { plan: 'pro', seats: 3 }, anonymousIds: ['anon_a'] });
  });

  it('merges traits across calls: a null deletes a trait, username wins over name, a second anonymous id is linked too', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    await identify(sim, { profileId: 'user_1', anonymousId: 'anon_a', traits: { name: 'Ann', plan: 'pro', team: 'red' }, websiteId: STORE }, { key });
    await identify(sim, { profileId: 'user_1', anonymousId: 'anon_b', traits: { username: 'ann_l', team: null, seats: 5 }, websiteId: STORE }, { key });
    const [profile] = (await profiles(sim)).profiles;
    expect(profile).toMatchObject({ displayName: 'ann_l', email: null, traits: { plan: 'pro', seats: 5 }, anonymousIds: ['anon_a', 'anon_b'] });
    expect(profile?.traits).not.toHaveProperty('team');
  });

  it('moves an anonymous id to the profile that last named it', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    await identify(sim, { profileId: 'user_1', anonymousId: 'anon_shared', websiteId: STORE }, { key });
    await identify(sim, { profileId: 'user_2', anonymousId: 'anon_shared', websiteId: STORE }, { key });
    const listed = await profiles(sim);
    expect(listed.profiles.map((p) => [p.profileId, p.anonymousIds])).toEqual([
      ['user_1', []],
      ['user_2', ['anon_shared']],
    ]);
  });

  it('cleans the profile id (control characters removed, trimmed) and refuses one left empty with 400 INVALID_EVENT_SCHEMA naming profileId', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    expect((await identify(sim, { profileId: '  user\u0007_9 ', websiteId: STORE }, { key })).status).toBe(200);
    expect((await profiles(sim)).profiles.map((p) => p.profileId)).toEqual(['user_9']);
    const empty = await identify(sim, { profileId: ' \u0001 ', websiteId: STORE }, { key });
    expectBasket(empty, 400, 'INVALID_EVENT_SCHEMA');
    expect(empty.json.errors).toEqual([{ code: 'custom', field: 'profileId', message: 'profileId must contain a valid identifier' }]);
  });

  it('refuses a body outside the schema with 400 INVALID_EVENT_SCHEMA and errors naming the fields', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    const traits = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`t${i}`, i]));
    for (const [body, field] of [
      [{ websiteId: STORE }, 'profileId'],
      [{ profileId: 'p'.repeat(129), websiteId: STORE }, 'profileId'],
      [{ profileId: 'u', anonymousId: 'a'.repeat(129), websiteId: STORE }, 'anonymousId'],
      [{ profileId: 'u', traits: { nested: { no: 1 } }, websiteId: STORE }, 'traits.nested'],
      [{ profileId: 'u', traits: { long: 'x'.repeat(256) }, websiteId: STORE }, 'traits.long'],
      [{ profileId: 'u', traits, websiteId: STORE }, 'traits'],
    ] as const) {
      const answer = await identify(sim, body, { key });
      expectBasket(answer, 400, 'INVALID_EVENT_SCHEMA');
      expect(answer.json.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await profiles(sim)).total).toBe(0);
  });

  it('refuses without websiteId (400 IDENTIFY_MISSING_WEBSITE_ID), a key without track:events (403 TRACK_MISSING_SCOPE), an unknown website (404) and another organization’s (403 TRACK_WEBSITE_SCOPE_MISMATCH)', async () => {
    const sim = trackSimulator();
    const key = secretOf(sim, 'key_acme_track');
    expectBasket(await identify(sim, { profileId: 'u' }, { key }), 400, 'IDENTIFY_MISSING_WEBSITE_ID');
    expectBasket(await identify(sim, { profileId: 'u', websiteId: STORE }, { key: secretOf(sim, 'key_acme_read') }), 403, 'TRACK_MISSING_SCOPE');
    expectBasket(await identify(sim, { profileId: 'u', websiteId: 'web_acme_www' }, { key: RESTRICTED_TRACK_KEY.secret }), 403, 'TRACK_MISSING_SCOPE');
    expectBasket(await identify(sim, { profileId: 'u', websiteId: 'web_nope' }, { key }), 404, 'TRACK_WEBSITE_NOT_FOUND');
    expectBasket(await identify(sim, { profileId: 'u', websiteId: STORE }, { key: GLOBEX_TRACK_KEY.secret }), 403, 'TRACK_WEBSITE_SCOPE_MISMATCH');
    expect((await identify(sim, { profileId: 'u', websiteId: STORE }, { key: RESTRICTED_TRACK_KEY.secret })).status).toBe(200);
  });

  it('takes the key as Authorization: Bearer too, and never echoes it', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    const answer = await identify(sim, { profileId: 'u' }, { headers: { authorization: `Bearer ${key}` } });
    expectBasket(answer, 400, 'IDENTIFY_MISSING_WEBSITE_ID');
    expect(answer.text).not.toContain(key);
    expect(JSON.stringify(sim.journal.list({ route: '/identify' }))).not.toContain(key);
  });

  it('admits 600 requests of one key in 60 s and refuses the 601st with 429 basket.IDENTIFY_RATE_LIMITED', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    for (let i = 0; i < 600; i++) expect((await identify(sim, { profileId: `u${i % 7}`, websiteId: STORE }, { key })).status).toBe(200);
    const refused = await identify(sim, { profileId: 'u', websiteId: STORE }, { key });
    expectBasket(refused, 429, 'IDENTIFY_RATE_LIMITED');
    expect(refused.json.retryable).toBe(true);
    await call(sim, 'POST', '/__sim/clock', { body: { advanceMs: 60_000 } });
    expect((await identify(sim, { profileId: 'u', websiteId: STORE }, { key })).status).toBe(200);
  });
});

describe('POST /identify with a client id', () => {
  it('identifies for the website ?client_id= or the databuddy-client-id header names', async () => {
    const sim = freshSimulator();
    expect((await identify(sim, { profileId: 'by_query', anonymousId: 'anon_q' }, { query: { client_id: STORE } })).json).toEqual({ status: 'success', type: 'identify' });
    expect((await identify(sim, { profileId: 'by_header' }, { headers: { 'databuddy-client-id': ' web_acme_store ' } })).status).toBe(200);
    expect((await profiles(sim)).profiles.map((p) => p.profileId)).toEqual(['by_query', 'by_header']);
  });

  it('refuses without a client id (400 INGEST_MISSING_CLIENT_ID) and with one no website has (400 INGEST_INVALID_CLIENT_ID)', async () => {
    const sim = freshSimulator();
    expectBasket(await identify(sim, { profileId: 'u' }), 400, 'INGEST_MISSING_CLIENT_ID');
    expectBasket(await identify(sim, { profileId: 'u' }, { query: { client_id: '  ' } }), 400, 'INGEST_MISSING_CLIENT_ID');
    expectBasket(await identify(sim, { profileId: 'u' }, { query: { client_id: 'web_unknown' } }), 400, 'INGEST_INVALID_CLIENT_ID');
  });

  it('answers a bot 204 with an empty body and stores nothing', async () => {
    const sim = freshSimulator();
    const answer = await identify(sim, { profileId: 'crawler' }, { query: { client_id: STORE }, headers: { 'user-agent': 'Mozilla/5.0 (compatible; AhrefsBot/7.0)' } });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect((await profiles(sim)).total).toBe(0);
  });

  it('admits 60 requests per client id and IP in 60 s, then 429 IDENTIFY_RATE_LIMITED; another IP has its own window', async () => {
    const sim = freshSimulator();
    const from = (ip: string) => ({ query: { client_id: STORE }, headers: { 'x-forwarded-for': ip } });
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await identify(sim, { profileId: `u${i}` }, from('203.0.113.7'))).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect((await identify(sim, { profileId: 'other_ip' }, from('203.0.113.8'))).status).toBe(200);
    const journal = sim.journal.list({ route: '/identify' });
    expect(journal.at(-2)).toMatchObject({ status: 429, outcome: 'ingest_limit' });
  });
});

describe('identified profiles in the profile types', () => {
  it('lists an anonymous visitor under the profile its anonymous id was linked to, in profile_list and profile_detail', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const [before] = await query(sim, ['profile_list'], { ...WEEK, limit: 10000 });
    const visitor = before?.find((r) => r.profile_id === '');
    expect(visitor, 'an anonymous visitor').toBeDefined();
    const anonymousId = visitor?.visitor_id as string;

    const key = secretOf(sim, 'key_acme_track');
    expect((await identify(sim, { profileId: 'customer_42', anonymousId, traits: { email: 'c42@example.com' }, websiteId: STORE }, { key })).status).toBe(200);

    const [after] = await query(sim, ['profile_list'], { ...WEEK, limit: 10000 });
    expect(after?.length).toBe(before?.length);
    expect(after?.find((r) => r.visitor_id === anonymousId)).toBeUndefined();
    expect(after?.find((r) => r.visitor_id === 'customer_42')).toEqual({ ...visitor, visitor_id: 'customer_42', profile_id: 'customer_42' });

    const [detail] = await query(sim, ['profile_detail'], { ...WEEK, filters: [{ field: 'anonymous_id', op: 'eq', value: 'customer_42' }] });
    expect(detail).toHaveLength(1);
    expect(detail?.[0]).toMatchObject({ visitor_id: 'customer_42', profile_id: 'customer_42', total_sessions: visitor?.session_count });
    const [filtered] = await query(sim, ['profile_list'], { ...WEEK, filters: [{ field: 'profile_id', op: 'eq', value: 'customer_42' }] });
    expect(filtered?.map((r) => r.visitor_id)).toEqual(['customer_42']);
  });

  it('merges two devices linked to one profile into one profile_list row', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const [before] = await query(sim, ['profile_list'], { ...WEEK, limit: 10000 });
    const [a, b] = (before ?? []).filter((r) => r.profile_id === '');
    const key = secretOf(sim, 'key_acme_track');
    for (const device of [a, b]) await identify(sim, { profileId: 'two_devices', anonymousId: device?.visitor_id, websiteId: STORE }, { key });
    const [after] = await query(sim, ['profile_list'], { ...WEEK, limit: 10000 });
    expect(after?.length).toBe((before?.length ?? 0) - 1);
    const row = after?.find((r) => r.visitor_id === 'two_devices');
    expect(row?.session_count).toBe((a?.session_count as number) + (b?.session_count as number));
    expect(row?.total_events).toBe((a?.total_events as number) + (b?.total_events as number));
  });

  it('answers profile_detail for a profile known only from tracked events that carry a session id', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const key = secretOf(sim, 'key_acme_track');
    await identify(sim, { profileId: 'api_user', anonymousId: 'anon_api', websiteId: STORE }, { key });
    const at = Date.UTC(2025, 5, 2, 9, 0);
    // The Node SDK over HTTP: Node's fetch sends User-Agent: node.
    await call(sim, 'POST', '/track', { key, headers: { 'user-agent': 'node' }, body: [
      { name: 'login', websiteId: STORE, anonymousId: 'anon_api', sessionId: 'sess_1', timestamp: at },
      { name: 'export', websiteId: STORE, anonymousId: 'anon_api', sessionId: 'sess_2', timestamp: at + 3_600_000 },
    ] });
    const today = { startDate: '2025-06-02', endDate: '2025-06-02' };
    const [detail] = await query(sim, ['profile_detail'], { ...today, filters: [{ field: 'anonymous_id', op: 'eq', value: 'api_user' }] });
    expect(detail).toEqual([
      {
        visitor_id: 'api_user',
        first_visit: '2025-06-02 09:00:00',
        last_visit: '2025-06-02 10:00:00',
        total_sessions: 2,
        total_pageviews: 0,
        total_duration: 0,
        total_duration_formatted: '0s',
        profile_id: 'api_user',
        device: '',
        browser: '',
        os: '',
        country: '',
        region: '',
      },
    ]);
    const [none] = await query(sim, ['profile_detail'], { ...today, filters: [{ field: 'anonymous_id', op: 'eq', value: 'nobody' }] });
    expect(none).toEqual([]);
  });
});

describe('GET /__sim/profiles', () => {
  /** user_1 on the Acme store, user_2 on Globex's app, user_1 again on Acme's website: three profiles on three websites. */
  async function identifiedOnThreeWebsites(): Promise<Simulator> {
    const sim = trackSimulator();
    const acme = secretOf(sim, 'key_acme_track');
    expect((await identify(sim, { profileId: 'user_1', websiteId: STORE }, { key: acme })).status).toBe(200);
    expect((await identify(sim, { profileId: 'user_2', websiteId: 'web_globex_app' }, { key: GLOBEX_TRACK_KEY.secret })).status).toBe(200);
    expect((await identify(sim, { profileId: 'user_1', websiteId: 'web_acme_www' }, { key: acme })).status).toBe(200);
    return sim;
  }
  const listed = (answer: Answer) => ({ websiteId: answer.json.websiteId, total: answer.json.total, profiles: answer.json.profiles.map((p: { websiteId: string; profileId: string }) => `${p.websiteId}/${p.profileId}`) });

  it('lists every website’s profiles, first identified first, when no website_id is given', async () => {
    const sim = await identifiedOnThreeWebsites();
    const answer = await call(sim, 'GET', '/__sim/profiles');
    expect(answer.status).toBe(200);
    expect(listed(answer)).toEqual({ websiteId: null, total: 3, profiles: [`${STORE}/user_1`, 'web_globex_app/user_2', 'web_acme_www/user_1'] });
  });

  it('lists one profile id on every website with profile_id alone', async () => {
    const sim = await identifiedOnThreeWebsites();
    expect(listed(await call(sim, 'GET', '/__sim/profiles', { query: { profile_id: 'user_1' } }))).toEqual({ websiteId: null, total: 2, profiles: [`${STORE}/user_1`, 'web_acme_www/user_1'] });
  });

  it('lists one website’s profiles with website_id, and counts them all in total whatever the limit', async () => {
    const sim = await identifiedOnThreeWebsites();
    expect(listed(await call(sim, 'GET', '/__sim/profiles', { query: { website_id: 'web_globex_app' } }))).toEqual({ websiteId: 'web_globex_app', total: 1, profiles: ['web_globex_app/user_2'] });
    expect(listed(await call(sim, 'GET', '/__sim/profiles', { query: { limit: '1' } }))).toEqual({ websiteId: null, total: 3, profiles: [`${STORE}/user_1`] });
  });

  it('refuses an empty website_id with 400 naming it', async () => {
    const answer = await call(freshSimulator(), 'GET', '/__sim/profiles', { query: { website_id: '' } });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.json)).toContain('website_id must not be empty');
  });
});
