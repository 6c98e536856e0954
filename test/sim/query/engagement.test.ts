import { describe, expect, it } from 'vitest';
import { freshSimulator } from '../../helpers/sim.js';
import { rowsOf, runQuery, STORE, sumOf } from './support.js';

const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01', limit: 1000 };
const PAGE_EXIT_TYPES = ['scroll_depth_summary', 'scroll_depth_distribution', 'page_scroll_performance', 'interaction_summary', 'session_metrics'];
const SPAN_TYPES = ['frustration_by_page', 'form_abandonment_by_page', 'engagement_quality_by_page'];
const US = [{ field: 'country', op: 'eq', value: 'US' }];

describe.each([42, 7])('the engagement family with seed %i', (seed) => {
  const sim = freshSimulator({ seed, profile: 'live' });
  const all = runQuery(sim, { parameters: [...PAGE_EXIT_TYPES, ...SPAN_TYPES], ...WEEK }, STORE);
  const us = runQuery(sim, { parameters: [...PAGE_EXIT_TYPES, ...SPAN_TYPES], ...WEEK, filters: US }, STORE);

  it('splits the scroll_depth_summary sessions exactly into the depth ranges, shallowest first', async () => {
    for (const res of [await all, await us]) {
      const [summary] = rowsOf(res, 'scroll_depth_summary');
      const ranges = rowsOf(res, 'scroll_depth_distribution');
      expect(summary?.total_sessions).toBeGreaterThan(0);
      expect(sumOf(ranges, 'sessions')).toBe(summary?.total_sessions);
      expect(sumOf(ranges, 'percentage')).toBeCloseTo(100, 1);
      expect(ranges.map((r) => r.depth_range)).toEqual(['0-25%', '25-50%', '50-75%', '75-100%', '100%'].filter((d) => ranges.some((r) => r.depth_range === d)));
    }
  });

  it('reports page exits for every session, so interaction_summary has the session_metrics sessions', async () => {
    for (const res of [await all, await us]) {
      const [interactions] = rowsOf(res, 'interaction_summary');
      expect(interactions?.total_sessions).toBe(rowsOf(res, 'session_metrics')[0]?.total_sessions);
      expect(interactions?.interactive_sessions as number).toBeLessThanOrEqual(interactions?.total_sessions as number);
    }
  });

  it('narrows the page_exit types with a country filter', async () => {
    const [everyone] = rowsOf(await all, 'scroll_depth_summary');
    const [americans] = rowsOf(await us, 'scroll_depth_summary');
    expect(americans?.total_sessions as number).toBeLessThan(everyone?.total_sessions as number);
    expect(sumOf(rowsOf(await us, 'page_scroll_performance'), 'pageviews')).toBeLessThan(sumOf(rowsOf(await all, 'page_scroll_performance'), 'pageviews'));
  });

  it('ignores request filters in the engagement-span types, as live', async () => {
    for (const type of SPAN_TYPES) expect(rowsOf(await us, type), type).toEqual(rowsOf(await all, type));
  });

  it('keeps only pages with at least five views or form starts, with rates between 0 and 100', async () => {
    const res = await all;
    const frustration = rowsOf(res, 'frustration_by_page');
    expect(frustration.length).toBeGreaterThan(0);
    for (const r of frustration) {
      expect(r.page_views as number).toBeGreaterThanOrEqual(5);
      for (const rate of ['rage_click_rate', 'dead_click_rate', 'error_rate']) expect(r[rate] as number).toBeLessThanOrEqual(100);
    }
    expect(frustration.some((r) => (r.error_rate as number) > 0)).toBe(true);
    const forms = rowsOf(res, 'form_abandonment_by_page');
    expect(forms.length).toBeGreaterThan(0);
    for (const r of forms) {
      expect(r.form_starts as number).toBeGreaterThanOrEqual(5);
      expect(r.form_submits as number).toBeLessThanOrEqual(r.form_starts as number);
    }
    for (const r of rowsOf(res, 'engagement_quality_by_page')) {
      expect(r.avg_active_time as number).toBeLessThanOrEqual(r.avg_time_on_page as number);
      expect(r.attention_ratio as number).toBeLessThanOrEqual(100);
    }
  });

  it('orders page_scroll_performance by depth, deepest first', async () => {
    const depths = rowsOf(await all, 'page_scroll_performance').map((r) => r.avg_scroll_depth as number);
    expect(depths).toEqual([...depths].sort((a, b) => b - a));
  });
});
