import { describe, expect, it } from 'vitest';
import { freshSimulator } from '../../helpers/sim.js';
import {
  column,
  daysBetween,
  LABS,
  outcomesOf,
  rowsFor,
  rowsOf,
  runQuery,
  STORE,
  WWW,
  type ParameterOutcome,
} from './support.js';

const sim = freshSimulator();
const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };

describe('POST /v1/query, one query: response shape', () => {
  it('answers success, the request id (equal to X-Request-ID), the queryId echo, data and meta', async () => {
    const res = await runQuery(sim, { id: 'dashboard-1', parameters: ['summary_metrics', 'top_pages'], ...WEEK });
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toMatch(/^application\/json/);
    expect(Object.keys(res.json)).toEqual(['success', 'requestId', 'queryId', 'data', 'meta']);
    expect(res.json.success).toBe(true);
    expect(res.json.requestId).toMatch(/^req_[A-Za-z0-9]{16}$/);
    expect(res.json.requestId).toBe(res.headers['X-Request-ID']);
    expect(res.json.queryId).toBe('dashboard-1');
  });

  it('echoes an empty queryId when the request has no id', async () => {
    const res = await runQuery(sim, { parameters: ['summary_metrics'], ...WEEK });
    expect(res.json.queryId).toBe('');
  });

  it('returns one data entry per parameter, in request order, each with parameter, success and data', async () => {
    const names = ['browser_name', 'summary_metrics', 'country', 'top_pages', 'os_name'];
    const res = await runQuery(sim, { parameters: names, ...WEEK });
    const data = outcomesOf(res);
    expect(data.map((d) => d.parameter)).toEqual(names);
    for (const entry of data) {
      expect(Object.keys(entry)).toEqual(['parameter', 'success', 'data']);
      expect(entry.success).toBe(true);
      expect(Array.isArray(entry.data)).toBe(true);
    }
  });

  it('fills meta with parameters, total_parameters, page, limit and filters_applied', async () => {
    const res = await runQuery(sim, {
      parameters: ['top_pages', 'browser_name'],
      ...WEEK,
      page: 2,
      limit: 5,
      filters: [{ field: 'country', op: 'eq', value: 'US' }],
    });
    expect(res.json.meta).toEqual({
      parameters: ['top_pages', 'browser_name'],
      total_parameters: 2,
      page: 2,
      limit: 5,
      filters_applied: 1,
    });
  });

  it('defaults meta.page to 1 and meta.filters_applied to 0', async () => {
    const res = await runQuery(sim, { parameters: ['top_pages'], ...WEEK });
    expect(res.json.meta.page).toBe(1);
    expect(res.json.meta.filters_applied).toBe(0);
    expect(res.json.meta.limit).toBe(100);
  });

  it('lists parameter objects by name in meta.parameters', async () => {
    const res = await runQuery(sim, {
      parameters: ['summary_metrics', { name: 'top_pages', id: 'pages', start_date: '2025-05-01', end_date: '2025-05-02' }],
      ...WEEK,
    });
    expect(res.json.meta.parameters).toEqual(['summary_metrics', 'top_pages']);
    expect(res.json.meta.total_parameters).toBe(2);
  });
});

describe('POST /v1/query, parameter objects', () => {
  it('names the result of a parameter object by its id', async () => {
    const res = await runQuery(sim, { parameters: [{ name: 'browser_name', id: 'browsers-this-week' }], ...WEEK });
    const [entry] = outcomesOf(res);
    expect(entry?.parameter).toBe('browsers-this-week');
    expect(entry?.success).toBe(true);
  });

  it('names the result of a parameter object without id by its type name', async () => {
    const res = await runQuery(sim, { parameters: [{ name: 'browser_name' }], ...WEEK });
    expect(outcomesOf(res)[0]?.parameter).toBe('browser_name');
  });

  it('runs a parameter with its own start_date and end_date over that range only (SPEC 4.4 rule 3)', async () => {
    const res = await runQuery(sim, {
      parameters: [
        { name: 'summary_metrics', id: 'may', start_date: '2025-05-01', end_date: '2025-05-03' },
        'summary_metrics',
      ],
      ...WEEK,
    });
    expect(column(rowsOf(res, 'may'), 'date')).toEqual(['2025-05-01', '2025-05-02', '2025-05-03']);
    expect(column(rowsOf(res, 'summary_metrics'), 'date')).toEqual(daysBetween('2025-05-26', '2025-06-01'));
  });

  it('gives a parameter with its own range the same rows as a query over that range', async () => {
    const own = await runQuery(sim, { parameters: [{ name: 'top_pages', id: 'p', start_date: '2025-05-10', end_date: '2025-05-12' }], ...WEEK });
    const plain = await runQuery(sim, { parameters: ['top_pages'], startDate: '2025-05-10', endDate: '2025-05-12' });
    expect(rowsOf(own, 'p')).toEqual(rowsOf(plain, 'top_pages'));
  });

  it('accepts a request with no request-wide dates when every parameter has its own', async () => {
    const res = await runQuery(sim, { parameters: [{ name: 'summary_metrics', start_date: '2025-05-01', end_date: '2025-05-01' }] });
    expect(res.status).toBe(200);
    expect(column(rowsOf(res, 'summary_metrics'), 'date')).toEqual(['2025-05-01']);
  });
});

describe('POST /v1/query, failed parameters', () => {
  it('fails a link type and an uptime type on a website with success:false, an error message and no rows, after the successful ones', async () => {
    const res = await runQuery(sim, { parameters: ['link_total_clicks', 'summary_metrics', 'uptime_overview', 'top_pages'], ...WEEK }, WWW, 'key_acme_all');
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    const data = outcomesOf(res);
    expect(data.map((d) => [d.parameter, d.success])).toEqual([
      ['summary_metrics', true],
      ['top_pages', true],
      ['link_total_clicks', false],
      ['uptime_overview', false],
    ]);
    for (const failed of data.filter((d) => !d.success)) {
      expect(typeof failed.error).toBe('string');
      expect((failed.error as string).length).toBeGreaterThan(0);
      expect(failed.data).toEqual([]);
    }
    expect(res.json.meta.parameters).toEqual(['link_total_clicks', 'summary_metrics', 'uptime_overview', 'top_pages']);
    expect(res.json.meta.total_parameters).toBe(4);
  });

  it('sends no error key on a successful parameter', async () => {
    const res = await runQuery(sim, { parameters: ['summary_metrics', 'link_total_clicks'], ...WEEK });
    const ok = outcomesOf(res).find((d: ParameterOutcome) => d.success);
    expect(ok && 'error' in ok).toBe(false);
  });

  it('fails a website type on a link with success:false while the link types succeed', async () => {
    const res = await runQuery(sim, { parameters: ['top_pages', 'link_total_clicks'], ...WEEK }, { link_id: 'link_acme_launch' });
    expect(outcomesOf(res).map((d) => [d.parameter, d.success])).toEqual([
      ['link_total_clicks', true],
      ['top_pages', false],
    ]);
  });
});

describe('POST /v1/query, rows (SPEC 4.4)', () => {
  it('gives summary_metrics rows a date, pageviews, visitors and sessions', async () => {
    const rows = await rowsFor(sim, 'summary_metrics', WEEK);
    expect(rows.length).toBe(7);
    for (const row of rows) {
      expect(row).toEqual(expect.objectContaining({ date: expect.any(String), pageviews: expect.any(Number), visitors: expect.any(Number), sessions: expect.any(Number) }));
      expect(row.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('gives top_pages rows a path, pageviews and visitors', async () => {
    const rows = await rowsFor(sim, 'top_pages', WEEK);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      expect(row).toEqual(expect.objectContaining({ path: expect.any(String), pageviews: expect.any(Number), visitors: expect.any(Number) }));
      expect(row.path).toMatch(/^\//);
    }
  });

  it('never reports more visitors than pageviews, or negative counts, in breakdown rows', async () => {
    for (const type of ['top_pages', 'browser_name', 'country', 'traffic_sources']) {
      for (const row of await rowsFor(sim, type, WEEK)) {
        expect(row.visitors as number, type).toBeGreaterThan(0);
        expect(row.visitors as number, type).toBeLessThanOrEqual(row.pageviews as number);
      }
    }
  });

  it.each([
    'top_pages',
    'entry_pages',
    'exit_pages',
    'top_referrers',
    'traffic_sources',
    'utm_sources',
    'utm_mediums',
    'utm_campaigns',
    'browser_name',
    'os_name',
    'device_types',
    'screen_resolution',
    'country',
    'region',
    'city',
    'language',
    'timezone',
  ])('orders %s rows by visitors, descending', async (type) => {
    const visitors = column<number>(await rowsFor(sim, type, { ...WEEK, limit: 10000 }, STORE), 'visitors');
    expect(visitors.length).toBeGreaterThan(1);
    expect(visitors).toEqual([...visitors].sort((a, b) => b - a));
  });

  it('orders summary_metrics rows by date ascending, one per day with no gaps, and events_by_date rows over the days with sessions, even on a tiny site', async () => {
    const range = { startDate: '2025-04-01', endDate: '2025-05-31', limit: 10000 };
    const summary = await rowsFor(sim, 'summary_metrics', range, LABS);
    expect(column(summary, 'date')).toEqual(daysBetween('2025-04-01', '2025-05-31'));
    const series = await rowsFor(sim, 'events_by_date', range, LABS);
    expect(column(series, 'date')).toEqual(summary.filter((r) => (r.sessions as number) > 0).map((r) => r.date));
  });

  it('fills days without traffic with zero counts in summary_metrics, and leaves them out of events_by_date as live does', async () => {
    const range = { startDate: '2025-01-01', endDate: '2025-05-31', limit: 10000 };
    const rows = await rowsFor(sim, 'summary_metrics', range, LABS);
    expect(rows.length).toBe(151);
    const empty = rows.filter((r) => r.sessions === 0);
    for (const row of empty) expect(row.pageviews).toBe(0);
    for (const row of await rowsFor(sim, 'events_by_date', range, LABS)) expect(row.sessions as number).toBeGreaterThan(0);
  });

  it('labels hourly buckets YYYY-MM-DD HH:00:00, ascending, 24 per day with no gaps', async () => {
    const rows = await rowsFor(sim, 'summary_metrics', { startDate: '2025-05-31', endDate: '2025-06-01', granularity: 'hourly' });
    const labels = column<string>(rows, 'date');
    const expected = ['2025-05-31', '2025-06-01'].flatMap((d) => Array.from({ length: 24 }, (_, h) => `${d} ${String(h).padStart(2, '0')}:00:00`));
    expect(labels).toEqual(expected);
    const series = column<string>(await rowsFor(sim, 'events_by_date', { startDate: '2025-05-31', endDate: '2025-06-01', granularity: 'hourly' }), 'date');
    expect(series).toEqual(expected.filter((label) => series.includes(label)));
  });

  it('gives hourly summary_metrics the same totals as daily over the same range', async () => {
    const hourly = await rowsFor(sim, 'summary_metrics', { startDate: '2025-05-31', endDate: '2025-06-01', granularity: 'hour' });
    const daily = await rowsFor(sim, 'summary_metrics', { startDate: '2025-05-31', endDate: '2025-06-01', granularity: 'daily' });
    expect(hourly.length).toBe(48);
    expect(daily.length).toBe(2);
    const sum = (rows: typeof hourly, f: string) => rows.reduce((t, r) => t + (r[f] as number), 0);
    expect(sum(hourly, 'pageviews')).toBe(sum(daily, 'pageviews'));
    expect(sum(hourly, 'sessions')).toBe(sum(daily, 'sessions'));
  });

  it('accepts hourly granularity on a single parameter object', async () => {
    const res = await runQuery(sim, { parameters: [{ name: 'summary_metrics', id: 'h', granularity: 'hourly' }, 'summary_metrics'], startDate: '2025-06-01', endDate: '2025-06-01' });
    expect(rowsOf(res, 'h').length).toBe(24);
    expect(rowsOf(res, 'summary_metrics').length).toBe(1);
  });

  it('gives a breakdown percentage that sums to about 100', async () => {
    const rows = await rowsFor(sim, 'browser_name', { ...WEEK, limit: 10000 }, WWW);
    const total = rows.reduce((t, r) => t + (r.percentage as number), 0);
    expect(Math.abs(total - 100)).toBeLessThan(0.1 * rows.length);
  });
});
