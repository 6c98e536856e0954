import { describe, expect, it } from 'vitest';
import { rowsFor, STORE, sumOf, type Row } from '../query/support.js';
import { postSpans, spanSimulator, TODAY, todayRows, vital } from './span-support.js';

const samplesOf = (rows: readonly Row[], metric: string): number => (rows.find((r) => r.metric_name === metric)?.samples as number | undefined) ?? 0;

describe('web vitals posted to POST /vitals in the vitals and performance query types', () => {
  it('raises vitals_overview’s LCP sample count by one for a posted LCP measurement', async () => {
    const sim = spanSimulator();
    const before = await todayRows(sim, 'vitals_overview');
    expect((await postSpans(sim, '/vitals', [vital()])).json).toEqual({ status: 'success', type: 'web_vitals', count: 1 });
    const after = await todayRows(sim, 'vitals_overview');
    expect(samplesOf(after, 'LCP')).toBe(samplesOf(before, 'LCP') + 1);
    expect(samplesOf(after, 'FCP')).toBe(samplesOf(before, 'FCP'));
  });

  it('gives a posted page of its own a vitals_by_page and web_vitals_by_page row with the posted values', async () => {
    const sim = spanSimulator();
    await postSpans(sim, '/vitals', [
      vital({ path: '/spans/fresh/', metricValue: 1000 }),
      vital({ path: 'https://store.acme.io/spans/fresh', metricValue: 3000 }),
      vital({ path: '/spans/fresh', metricName: 'CLS', metricValue: 0.12 }),
    ]);
    const byPage = (await todayRows(sim, 'vitals_by_page')).filter((r) => r.page === '/spans/fresh');
    expect(byPage).toEqual([
      { page: '/spans/fresh', metric_name: 'LCP', p50: 2000, p75: 2500, p90: 2800, p95: 2900, p99: 2980, samples: 2 },
      { page: '/spans/fresh', metric_name: 'CLS', p50: 0.12, p75: 0.12, p90: 0.12, p95: 0.12, p99: 0.12, samples: 1 },
    ]);
    const web = (await todayRows(sim, 'web_vitals_by_page')).find((r) => r.name === '/spans/fresh');
    expect(web).toMatchObject({ visitors: 1, avg_lcp: 2000, p50_cls: 0.12, measurements: 3 });
  });

  it('joins a posted measurement to the generated page of the same name in vitals_by_page', async () => {
    const sim = spanSimulator();
    const [busiest] = await todayRows(sim, 'vitals_by_page');
    const page = busiest?.page as string;
    const metric = busiest?.metric_name as string;
    await postSpans(sim, '/vitals', [vital({ path: `${page}/`, metricName: metric, metricValue: 5 })]);
    const rows = (await todayRows(sim, 'vitals_by_page')).filter((r) => r.page === page && r.metric_name === metric);
    expect(rows.map((r) => r.samples)).toEqual([(busiest?.samples as number) + 1]);
  });

  it('adds a posted measurement to vitals_time_series on its day and to web_vitals_time_series’s measurements', async () => {
    const sim = spanSimulator();
    const week = { startDate: '2025-05-27', endDate: '2025-06-02', limit: 10_000 };
    const series = () => rowsFor(sim, 'vitals_time_series', week, STORE);
    const web = () => rowsFor(sim, 'web_vitals_time_series', week, STORE);
    const [before, webBefore] = [await series(), await web()];
    await postSpans(sim, '/vitals', [vital({ timestamp: Date.UTC(2025, 4, 29, 9) })]);
    const after = await series();
    const day = (rows: readonly Row[]) => samplesOf(rows.filter((r) => r.date === '2025-05-29'), 'LCP');
    expect(day(after)).toBe(day(before) + 1);
    expect(sumOf(after, 'samples')).toBe(sumOf(before, 'samples') + 1);
    expect(sumOf(await web(), 'measurements')).toBe(sumOf(webBefore, 'measurements') + 1);
  });

  it('shows FPS, which only the tracker reports, as a metric of its own in vitals_overview', async () => {
    const sim = spanSimulator();
    expect((await todayRows(sim, 'vitals_overview')).some((r) => r.metric_name === 'FPS')).toBe(false);
    await postSpans(sim, '/vitals', [vital({ metricName: 'FPS', metricValue: 58 }), vital({ metricName: 'FPS', metricValue: 60 })]);
    const fps = (await todayRows(sim, 'vitals_overview')).find((r) => r.metric_name === 'FPS');
    expect(fps).toMatchObject({ p50: 59, avg_value: 59, samples: 2 });
  });

  it('counts a posted measurement under the browser, OS and device its User-Agent names, and not by country', async () => {
    const sim = spanSimulator();
    const types = ['vitals_by_browser', 'web_vitals_by_os', 'web_vitals_by_device', 'vitals_by_country'] as const;
    const before = await Promise.all(types.map((t) => todayRows(sim, t)));
    await postSpans(sim, '/vitals', [vital()]);
    const after = await Promise.all(types.map((t) => todayRows(sim, t)));
    const count = (rows: readonly Row[], name: string, field: string) => (rows.find((r) => r.name === name)?.[field] as number | undefined) ?? 0;
    expect(count(after[0] ?? [], 'Chrome', 'samples')).toBe(count(before[0] ?? [], 'Chrome', 'samples') + 1);
    expect(count(after[1] ?? [], 'macOS', 'measurements')).toBe(count(before[1] ?? [], 'macOS', 'measurements') + 1);
    expect(count(after[2] ?? [], 'desktop', 'measurements')).toBe(count(before[2] ?? [], 'desktop', 'measurements') + 1);
    expect(sumOf(after[3] ?? [], 'samples')).toBe(sumOf(before[3] ?? [], 'samples'));
  });

  it('applies the request’s filters to a posted measurement’s own page and browser', async () => {
    const sim = spanSimulator();
    await postSpans(sim, '/vitals', [vital({ path: '/spans/filtered' })]);
    const rows = (filters: unknown[]) => rowsFor(sim, 'vitals_by_page', { ...TODAY, limit: 10_000, filters }, STORE);
    expect((await rows([{ field: 'browser_name', op: 'eq', value: 'Chrome' }])).some((r) => r.page === '/spans/filtered')).toBe(true);
    expect((await rows([{ field: 'browser_name', op: 'eq', value: 'Safari' }])).some((r) => r.page === '/spans/filtered')).toBe(false);
    expect((await rows([{ field: 'path', op: 'eq', value: '/spans/filtered' }])).map((r) => r.page)).toEqual(['/spans/filtered']);
  });
});
