import { describe, expect, it } from 'vitest';
import { freshSimulator } from '../../helpers/sim.js';
import { outcomesOf, rowsOf, runQuery, STORE, sumOf, type Row } from './support.js';

const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };
const byVisitor = (id: string) => [{ field: 'anonymous_id', op: 'eq', value: id }];

function retentionFilters(horizon: string, observationEnd = '2025-06-20') {
  return [
    { field: 'activation_event', op: 'eq', value: 'add_to_cart' },
    { field: 'return_event', op: 'eq', value: 'purchase' },
    { field: 'horizon_days', op: 'eq', value: horizon },
    { field: 'observation_end', op: 'eq', value: observationEnd },
  ];
}

describe.each([42, 7])('the profiles family with seed %i', (seed) => {
  const sim = freshSimulator({ seed, profile: 'live' });
  const listing = runQuery(sim, { parameters: ['profile_list'], ...WEEK, limit: 10000 }, STORE);

  /** An identified visitor with several sessions and some revenue, from profile_list. */
  async function payingProfile(): Promise<Row> {
    const rows = rowsOf(await listing, 'profile_list');
    const found = rows.find((r) => r.profile_id !== '' && (r.ltv as number) > 0 && (r.session_count as number) >= 2);
    expect(found, 'an identified paying visitor with two sessions').toBeDefined();
    return found as Row;
  }

  it('lists each visitor once, identified ones under their profile id, newest visit first', async () => {
    const rows = rowsOf(await listing, 'profile_list');
    expect(new Set(rows.map((r) => r.visitor_id)).size).toBe(rows.length);
    for (const r of rows) expect(r.visitor_id).toEqual(r.profile_id === '' ? expect.stringMatching(/^anon_/) : r.profile_id);
    const last = rows.map((r) => r.last_visit as string);
    expect(last).toEqual([...last].sort().reverse());
  });

  it("answers a profile's sessions that all appear in session_list, with profile_detail's totals", async () => {
    const profile = await payingProfile();
    const id = profile.profile_id as string;
    const res = await runQuery(sim, { parameters: ['profile_detail', 'profile_sessions'], ...WEEK, limit: 1000, filters: byVisitor(id) }, STORE);
    const sessions = rowsOf(res, 'profile_sessions');
    const [detail] = rowsOf(res, 'profile_detail');
    expect(sessions.length).toBe(profile.session_count);
    expect(detail?.total_sessions).toBe(sessions.length);
    expect(detail?.profile_id).toBe(id);
    expect(sumOf(sessions, 'page_views')).toBe(detail?.total_pageviews);

    const anonymousId = await anonymousIdOf(id);
    const list = rowsOf(await runQuery(sim, { parameters: ['session_list'], ...WEEK, limit: 1000, filters: byVisitor(anonymousId) }, STORE), 'session_list');
    const listed = new Set(list.map((r) => r.session_id));
    for (const s of sessions) expect(listed.has(s.session_id), String(s.session_id)).toBe(true);
    expect(sumOf(list, 'page_views')).toBe(detail?.total_pageviews);
    expect(sessions.map((s) => s.session_name)).toEqual(sessions.map((_, k) => `Session ${sessions.length - k}`));
  });

  async function anonymousIdOf(profileId: string): Promise<string> {
    const res = await runQuery(sim, { parameters: ['interesting_sessions'], ...WEEK, limit: 10000, filters: [{ field: 'profile_id', op: 'eq', value: profileId }] }, STORE);
    const [first] = rowsOf(res, 'interesting_sessions');
    return first?.visitor_id as string;
  }

  it("sums profile_revenue to the visitor's ltv in profile_list, newest first", async () => {
    const profile = await payingProfile();
    const rows = rowsOf(await runQuery(sim, { parameters: ['profile_revenue'], ...WEEK, limit: 1000, filters: byVisitor(profile.profile_id as string) }, STORE), 'profile_revenue');
    expect(rows.length).toBeGreaterThan(0);
    expect(Math.round(sumOf(rows, 'amount') * 100) / 100).toBe(profile.ltv);
    const created = rows.map((r) => r.created as string);
    expect(created).toEqual([...created].sort().reverse());
  });

  it('answers profile_detail alike whether asked by profile id or anonymous id', async () => {
    const profile = await payingProfile();
    const anonymousId = await anonymousIdOf(profile.profile_id as string);
    const [byProfile] = rowsOf(await runQuery(sim, { parameters: ['profile_detail'], ...WEEK, filters: byVisitor(profile.profile_id as string) }, STORE), 'profile_detail');
    const [byAnonymous] = rowsOf(await runQuery(sim, { parameters: ['profile_detail'], ...WEEK, filters: byVisitor(anonymousId) }, STORE), 'profile_detail');
    expect({ ...byProfile, visitor_id: '' }).toEqual({ ...byAnonymous, visitor_id: '' });
    expect(byAnonymous?.visitor_id).toBe(anonymousId);
  });

  it('keeps only the visitors a session_count filter names', async () => {
    const rows = rowsOf(await runQuery(sim, { parameters: ['profile_list'], ...WEEK, limit: 10000, filters: [{ field: 'session_count', op: 'eq', value: 2 }] }, STORE), 'profile_list');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(rowsOf(await listing, 'profile_list').length);
    for (const r of rows) expect(r.session_count).toBe(2);
  });

  it('adds the daily retention cohorts up to the overall row', async () => {
    const rows = rowsOf(await runQuery(sim, { parameters: ['identified_profile_retention'], ...WEEK, filters: retentionFilters('7') }, STORE), 'identified_profile_retention');
    const [overall, ...cohorts] = rows;
    expect(overall?.row_type).toBe('overall');
    expect(overall?.cohort_date).toBeNull();
    expect(cohorts.length).toBeGreaterThan(0);
    for (const field of ['activated_profiles', 'eligible_profiles', 'retained_profiles', 'incomplete_profiles', 'activation_events', 'identified_activation_events']) {
      expect(sumOf(cohorts, field), field).toBe(overall?.[field]);
    }
    expect(overall?.retained_profiles).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.not_retained_profiles).toBe((r.eligible_profiles as number) - (r.retained_profiles as number));
      expect(r.incomplete_profiles).toBe((r.activated_profiles as number) - (r.eligible_profiles as number));
    }
  });
});

describe('profile and retention inputs', () => {
  const sim = freshSimulator({ profile: 'live' });

  it.each(['profile_detail', 'profile_sessions', 'profile_revenue'])('fails %s without an anonymous_id filter, as live', async (type) => {
    const [outcome] = outcomesOf(await runQuery(sim, { parameters: [type], ...WEEK }, STORE));
    expect(outcome?.success).toBe(false);
  });

  it('answers no profile_detail row for an unknown visitor', async () => {
    const rows = rowsOf(await runQuery(sim, { parameters: ['profile_detail'], ...WEEK, filters: byVisitor('anon_nobody') }, STORE), 'profile_detail');
    expect(rows).toEqual([]);
  });

  it('fails retention without its selectors or with a horizon other than 7 or 30', async () => {
    const missing = outcomesOf(await runQuery(sim, { parameters: ['identified_profile_retention'], ...WEEK }, STORE));
    expect(missing[0]?.success).toBe(false);
    const bad = outcomesOf(await runQuery(sim, { parameters: ['identified_profile_retention'], ...WEEK, filters: retentionFilters('14') }, STORE));
    expect(bad[0]?.success).toBe(false);
  });

  it('observes retention up to the instant of each request, even when the same query was answered before the clock moved', async () => {
    const clocked = freshSimulator({ profile: 'live' });
    const query = { parameters: ['identified_profile_retention'], ...WEEK, filters: retentionFilters('7') };
    const overall = async (s: typeof clocked) => rowsOf(await runQuery(s, query, STORE), 'identified_profile_retention')[0];
    const before = await overall(clocked);
    clocked.clock.advance(3 * 86_400_000);
    const after = await overall(clocked);
    expect(Date.parse(after?.observed_before as string) - Date.parse(before?.observed_before as string)).toBe(3 * 86_400_000);
    const reference = freshSimulator({ profile: 'live' });
    reference.clock.advance(3 * 86_400_000);
    expect(after).toEqual(await overall(reference));
  });

  it('makes more profiles eligible with the shorter horizon', async () => {
    const overall = async (horizon: string) =>
      rowsOf(await runQuery(sim, { parameters: ['identified_profile_retention'], startDate: '2025-05-01', endDate: '2025-05-20', filters: retentionFilters(horizon, '2025-05-31') }, STORE), 'identified_profile_retention')[0];
    const week = await overall('7');
    const month = await overall('30');
    expect(week?.activated_profiles).toBe(month?.activated_profiles);
    expect(week?.eligible_profiles as number).toBeGreaterThan(month?.eligible_profiles as number);
  });
});
