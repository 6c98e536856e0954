import { describe, expect, it } from 'vitest';
import { sessionCookie, sessionTokenOf } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf, type Answer, type CallOptions } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/sim/simulator.js';

/** A public website of Acme (on a plan with every feature). */
const BLOG = { website_id: 'web_acme_blog' };
/** A public website of Globex (another organization than Acme's keys). */
const NEWS = { website_id: 'web_globex_news' };
/** A private website of Acme. */
const WWW = { website_id: 'web_acme_www' };
const DATES = { startDate: '2025-05-26', endDate: '2025-06-01' };
const COUNTRY = { field: 'country', op: 'eq', value: 'US' };

type Profile = 'spec' | 'live';

const sims: Record<Profile, Simulator> = { spec: freshSimulator(), live: freshSimulator({ profile: 'live' }) };

function query(profile: Profile, ids: Record<string, string>, body: unknown, options: CallOptions = {}): Promise<Answer> {
  return call(sims[profile], 'POST', '/v1/query', { query: ids, body, ...options });
}

function compile(profile: Profile, ids: Record<string, string>, body: Record<string, unknown>, options: CallOptions = {}): Promise<Answer> {
  return call(sims[profile], 'POST', '/v1/query/compile', {
    query: ids,
    body: { projectId: ids.website_id, from: DATES.startDate, to: DATES.endDate, ...body },
    ...options,
  });
}

function asUser(profile: Profile, userId: string): CallOptions {
  return { headers: sessionCookie(sessionTokenOf(sims[profile], userId)) };
}

function withKey(profile: Profile, keyId: string): CallOptions {
  return { key: secretOf(sims[profile], keyId) };
}

function expectAuthRequired(answer: Answer): void {
  expect(answer.status).toBe(401);
  expect(answer.json).toMatchObject({ success: false, code: 'AUTH_REQUIRED', error: 'Authentication required' });
}

function expectWebsiteDenied(answer: Answer): void {
  expect(answer.status).toBe(403);
  expect(answer.json).toMatchObject({ success: false, code: 'ACCESS_DENIED', error: 'Access denied to this website' });
}

describe('public-policy', () => {
  it('answers an anonymous unfiltered overview on a public website under both profiles, an empty filter list included', async () => {
    for (const profile of ['spec', 'live'] as const) {
      const answer = await query(profile, BLOG, { ...DATES, parameters: ['summary_metrics', 'top_pages'], filters: [] });
      expect(answer.status, profile).toBe(200);
      expect(answer.json.data.map((d: { parameter: string; success: boolean }) => [d.parameter, d.success])).toEqual([
        ['summary_metrics', true],
        ['top_pages', true],
      ]);
    }
  });

  it.each(['trait.email', 'profile_id', 'anonymous_id', 'country'])(
    'refuses an anonymous overview filtered on %s with 401 AUTH_REQUIRED under live, and answers it under spec',
    async (field) => {
      const body = { ...DATES, parameters: ['summary_metrics'], filters: [{ field, op: 'eq', value: 'example-value' }] };
      expectAuthRequired(await query('live', BLOG, body));
      expect((await query('spec', BLOG, body)).status).toBe(200);
    },
  );

  it.each(['custom_events_recent', 'recent_errors', 'vitals_overview'])(
    'refuses an anonymous %s on a public website with 401 under live, and answers it under spec (the older public list)',
    async (type) => {
      const body = { ...DATES, parameters: [type] };
      expectAuthRequired(await query('live', BLOG, body));
      expect((await query('spec', BLOG, body)).status).toBe(200);
    },
  );

  it('refuses a whole anonymous batch with 401 under live when one item names a private type as a {name, id} parameter', async () => {
    const batch = [
      { ...DATES, parameters: ['summary_metrics'] },
      { ...DATES, parameters: [{ name: 'recent_errors', id: 'overview' }] },
    ];
    expectAuthRequired(await query('live', BLOG, batch));
    const spec = await query('spec', BLOG, batch);
    expect(spec.status).toBe(200);
    expect(spec.json.results).toHaveLength(2);
  });

  it('refuses a whole anonymous batch with 401 under live when one item carries a filter, and answers it under spec', async () => {
    const batch = [
      { ...DATES, parameters: ['summary_metrics'] },
      { ...DATES, parameters: ['top_pages'], filters: [{ field: 'anonymous_id', op: 'eq', value: 'example-visitor' }] },
    ];
    expectAuthRequired(await query('live', BLOG, batch));
    expect((await query('spec', BLOG, batch)).status).toBe(200);
  });

  it('answers a signed-in non-member 403 ACCESS_DENIED for a private type or a filter on a public website under live, 200 under spec', async () => {
    for (const body of [
      { ...DATES, parameters: ['recent_errors'] },
      { ...DATES, parameters: ['summary_metrics'], filters: [COUNTRY] },
    ]) {
      expectWebsiteDenied(await query('live', BLOG, body, asUser('live', 'user_bob')));
      expect((await query('spec', BLOG, body, asUser('spec', 'user_bob'))).status).toBe(200);
    }
  });

  it('answers a signed-in non-member the unfiltered overview of a public website under both profiles', async () => {
    for (const profile of ['spec', 'live'] as const) {
      const answer = await query(profile, BLOG, { ...DATES, parameters: ['summary_metrics'] }, asUser(profile, 'user_bob'));
      expect(answer.status, profile).toBe(200);
    }
  });

  it('gives a member private types and filtered overviews on a public website under both profiles', async () => {
    for (const profile of ['spec', 'live'] as const) {
      const answer = await query(
        profile,
        BLOG,
        { ...DATES, parameters: ['custom_events_recent', 'recent_errors', 'summary_metrics'], filters: [{ field: 'anonymous_id', op: 'eq', value: 'example-visitor' }] },
        asUser(profile, 'user_alice'),
      );
      expect(answer.status, profile).toBe(200);
      expect(answer.json.data.map((d: { parameter: string }) => d.parameter).sort()).toEqual(['custom_events_recent', 'recent_errors', 'summary_metrics']);
    }
  });

  it('keeps a private website 401 for an anonymous overview under both profiles', async () => {
    for (const profile of ['spec', 'live'] as const) {
      expectAuthRequired(await query(profile, WWW, { ...DATES, parameters: ['summary_metrics'] }));
      expectAuthRequired(await compile(profile, WWW, { type: 'summary_metrics' }));
    }
  });

  it('refuses a website-scoped key of another organization with 403 ACCESS_DENIED under live, for a private type and for a filter', async () => {
    expectWebsiteDenied(await query('live', NEWS, { ...DATES, parameters: ['recent_errors'] }, withKey('live', 'key_acme_store_only')));
    const filtered = { ...DATES, parameters: ['summary_metrics'], filters: [COUNTRY] };
    expectWebsiteDenied(await query('live', NEWS, filtered, withKey('live', 'key_acme_store_only')));
    expect((await query('spec', NEWS, filtered, withKey('spec', 'key_acme_store_only'))).status).toBe(200);
  });

  it('serves a website-scoped key its own organization’s website, private types included, under both profiles', async () => {
    for (const profile of ['spec', 'live'] as const) {
      const answer = await query(profile, { website_id: 'web_acme_store' }, { ...DATES, parameters: ['recent_errors'] }, withKey(profile, 'key_acme_store_only'));
      expect(answer.status, profile).toBe(200);
    }
  });

  it('applies the same public policy to /v1/query/compile under live: an overview type compiles anonymously, a private or filtered one is 401', async () => {
    const overview = await compile('live', BLOG, { type: 'summary_metrics' });
    expect(overview.status).toBe(200);
    expect(overview.json).toMatchObject({ success: true });
    expect(typeof overview.json.sql).toBe('string');
    expectAuthRequired(await compile('live', BLOG, { type: 'recent_errors' }));
    expectAuthRequired(await compile('live', BLOG, { type: 'summary_metrics', filters: [{ field: 'trait.email', op: 'eq', value: 'example@example.com' }] }));
    expectAuthRequired(await compile('live', BLOG, { type: 'no_such_type' }));
  });

  it('needs a credential for every /v1/query/compile under spec, public website or not', async () => {
    expectAuthRequired(await compile('spec', BLOG, { type: 'summary_metrics' }));
    expectAuthRequired(await compile('spec', BLOG, { type: 'recent_errors' }));
  });

  it('compiles an overview type of a public website for a key of another organization under live, and denies its private type; spec denies both', async () => {
    const overview = { type: 'summary_metrics' };
    const private_ = { type: 'recent_errors' };
    expect((await compile('live', BLOG, overview, withKey('live', 'key_globex_read'))).status).toBe(200);
    expectWebsiteDenied(await compile('live', BLOG, private_, withKey('live', 'key_globex_read')));
    expectWebsiteDenied(await compile('spec', BLOG, overview, withKey('spec', 'key_globex_read')));
    expectWebsiteDenied(await compile('spec', BLOG, private_, withKey('spec', 'key_globex_read')));
  });

  it('lists public-policy among the switches of GET /__sim/profile, following the profile in force', async () => {
    for (const profile of ['spec', 'live'] as const) {
      const answer = await call(sims[profile], 'GET', '/__sim/profile');
      expect(answer.json.switches).toContainEqual(expect.objectContaining({ name: 'public-policy', follows: profile }));
    }
  });
});
