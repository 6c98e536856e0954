import { describe, expect, it } from 'vitest';
import { call, freshSimulator } from '../../helpers/sim.js';
import { outcomesOf, runQuery, STORE, type Row } from './support.js';

const GLOBEX_SITE = { website_id: 'web_globex_app' };

describe('the profile setting', () => {
  it('starts as spec, lists every switch and follows PUT /__sim/profile from the next request on', async () => {
    const sim = freshSimulator();
    const before = await call(sim, 'GET', '/__sim/profile');
    expect(before.status).toBe(200);
    const report = before.json as { profile: string; switches: { name: string; follows: string }[] };
    expect(report.profile).toBe('spec');
    expect(report.switches.length).toBeGreaterThan(5);
    expect(report.switches.every((s) => s.follows === 'spec')).toBe(true);

    const put = await call(sim, 'PUT', '/__sim/profile', { body: { profile: 'live' } });
    expect(put.status).toBe(200);
    expect((put.json as { switches: { follows: string }[] }).switches.every((s) => s.follows === 'live')).toBe(true);
    expect(sim.profile).toBe('live');
    await sim.reset();
    expect(sim.profile).toBe('live');
  });

  it('refuses an unknown profile with 422 naming the allowed ones', async () => {
    const sim = freshSimulator();
    const res = await call(sim, 'PUT', '/__sim/profile', { body: { profile: 'prod' } });
    expect(res.status).toBe(422);
    expect(res.text).toContain('spec');
  });
});

describe('the plan gate', () => {
  it('answers 402 FEATURE_UNAVAILABLE for an error type on a website of a free-plan organization, failing the whole batch', async () => {
    const sim = freshSimulator();
    const res = await runQuery(sim, [{ parameters: ['summary_metrics'], preset: 'last_7d' }, { parameters: ['error_summary'], preset: 'last_7d' }], GLOBEX_SITE, 'key_globex_read');
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ success: false, code: 'FEATURE_UNAVAILABLE', error: 'This feature is not available on the plan' });
  });

  it('serves the same type on a website of an organization whose plan has error tracking', async () => {
    const sim = freshSimulator();
    const res = await runQuery(sim, { parameters: ['error_summary'], preset: 'last_7d' }, STORE);
    expect(res.status).toBe(200);
  });

  it('under spec, gates neither error_fingerprints nor organization-wide queries (live does: test/sim/profile/plan-gate.test.ts)', async () => {
    const sim = freshSimulator();
    const ungated = await runQuery(sim, { parameters: ['error_fingerprints'], preset: 'last_7d' }, GLOBEX_SITE, 'key_globex_read');
    expect(ungated.status).toBe(200);
    const orgWide = await runQuery(sim, { parameters: ['error_summary'], preset: 'last_7d' }, { organization_id: 'org_globex' }, 'key_globex_read');
    expect(orgWide.status).toBe(200);
  });
});

describe('sortBy and sortOrder', () => {
  it('orders a standard type by the named field in the named direction', async () => {
    const sim = freshSimulator();
    const res = await runQuery(sim, { parameters: ['browser_name'], preset: 'last_7d', sortBy: 'pageviews', sortOrder: 'asc' }, STORE);
    const rows = outcomesOf(res)[0]?.data as Row[];
    const pageviews = rows.map((r) => r.pageviews as number);
    expect(rows.length).toBeGreaterThan(2);
    expect(pageviews).toEqual([...pageviews].sort((a, b) => a - b));
  });

  it('fails only that parameter for a field outside the allow-list, and says why in a Warning', async () => {
    const sim = freshSimulator();
    const res = await runQuery(sim, { parameters: ['browser_name', 'country'], preset: 'last_7d', sortBy: 'bogus', sortOrder: 'desc' }, STORE);
    expect(res.status).toBe(200);
    const outcomes = outcomesOf(res);
    expect(outcomes.map((o) => [o.parameter, o.success, o.error])).toEqual([
      ['browser_name', false, 'Query execution failed'],
      ['country', false, 'Query execution failed'],
    ]);
    expect(res.headers.Warning).toContain("Ordering by 'bogus DESC' is not permitted");
  });

  it('says in a Warning that a type ordering its own rows ignored sortBy', async () => {
    const sim = freshSimulator();
    const res = await runQuery(sim, { parameters: ['events_by_date'], preset: 'last_7d', sortBy: 'pageviews', sortOrder: 'asc' }, STORE);
    expect(outcomesOf(res)[0]?.success).toBe(true);
    expect(res.headers.Warning).toContain('events_by_date orders its own rows; sortBy and sortOrder were ignored');
  });

  it('applies no ordering when only one of the two is sent', async () => {
    const sim = freshSimulator();
    const plain = outcomesOf(await runQuery(sim, { parameters: ['browser_name'], preset: 'last_7d' }, STORE))[0]?.data;
    const half = outcomesOf(await runQuery(sim, { parameters: ['browser_name'], preset: 'last_7d', sortBy: 'pageviews' }, STORE))[0]?.data;
    expect(half).toEqual(plain);
  });
});

describe('no data after now', () => {
  it('answers no bucket after the clock’s current minute for a range that reaches into the future', async () => {
    const sim = freshSimulator({ startMs: Date.UTC(2025, 5, 2, 12, 0) });
    const res = await runQuery(sim, { parameters: ['summary_metrics'], startDate: '2025-06-01', endDate: '2025-06-05', granularity: 'hourly' }, STORE);
    const rows = outcomesOf(res)[0]?.data as Row[];
    const withViews = rows.filter((r) => (r.pageviews as number) > 0).map((r) => r.date as string);
    expect(withViews.length).toBeGreaterThan(0);
    expect(withViews.every((d) => d < '2025-06-02 12:00:00')).toBe(true);
  });
});
