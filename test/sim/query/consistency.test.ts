import { describe, expect, it } from 'vitest';
import { freshSimulator } from '../../helpers/sim.js';
import { rowsOf, runQuery, STORE, sumOf, WWW } from './support.js';

const sim = freshSimulator();
const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01', limit: 10000 };
const BREAKDOWNS = ['browser_name', 'os_name', 'country', 'top_pages', 'device_types', 'language', 'timezone', 'region', 'city', 'screen_resolution'];

const cases = [
  { label: 'no filter', filters: [] },
  { label: 'a country filter', filters: [{ field: 'country', op: 'eq', value: 'US' }] },
  { label: 'a device and a browser filter', filters: [{ field: 'device_type', op: 'in', value: ['mobile', 'tablet'] }, { field: 'browser_name', op: 'ne', value: 'Safari' }] },
];

describe.each(cases)('totals agree across query types on web_acme_store over 7 days with $label', ({ filters }) => {
  const result = runQuery(sim, { parameters: ['summary_metrics', 'events_by_date', 'session_metrics', 'traffic_sources', ...BREAKDOWNS], ...WEEK, filters }, STORE);

  it('returns seven daily summary rows with traffic', async () => {
    const summary = rowsOf(await result, 'summary_metrics');
    expect(summary.length).toBe(7);
    expect(sumOf(summary, 'pageviews')).toBeGreaterThan(1000);
  });

  it.each(['browser_name', 'os_name', 'country', 'top_pages'])('sums %s pageviews to the summary_metrics pageviews', async (type) => {
    const res = await result;
    expect(sumOf(rowsOf(res, type), 'pageviews')).toBe(sumOf(rowsOf(res, 'summary_metrics'), 'pageviews'));
  });

  it.each(['device_types', 'language', 'timezone', 'region', 'city', 'screen_resolution'])('sums %s pageviews to the summary_metrics pageviews as well', async (type) => {
    const res = await result;
    expect(sumOf(rowsOf(res, type), 'pageviews')).toBe(sumOf(rowsOf(res, 'summary_metrics'), 'pageviews'));
  });

  it('sums traffic_sources pageviews (direct included) to the summary_metrics pageviews', async () => {
    const res = await result;
    const summary = rowsOf(res, 'summary_metrics');
    expect(sumOf(rowsOf(res, 'traffic_sources'), 'pageviews')).toBe(sumOf(summary, 'pageviews'));
  });

  it('gives session_metrics the summary session count', async () => {
    const res = await result;
    const summary = rowsOf(res, 'summary_metrics');
    const [session] = rowsOf(res, 'session_metrics');
    const sessions = sumOf(summary, 'sessions');
    expect(session?.total_sessions).toBe(sessions);
  });

  it('gives events_by_date the same daily pageviews, visitors and sessions as summary_metrics', async () => {
    const res = await result;
    const pick = (rows: ReturnType<typeof rowsOf>) => rows.map((r) => [r.date, r.pageviews, r.visitors, r.sessions]);
    expect(pick(rowsOf(res, 'events_by_date'))).toEqual(pick(rowsOf(res, 'summary_metrics')));
  });

  it('never reports more visitors in a breakdown row than the summary has over the whole range', async () => {
    const res = await result;
    const maxDailyVisitors = sumOf(rowsOf(res, 'summary_metrics'), 'visitors');
    for (const type of BREAKDOWNS) {
      for (const row of rowsOf(res, type)) expect(row.visitors as number, type).toBeLessThanOrEqual(maxDailyVisitors);
    }
  });
});

describe('filters narrow consistently', () => {
  it('gives the US the same pageviews in the country breakdown as summary_metrics filtered to the US', async () => {
    const all = await runQuery(sim, { parameters: ['country'], ...WEEK }, STORE);
    const us = await runQuery(sim, { parameters: ['summary_metrics'], ...WEEK, filters: [{ field: 'country', op: 'eq', value: 'US' }] }, STORE);
    const usRow = rowsOf(all, 'country').find((r) => r.name === 'US');
    expect(usRow).toBeDefined();
    expect(sumOf(rowsOf(us, 'summary_metrics'), 'pageviews')).toBe(usRow?.pageviews);
  });

  it('splits the summary pageviews exactly between a filter and its negation', async () => {
    const total = await runQuery(sim, { parameters: ['summary_metrics'], ...WEEK }, WWW);
    const chrome = await runQuery(sim, { parameters: ['summary_metrics'], ...WEEK, filters: [{ field: 'browser_name', op: 'eq', value: 'Chrome' }] }, WWW);
    const other = await runQuery(sim, { parameters: ['summary_metrics'], ...WEEK, filters: [{ field: 'browser_name', op: 'ne', value: 'Chrome' }] }, WWW);
    for (const field of ['pageviews', 'sessions']) {
      expect(sumOf(rowsOf(chrome, 'summary_metrics'), field) + sumOf(rowsOf(other, 'summary_metrics'), field), field).toBe(sumOf(rowsOf(total, 'summary_metrics'), field));
    }
  });

  it('splits the pageviews of a path between the paths that start with a prefix and the rest', async () => {
    const total = await runQuery(sim, { parameters: ['top_pages'], ...WEEK }, STORE);
    const products = await runQuery(sim, { parameters: ['summary_metrics'], ...WEEK, filters: [{ field: 'path', op: 'starts_with', value: '/products' }] }, STORE);
    const expected = rowsOf(total, 'top_pages')
      .filter((r) => (r.path as string).startsWith('/products'))
      .reduce((t, r) => t + (r.pageviews as number), 0);
    expect(expected).toBeGreaterThan(0);
    expect(sumOf(rowsOf(products, 'summary_metrics'), 'pageviews')).toBe(expected);
  });

  it('keeps the sum of daily summaries equal to the summary of a longer range', async () => {
    const week = await runQuery(sim, { parameters: ['summary_metrics'], ...WEEK }, WWW);
    const halves = await runQuery(sim, {
      parameters: [
        { name: 'summary_metrics', id: 'a', start_date: '2025-05-26', end_date: '2025-05-28' },
        { name: 'summary_metrics', id: 'b', start_date: '2025-05-29', end_date: '2025-06-01' },
      ],
      ...WEEK,
    }, WWW);
    expect(sumOf(rowsOf(halves, 'a'), 'pageviews') + sumOf(rowsOf(halves, 'b'), 'pageviews')).toBe(sumOf(rowsOf(week, 'summary_metrics'), 'pageviews'));
  });
});
