import { describe, expect, it } from 'vitest';
import { anonymousIdOf } from '../../../src/sim/model/identity.js';
import { freshSimulator } from '../../helpers/sim.js';
import { column, rowsFor, rowsOf, runQuery, STORE, sumOf, type Row } from './support.js';

const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01', limit: 10000 };

/** Breakdowns where every pageview falls in exactly one row. */
const PAGEVIEW_BREAKDOWNS = [
  'top_pages',
  'page_performance',
  'traffic_sources',
  'browser_name',
  'browsers',
  'browsers_grouped',
  'os_name',
  'operating_systems',
  'device_types',
  'screen_resolution',
  'screen_resolutions',
  'viewport_vs_resolution',
  'country',
  'region',
  'city',
  'timezone',
  'language',
];

const SEEDS = ['42', '7'];

function byKey(rows: readonly Row[], key: (row: Row) => string, field: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const row of rows) out.set(key(row), (out.get(key(row)) ?? 0) + (row[field] as number));
  return out;
}

describe.each(SEEDS)('summary and breakdowns of web_acme_store over a week, seed %s (live profile)', (seed) => {
  const sim = freshSimulator({ seed, profile: 'live' });
  const result = runQuery(
    sim,
    { parameters: ['summary_metrics', 'events_by_date', 'entry_pages', 'exit_pages', 'utm_sources', 'utm_terms', 'utm_content', 'browser_versions', 'traffic_segments', ...PAGEVIEW_BREAKDOWNS], ...WEEK },
    STORE,
  );
  const summary = async (): Promise<Row> => rowsOf(await result, 'summary_metrics')[0] as Row;

  it.each(PAGEVIEW_BREAKDOWNS)('sums the %s pageviews to the summary_metrics pageviews', async (type) => {
    const rows = rowsOf(await result, type);
    expect(rows.length).toBeGreaterThan(0);
    expect(sumOf(rows, 'pageviews')).toBe((await summary()).pageviews);
  });

  it('counts one entry and one exit page per session', async () => {
    const sessions = (await summary()).sessions;
    expect(sumOf(rowsOf(await result, 'entry_pages'), 'pageviews')).toBe(sessions);
    expect(sumOf(rowsOf(await result, 'exit_pages'), 'pageviews')).toBe(sessions);
  });

  it('sums the events_by_date buckets to the summary_metrics pageviews and sessions', async () => {
    const series = rowsOf(await result, 'events_by_date');
    expect(column(series, 'date')).toEqual(['2025-05-26', '2025-05-27', '2025-05-28', '2025-05-29', '2025-05-30', '2025-05-31', '2025-06-01']);
    expect(sumOf(series, 'pageviews')).toBe((await summary()).pageviews);
    expect(sumOf(series, 'sessions')).toBe((await summary()).sessions);
  });

  it('splits each browser of browser_name exactly into its versions in browsers_grouped and browser_versions', async () => {
    const res = await result;
    const browsers = rowsOf(res, 'browser_name');
    for (const type of ['browsers_grouped', 'browser_versions']) {
      const rows = rowsOf(res, type);
      const pageviews = byKey(rows, (r) => r.browser_name as string, 'pageviews');
      const visitors = byKey(rows, (r) => r.browser_name as string, 'visitors');
      for (const browser of browsers) {
        expect(pageviews.get(browser.name as string), `${type} ${browser.name}`).toBe(browser.pageviews);
        // A visitor keeps one version of their browser, so versions partition its visitors.
        expect(visitors.get(browser.name as string), `${type} ${browser.name}`).toBe(browser.visitors);
      }
    }
    for (const row of rowsOf(res, 'browsers_grouped')) expect(row.name).toBe(`${row.browser_name as string} ${row.browser_version as string}`);
  });

  it('gives utm_content every UTM-tagged session and utm_terms only some of them', async () => {
    const res = await result;
    const tagged = sumOf(rowsOf(res, 'utm_sources'), 'pageviews');
    expect(tagged).toBeGreaterThan(0);
    expect(sumOf(rowsOf(res, 'utm_content'), 'pageviews')).toBe(tagged);
    const terms = sumOf(rowsOf(res, 'utm_terms'), 'pageviews');
    expect(terms).toBeGreaterThan(0);
    expect(terms).toBeLessThan(tagged);
  });

  it('gives utm_terms the same sessions as utm_sources among the sources that carry a term', async () => {
    const sources = rowsOf(await result, 'utm_sources');
    for (const source of sources) {
      const filters = [{ field: 'utm_source', op: 'eq', value: source.name }];
      const terms = await rowsFor(sim, 'utm_terms', { ...WEEK, filters }, STORE);
      const content = await rowsFor(sim, 'utm_content', { ...WEEK, filters }, STORE);
      expect(sumOf(content, 'pageviews'), String(source.name)).toBe(source.pageviews);
      const termPageviews = sumOf(terms, 'pageviews');
      // A source carries a term on all of its sessions or on none.
      expect([0, source.pageviews], String(source.name)).toContain(termPageviews);
    }
  });

  it('narrows utm_terms to one term with a utm_term filter', async () => {
    const [first] = rowsOf(await result, 'utm_terms');
    const rows = await rowsFor(sim, 'utm_terms', { ...WEEK, filters: [{ field: 'utm_term', op: 'eq', value: first?.name }] }, STORE);
    expect(rows).toEqual([{ ...first, percentage: 100 }]);
  });

  it('sums each traffic_segments dimension with few values to the summary sessions', async () => {
    const rows = rowsOf(await result, 'traffic_segments');
    expect([...new Set(column(rows, 'dimension'))]).toEqual(['browser', 'browser_version', 'country', 'device', 'os']);
    for (const dimension of ['browser', 'device', 'os']) {
      const of = rows.filter((r) => r.dimension === dimension);
      expect(sumOf(of, 'sessions'), dimension).toBe((await summary()).sessions);
      expect(sumOf(of, 'pageviews'), dimension).toBe((await summary()).pageviews);
    }
  });

  it('narrows summary_metrics and entry_pages to one visitor with an anonymous_id filter', async () => {
    const filters = [{ field: 'anonymous_id', op: 'eq', value: anonymousIdOf('web_acme_store', 0) }];
    const res = await runQuery(sim, { parameters: ['summary_metrics', 'entry_pages'], ...WEEK, filters }, STORE);
    const [one] = rowsOf(res, 'summary_metrics');
    expect(one?.pageviews as number).toBeGreaterThan(0);
    expect(one?.pageviews as number).toBeLessThan((await summary()).pageviews as number);
    expect(sumOf(rowsOf(res, 'entry_pages'), 'pageviews')).toBe(one?.sessions);
  });
});

describe('the two shapes of summary_metrics and top_pages', () => {
  it('answers the SPEC.md shapes under the spec profile and the live shapes under live, from the same traffic', async () => {
    const spec = freshSimulator();
    const live = freshSimulator({ profile: 'live' });
    const body = { parameters: ['summary_metrics', 'top_pages'], ...WEEK };
    const specRes = await runQuery(spec, body, STORE);
    const liveRes = await runQuery(live, body, STORE);

    const days = rowsOf(specRes, 'summary_metrics');
    expect(days).toHaveLength(7);
    for (const day of days) expect(Object.keys(day)).toEqual(['date', 'pageviews', 'visitors', 'sessions', 'bounce_rate', 'median_session_duration', 'total_events']);
    const [total] = rowsOf(liveRes, 'summary_metrics');
    expect(rowsOf(liveRes, 'summary_metrics')).toHaveLength(1);
    expect(Object.keys(total as Row)).toEqual(['pageviews', 'unique_visitors', 'sessions', 'bounce_rate', 'median_session_duration', 'total_events']);
    expect(total?.pageviews).toBe(sumOf(days, 'pageviews'));
    expect(total?.sessions).toBe(sumOf(days, 'sessions'));

    const specPages = rowsOf(specRes, 'top_pages');
    const livePages = rowsOf(liveRes, 'top_pages');
    for (const row of specPages) expect(Object.keys(row)).toEqual(['path', 'pageviews', 'visitors', 'sessions', 'percentage']);
    for (const row of livePages) expect(Object.keys(row)).toEqual(['name', 'pageviews', 'visitors', 'percentage']);
    expect(livePages.map((r) => [r.name, r.pageviews, r.visitors])).toEqual(specPages.map((r) => [r.path, r.pageviews, r.visitors]));
  });
});

describe('events_by_date and self-paged page lists', () => {
  it('has no bucket after the clock instant', async () => {
    const startMs = Date.UTC(2025, 5, 2, 9, 30);
    const sim = freshSimulator({ startMs, profile: 'live' });
    const rows = await rowsFor(sim, 'events_by_date', { preset: 'today', granularity: 'hourly' }, STORE);
    expect(rows.length).toBeGreaterThan(0);
    for (const date of column<string>(rows, 'date')) expect(date <= '2025-06-02 09:00:00').toBe(true);
  });

  it('pages entry_pages itself with limit and page', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const all = await rowsFor(sim, 'entry_pages', WEEK, STORE);
    const second = await rowsFor(sim, 'entry_pages', { ...WEEK, limit: 2, page: 2 }, STORE);
    expect(all.length).toBeGreaterThan(4);
    expect(second).toEqual(all.slice(2, 4));
  });
});
