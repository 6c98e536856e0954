import { describe, expect, it } from 'vitest';
import { freshSimulator } from '../../helpers/sim.js';
import { rowsFor, STORE, sumOf, type Row } from './support.js';

const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };

function rows(sim: ReturnType<typeof freshSimulator>, type: string, body: Record<string, unknown> = {}): Promise<Row[]> {
  return rowsFor(sim, type, { ...WEEK, limit: 10_000, ...body }, STORE);
}

function samplesByMetric(list: readonly Row[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const row of list) out.set(row.metric_name as string, (out.get(row.metric_name as string) ?? 0) + (row.samples as number));
  return out;
}

describe.each(['42', '7'])('the vitals types of seed %s', (seed) => {
  const sim = freshSimulator({ seed, profile: 'live' });

  it('count as many samples per metric in vitals_by_page as in vitals_overview', async () => {
    const overview = await rows(sim, 'vitals_overview');
    expect(overview.map((r) => r.metric_name)).toEqual(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']);
    expect(samplesByMetric(await rows(sim, 'vitals_by_page'))).toEqual(samplesByMetric(overview));
    expect(samplesByMetric(await rows(sim, 'vitals_time_series'))).toEqual(samplesByMetric(overview));
  });

  it('count the same measurements across every web_vitals breakdown and the series', async () => {
    const total = sumOf(await rows(sim, 'vitals_overview'), 'samples');
    expect(total).toBeGreaterThan(0);
    for (const type of ['web_vitals_by_page', 'web_vitals_by_browser', 'web_vitals_by_device', 'web_vitals_by_os', 'web_vitals_by_country', 'web_vitals_time_series']) {
      expect(sumOf(await rows(sim, type), 'measurements'), type).toBe(total);
    }
    expect(sumOf(await rows(sim, 'vitals_by_browser'), 'samples')).toBe(total);
  });
});

describe('the vitals types', () => {
  const sim = freshSimulator({ profile: 'live' });

  it('keep percentiles in order and mobile pages slower than desktop ones', async () => {
    for (const row of await rows(sim, 'vitals_overview')) {
      const [p50, p75, p90, p95, p99] = ['p50', 'p75', 'p90', 'p95', 'p99'].map((k) => row[k] as number);
      expect(p50).toBeLessThanOrEqual(p75 as number);
      expect(p75).toBeLessThanOrEqual(p90 as number);
      expect(p90).toBeLessThanOrEqual(p95 as number);
      expect(p95).toBeLessThanOrEqual(p99 as number);
    }
    const devices = await rows(sim, 'web_vitals_by_device');
    const lcp = (name: string): number => devices.find((r) => r.name === name)?.p50_lcp as number;
    expect(lcp('mobile')).toBeGreaterThan(lcp('desktop'));
  });

  it('narrow vitals_by_page and vitals_by_browser with a filter, and leave web_vitals_by_page unfiltered', async () => {
    const filters = [{ field: 'browser_name', op: 'eq', value: 'Firefox' }];
    const all = sumOf(await rows(sim, 'vitals_by_page'), 'samples');
    const firefox = sumOf(await rows(sim, 'vitals_by_page', { filters }), 'samples');
    expect(firefox).toBeGreaterThan(0);
    expect(firefox).toBeLessThan(all);
    const browsers = await rows(sim, 'vitals_by_browser', { filters });
    expect(browsers.map((r) => r.name)).toEqual(['Firefox']);
    expect(browsers[0]?.samples).toBe(firefox);
    expect(await rows(sim, 'web_vitals_by_page', { filters })).toEqual(await rows(sim, 'web_vitals_by_page'));
  });

  it('give web_vitals_by_page the request limit, slowest LCP first', async () => {
    const all = await rows(sim, 'web_vitals_by_page');
    const top = await rows(sim, 'web_vitals_by_page', { limit: 3 });
    expect(top).toEqual(all.slice(0, 3));
    const lcp = all.map((r) => r.p50_lcp as number);
    expect([...lcp].sort((a, b) => b - a)).toEqual(lcp);
  });

  it('share out the visitors of vitals_by_country in percentages', async () => {
    const countries = await rows(sim, 'vitals_by_country');
    expect(countries.length).toBeGreaterThan(1);
    expect(sumOf(countries, 'percentage')).toBeCloseTo(100, 0);
    expect(countries.find((r) => r.country_code === 'US')?.country_name).toBe('United States');
  });

  it('answer no vitals day after now', async () => {
    const live = freshSimulator({ profile: 'live', startMs: Date.parse('2025-06-03T12:30:00Z') });
    const body = { startDate: '2025-06-01', endDate: '2025-06-05' };
    for (const type of ['vitals_time_series', 'web_vitals_time_series']) {
      const days = (await rowsFor(live, type, body, STORE)).map((r) => r.date as string);
      expect(days.at(-1), type).toBe('2025-06-03');
    }
  });
});
