import { describe, expect, it } from 'vitest';
import { createSeededWorld } from '../../../src/fixtures/world.js';
import { anonymousIdOf, parseSessionId, sessionIdOf } from '../../../src/sim/model/identity.js';
import { call, freshSimulator } from '../../helpers/sim.js';
import { outcomesOf, rowsFor, runQuery, STORE, sumOf, type Row } from './support.js';

const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };
const DAY_MS = 86_400_000;

function rows(sim: ReturnType<typeof freshSimulator>, type: string, body: Record<string, unknown> = {}): Promise<Row[]> {
  return rowsFor(sim, type, { ...WEEK, limit: 10_000, ...body }, STORE);
}

describe.each(['42', '7'])('the errors types of seed %s', (seed) => {
  const sim = freshSimulator({ seed, profile: 'live' });

  it('count the same errors in errors_by_type, error_types and error_summary', async () => {
    const [summary] = await rows(sim, 'error_summary');
    const byType = await rows(sim, 'errors_by_type');
    const byMessage = await rows(sim, 'error_types');
    expect(summary?.totalErrors).toBeGreaterThan(0);
    expect(sumOf(byType, 'count')).toBe(summary?.totalErrors);
    expect(sumOf(byMessage, 'count')).toBe(summary?.totalErrors);
    expect(byMessage.length).toBe(summary?.uniqueErrorTypes);
  });

  it('split the summary errors once by each error_segments dimension, a posted error (no country) included', async () => {
    const posting = freshSimulator({ seed, profile: 'live' });
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const span = { path: '/segments-checkout', message: 'Segments: posted', errorType: 'TypeError', timestamp: Date.UTC(2025, 4, 28, 12), anonymousId: 'anon_segments', sessionId: 'sess_segments' };
    expect((await call(posting, 'POST', '/errors', { query: { client_id: 'web_acme_store' }, headers: { 'user-agent': chrome }, body: [span] })).status).toBeLessThan(300);
    const [summary] = await rows(posting, 'error_summary');
    const segments = await rows(posting, 'error_segments');
    for (const dimension of ['browser', 'browser_version', 'os', 'device', 'country']) {
      const of = segments.filter((r) => r.dimension === dimension);
      expect(of.length).toBeGreaterThan(0);
      expect(sumOf(of, 'errors')).toBe(summary?.totalErrors);
    }
    expect(segments.find((r) => r.dimension === 'country' && r.value === '')?.errors).toBe(1);
  });

  it('sum the daily series to the summary', async () => {
    const [summary] = await rows(sim, 'error_summary');
    expect(sumOf(await rows(sim, 'error_trends'), 'errors')).toBe(summary?.totalErrors);
    expect(sumOf(await rows(sim, 'error_frequency'), 'count')).toBe(summary?.totalErrors);
    expect(sumOf(await rows(sim, 'error_chart_data'), 'totalErrors')).toBe(summary?.totalErrors);
    expect(sumOf(await rows(sim, 'errors_by_page'), 'errors')).toBe(summary?.totalErrors);
  });

  it('name a real session of the sample days, with its visitor and country, in every recent error', async () => {
    const world = createSeededWorld(seed);
    const website = world.websites.find((w) => w.id === STORE.website_id);
    if (!website) throw new Error('no store website');
    const firstDay = Date.parse(`${WEEK.startDate}T00:00:00Z`) / DAY_MS;
    const lastDay = Date.parse(`${WEEK.endDate}T00:00:00Z`) / DAY_MS;
    const recent = await rows(sim, 'recent_errors', { limit: 200 });
    expect(recent.length).toBe(200);
    for (const row of recent) {
      const id = parseSessionId(row.session_id as string);
      expect(id, row.session_id as string).not.toBeNull();
      const { day, index } = id as { day: number; index: number };
      expect(day).toBeGreaterThanOrEqual(firstDay - 1);
      expect(day).toBeLessThanOrEqual(lastDay);
      expect(sessionIdOf({ websiteId: website.id, day }, index)).toBe(row.session_id);
      const batch = world.sessions(website, day);
      expect(index).toBeLessThan(batch.count);
      expect(anonymousIdOf(website.id, batch.visitor[index] as number)).toBe(row.anonymous_id);
      expect(world.dictionaries.values.country[batch.dims.country[index] as number]).toBe(row.country);
    }
  });
});

describe('the errors types', () => {
  const sim = freshSimulator({ profile: 'live' });

  it('narrow every count to the errors of one class with an error_type filter', async () => {
    const filters = [{ field: 'error_type', op: 'eq', value: 'TypeError' }];
    const [all] = await rows(sim, 'error_summary');
    const [typeErrors] = await rows(sim, 'error_summary', { filters });
    const byType = await rows(sim, 'errors_by_type');
    expect(typeErrors?.totalErrors).toBe(byType.find((r) => r.name === 'TypeError')?.count);
    expect(typeErrors?.totalErrors as number).toBeLessThan(all?.totalErrors as number);
    expect((await rows(sim, 'errors_by_type', { filters })).map((r) => r.name)).toEqual(['TypeError']);
  });

  it('give recent errors of the filtered browser only, newest first, up to the limit', async () => {
    const recent = await rows(sim, 'recent_errors', { limit: 25, filters: [{ field: 'browser_name', op: 'eq', value: 'Safari' }] });
    expect(recent.length).toBe(25);
    expect(new Set(recent.map((r) => r.browser_name))).toEqual(new Set(['Safari']));
    const times = recent.map((r) => r.timestamp as string);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('cap error_fingerprints at 50 rows and rank them by affected users', async () => {
    const all = await rows(sim, 'error_fingerprints', { limit: 500 });
    expect(all.length).toBeLessThanOrEqual(50);
    const three = await rows(sim, 'error_fingerprints', { limit: 3 });
    expect(three).toEqual(all.slice(0, 3));
    const users = all.map((r) => r.users as number);
    expect([...users].sort((a, b) => b - a)).toEqual(users);
  });

  it('fail error_customer_impact without one message or path selector, and count the selected error with one', async () => {
    const bare = outcomesOf(await runQuery(sim, { parameters: ['error_customer_impact'], ...WEEK }, STORE));
    expect(bare[0]).toMatchObject({ success: false, error: 'Query execution failed' });
    const message = 'Failed to fetch';
    const [impact] = await rows(sim, 'error_customer_impact', { filters: [{ field: 'message', op: 'eq', value: message }] });
    const byMessage = await rows(sim, 'error_types');
    expect(impact?.error_occurrences).toBe(byMessage.find((r) => r.name === message)?.count);
    expect(impact?.affected_visitor_identifiers).toBe(
      (impact?.linked_visitor_identifiers as number) + (impact?.unlinked_visitor_identifiers as number),
    );
    expect(impact?.linked_visitor_identifiers as number).toBeGreaterThan(0);
    const paid = impact?.identified_profiles_with_prior_attributed_completed_payment as number;
    expect(paid).toBeLessThanOrEqual(impact?.identified_profiles as number);
    if (paid > 0) expect(impact?.qualifying_profile_payment_history_observed).toBe(1);
    expect(impact?.payment_match_is_lower_bound).toBe(1);
  });

  it('match every continuation-comparison pair inside the candidates', async () => {
    const [row] = await rows(sim, 'error_route_continuation_comparison', { filters: [{ field: 'path', op: 'eq', value: '/products' }] });
    expect(row?.matched_exposed_sessions).toBe(row?.matched_control_sessions);
    expect(row?.candidate_exposed_sessions as number).toBeGreaterThan(0);
    expect(row?.exposed_continued_sessions as number).toBeLessThanOrEqual(row?.matched_exposed_sessions as number);
    expect(row?.unmatched_control_sessions).toBe((row?.candidate_control_sessions as number) - (row?.matched_control_sessions as number));
  });

  it('answer no error day and no error after now', async () => {
    const startMs = Date.parse('2025-06-03T12:30:00Z');
    const live = freshSimulator({ profile: 'live', startMs });
    const body = { startDate: '2025-06-01', endDate: '2025-06-05', limit: 1000 };
    const days = (await rowsFor(live, 'error_trends', body, STORE)).map((r) => r.date as string);
    expect(days.at(-1)).toBe('2025-06-03');
    const recent = await rowsFor(live, 'recent_errors', body, STORE);
    expect(recent.length).toBeGreaterThan(0);
    for (const row of recent) expect(Date.parse(`${(row.timestamp as string).replace(' ', 'T')}Z`)).toBeLessThan(startMs);
  });
});
