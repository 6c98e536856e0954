import { describe, expect, it } from 'vitest';
import { freshSimulator } from '../../helpers/sim.js';
import { column, LAUNCH_LINK, rowsFor, STORE, sumOf, type Row } from './support.js';

const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };
const SEEDS = [42, 7];

describe.each(SEEDS)('short link clicks with seed %i', (seed) => {
  const sim = freshSimulator({ seed });
  const rows = (type: string, body: Record<string, unknown> = {}): Promise<Row[]> => rowsFor(sim, type, { ...WEEK, limit: 1000, ...body }, LAUNCH_LINK);

  it('adds the clicks of every day, country, referrer, device and browser up to link_total_clicks', async () => {
    const [total] = await rows('link_total_clicks');
    const clicks = total?.total as number;
    expect(clicks).toBeGreaterThan(0);
    expect(sumOf(await rows('link_clicks_by_day'), 'clicks')).toBe(clicks);
    expect(sumOf(await rows('link_top_countries'), 'clicks')).toBe(clicks);
    expect(sumOf(await rows('link_top_regions'), 'clicks')).toBe(clicks);
    expect(sumOf(await rows('link_top_cities'), 'clicks')).toBe(clicks);
    expect(sumOf(await rows('link_top_referrers'), 'clicks')).toBe(clicks);
    expect(sumOf(await rows('link_top_devices'), 'clicks')).toBe(clicks);
    expect(sumOf(await rows('link_top_browsers'), 'clicks')).toBe(clicks);
  });

  it('counts at most as many distinct countries and referrers in a day as the day has clicks', async () => {
    const days = new Map((await rows('link_clicks_by_day')).map((r) => [r.date, r.clicks as number]));
    for (const type of ['link_countries_by_day', 'link_referrers_by_day']) {
      for (const row of await rows(type)) {
        expect(row.value as number).toBeGreaterThan(0);
        expect(row.value as number).toBeLessThanOrEqual(days.get(row.date) as number);
      }
    }
  });
});

describe('short link clicks of one link', () => {
  const sim = freshSimulator();
  const rows = (type: string, body: Record<string, unknown> = {}): Promise<Row[]> => rowsFor(sim, type, { ...WEEK, limit: 1000, ...body }, LAUNCH_LINK);

  it('narrows every type to the clicks of a country filter', async () => {
    const filters = [{ field: 'country', op: 'eq', value: 'US' }];
    const [all] = await rows('link_total_clicks');
    const [us] = await rows('link_total_clicks', { filters });
    expect(us?.total as number).toBeGreaterThan(0);
    expect(us?.total as number).toBeLessThan(all?.total as number);
    const countries = await rows('link_top_countries', { filters });
    expect(countries.map((r) => [r.country, r.country_code, r.clicks])).toEqual([['US', 'US', us?.total]]);
    expect(countries[0]?.country_name).toBe('United States');
  });

  it('names referrers as the referrer parser does, Direct for none, with shares of the clicks', async () => {
    const referrers = await rows('link_top_referrers');
    const direct = referrers.find((r) => r.name === 'Direct');
    expect(direct).toMatchObject({ referrer: 'direct', referrer_type: 'direct', domain: '' });
    expect(Math.abs(sumOf(referrers, 'percentage') - 100)).toBeLessThan(0.1);
  });

  it('lists at most 10 rows of the top types by default', async () => {
    const top = await rowsFor(sim, 'link_top_cities', WEEK, LAUNCH_LINK);
    expect(top.length).toBeLessThanOrEqual(10);
    const clicks = column<number>(top, 'clicks');
    expect(clicks).toEqual([...clicks].sort((a, b) => b - a));
  });

  it('has no bucket after now', async () => {
    const early = freshSimulator({ startMs: Date.UTC(2025, 5, 2, 9, 30) });
    const series = await rowsFor(early, 'link_clicks_by_day', { startDate: '2025-06-02', endDate: '2025-06-02', granularity: 'hourly' }, LAUNCH_LINK);
    for (const date of column<string>(series, 'date')) expect(date <= '2025-06-02 09:00:00').toBe(true);
  });
});

describe.each(SEEDS)('outbound link clicks with seed %i', (seed) => {
  const sim = freshSimulator({ seed });
  const rows = (type: string, body: Record<string, unknown> = {}): Promise<Row[]> => rowsFor(sim, type, { ...WEEK, limit: 1000, ...body }, STORE);

  it('adds the clicks per domain up to the clicks per link', async () => {
    const links = await rows('outbound_links');
    expect(links.length).toBeGreaterThan(0);
    const domains = await rows('outbound_domains');
    expect(sumOf(domains, 'total_clicks')).toBe(sumOf(links, 'total_clicks'));
    for (const domain of domains) {
      const hrefs = new Set(links.filter((l) => new URL(l.href as string).hostname === domain.domain).map((l) => l.href));
      expect(domain.unique_links).toBe(hrefs.size);
    }
  });

  it('counts no more users or sessions than clicks', async () => {
    for (const link of await rows('outbound_links')) {
      expect(link.unique_sessions as number).toBeLessThanOrEqual(link.total_clicks as number);
      expect(link.unique_users as number).toBeLessThanOrEqual(link.unique_sessions as number);
    }
  });
});

describe('outbound link clicks of one website', () => {
  const sim = freshSimulator();
  const rows = (type: string, body: Record<string, unknown> = {}): Promise<Row[]> => rowsFor(sim, type, { ...WEEK, limit: 1000, ...body }, STORE);

  it('narrows to one destination with an href filter and to the sessions of a country', async () => {
    const [top] = await rows('outbound_links');
    const byHref = await rows('outbound_domains', { filters: [{ field: 'href', op: 'eq', value: top?.href }] });
    expect(byHref).toHaveLength(1);
    expect(byHref[0]?.unique_links).toBe(1);
    const all = sumOf(await rows('outbound_links'), 'total_clicks');
    const us = sumOf(await rows('outbound_links', { filters: [{ field: 'country', op: 'eq', value: 'US' }] }), 'total_clicks');
    expect(us).toBeGreaterThan(0);
    expect(us).toBeLessThan(all);
  });
});
