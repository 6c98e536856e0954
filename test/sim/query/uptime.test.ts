import { describe, expect, it } from 'vitest';
import { freshSimulator } from '../../helpers/sim.js';
import { column, rowsFor, STORE_MONITOR, sumOf, type Row } from './support.js';

const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };
const SEEDS = [42, 7];

const monitorRows = (sim: ReturnType<typeof freshSimulator>, type: string, body: Record<string, unknown> = {}): Promise<Row[]> =>
  rowsFor(sim, type, { ...WEEK, ...body }, STORE_MONITOR, 'key_acme_monitors');

describe.each(SEEDS)('uptime checks with seed %i', (seed) => {
  const sim = freshSimulator({ seed });

  it('adds the status breakdown and the time series up to the overview total', async () => {
    const [overview] = await monitorRows(sim, 'uptime_overview');
    const total = overview?.total_checks as number;
    expect(total).toBeGreaterThan(0);
    const breakdown = await monitorRows(sim, 'uptime_status_breakdown');
    expect(sumOf(breakdown, 'count')).toBe(total);
    expect(Math.abs(sumOf(breakdown, 'percentage') - 100)).toBeLessThan(0.1);
    const series = await monitorRows(sim, 'uptime_time_series', { limit: 1000 });
    expect(sumOf(series, 'total_checks')).toBe(total);
    const up = breakdown.filter((r) => r.status === 1).reduce((sum, r) => sum + (r.count as number), 0);
    expect(sumOf(series, 'successful_checks')).toBe(up);
    expect(overview?.uptime_percentage).toBe(Math.round((up / total) * 10_000) / 100);
  });

  it('orders the response-time percentiles of the overview', async () => {
    const [o] = await monitorRows(sim, 'uptime_overview');
    const order = ['min_response_time', 'p50_response_time', 'p75_response_time', 'p95_response_time', 'p99_response_time', 'max_response_time'].map((f) => o?.[f] as number);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('lists every probe region, most available first', async () => {
    const regions = await monitorRows(sim, 'uptime_by_region');
    expect(regions.length).toBeGreaterThan(1);
    const uptime = column<number>(regions, 'uptime_percentage');
    expect(uptime).toEqual([...uptime].sort((a, b) => b - a));
    const recent = await monitorRows(sim, 'uptime_recent_checks', { limit: 1000 });
    expect(new Set(column(regions, 'region'))).toEqual(new Set(column(recent, 'probe_region')));
  });
});

describe('uptime checks of one monitor', () => {
  const sim = freshSimulator();

  it('lists the recent checks newest first, paged by limit and page', async () => {
    const first = await monitorRows(sim, 'uptime_recent_checks', { limit: 10 });
    const times = column<string>(first, 'timestamp');
    expect(times).toEqual([...times].sort().reverse());
    expect(await monitorRows(sim, 'uptime_recent_checks', { limit: 5, page: 2 })).toEqual(first.slice(5, 10));
  });

  it('reports the certificate of the latest check', async () => {
    const [ssl] = await monitorRows(sim, 'uptime_ssl_status');
    expect(ssl).toMatchObject({ ssl_valid: 1, invalid_ssl_checks: 0 });
    expect(ssl?.ssl_expiry).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00\.000$/);
  });

  it('has no bucket or check after now', async () => {
    const startMs = Date.UTC(2025, 5, 2, 9, 30);
    const early = freshSimulator({ startMs });
    const day = { startDate: '2025-06-02', endDate: '2025-06-02', granularity: 'hourly', limit: 1000 };
    const series = await monitorRows(early, 'uptime_time_series', day);
    expect(series.length).toBeGreaterThan(0);
    for (const date of column<string>(series, 'date')) expect(date <= '2025-06-02 09:00:00').toBe(true);
    const [latest] = await monitorRows(early, 'uptime_recent_checks', day);
    expect(Date.parse(`${(latest?.timestamp as string).replace(' ', 'T')}Z`)).toBeLessThan(startMs);
  });
});
