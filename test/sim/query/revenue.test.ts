import { describe, expect, it } from 'vitest';
import { createSeededWorld } from '../../../src/fixtures/world.js';
import { createTrafficCache } from '../../../src/sim/traffic-cache.js';
import { revenueDerivation, transactionIdOf } from '../../../src/sim/model/derived/revenue.js';
import { DAY_MS } from '../../../src/sim/model/world.js';
import { freshSimulator } from '../../helpers/sim.js';
import { rowsFor, rowsOf, runQuery, STORE, type Row } from './support.js';

const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };

/** Money in whole cents, so sums compare exactly. */
const cents = (value: unknown): number => Math.round((value as number) * 100);

/** Sum of `field` (in cents when `money`) per currency. */
function perCurrency(rows: readonly Row[], field: string, money = true): Map<string, number> {
  const out = new Map<string, number>();
  for (const row of rows) {
    const value = money ? cents(row[field]) : (row[field] as number);
    out.set(row.currency as string, (out.get(row.currency as string) ?? 0) + value);
  }
  return out;
}

const BREAKDOWNS = [
  'revenue_by_country',
  'revenue_by_region',
  'revenue_by_city',
  'revenue_by_provider',
  'revenue_by_browser',
  'revenue_by_device',
  'revenue_by_os',
  'revenue_by_referrer',
  'revenue_by_utm_source',
  'revenue_by_utm_medium',
  'revenue_by_utm_campaign',
  'revenue_by_entry_page',
  'revenue_attribution_overview',
];

describe.each([42, 7])('revenue with seed %i', (seed) => {
  const sim = freshSimulator({ seed, profile: 'live' });

  it('every breakdown sums to the overview per currency, covering every transaction', async () => {
    const answer = await runQuery(sim, { parameters: ['revenue_overview', ...BREAKDOWNS], ...WEEK, limit: 1000 }, STORE);
    const overview = rowsOf(answer, 'revenue_overview');
    expect(overview.length).toBeGreaterThan(0);
    const revenue = perCurrency(overview, 'total_revenue');
    const transactions = perCurrency(overview, 'total_transactions', false);
    for (const type of BREAKDOWNS) {
      const rows = rowsOf(answer, type);
      expect(perCurrency(rows, 'revenue'), type).toEqual(revenue);
      expect(perCurrency(rows, 'transactions', false), type).toEqual(transactions);
    }
  });

  it('names unattributed revenue and empty first touches as live does', async () => {
    const answer = await runQuery(sim, { parameters: ['revenue_by_country', 'revenue_by_referrer', 'revenue_by_utm_source', 'revenue_attribution_overview'], ...WEEK, limit: 1000 }, STORE);
    const attribution = rowsOf(answer, 'revenue_attribution_overview');
    const unattributed = perCurrency(attribution.filter((r) => r.name === 'Unattributed'), 'revenue');
    expect(perCurrency(rowsOf(answer, 'revenue_by_country').filter((r) => r.name === 'Unattributed'), 'revenue')).toEqual(unattributed);
    expect(rowsOf(answer, 'revenue_by_referrer').some((r) => r.name === 'Direct')).toBe(true);
    expect(rowsOf(answer, 'revenue_by_utm_source').some((r) => r.name === 'None')).toBe(true);
  });

  it('the time series sums to the overview, refunds included', async () => {
    const answer = await runQuery(sim, { parameters: ['revenue_overview', 'revenue_time_series'], ...WEEK }, STORE);
    const overview = rowsOf(answer, 'revenue_overview');
    const series = rowsOf(answer, 'revenue_time_series');
    expect(perCurrency(series, 'revenue')).toEqual(perCurrency(overview, 'total_revenue'));
    expect(perCurrency(series, 'transactions', false)).toEqual(perCurrency(overview, 'total_transactions', false));
    expect(perCurrency(series, 'refund_amount')).toEqual(perCurrency(overview, 'refund_amount'));
    expect(perCurrency(series, 'refund_count', false)).toEqual(perCurrency(overview, 'refund_count', false));
    const dates = series.map((r) => r.date as string);
    expect(dates).toEqual([...dates].sort());
  });

  it('each breakdown share is of its own currency', async () => {
    const rows = await rowsFor(sim, 'revenue_by_country', { ...WEEK, limit: 1000 }, STORE);
    for (const share of perCurrency(rows, 'percentage').values()) expect(Math.abs(share - 10_000)).toBeLessThanOrEqual(rows.length);
  });

  it('recent transactions belong to real sessions with their country and browser', async () => {
    const rows = await rowsFor(sim, 'recent_transactions', { ...WEEK, limit: 40 }, STORE);
    expect(rows.length).toBe(40);
    const world = createSeededWorld(String(seed));
    const traffic = createTrafficCache(world);
    const website = world.websites.find((w) => w.id === STORE.website_id);
    if (!website) throw new Error('no store');
    const { country, browser_name: browser } = world.dictionaries.values;
    const sessionOf = new Map<string, { country: string; browser: string }>();
    for (let day = Date.parse('2025-05-26') / DAY_MS; day <= Date.parse('2025-06-01') / DAY_MS; day++) {
      const batch = traffic.derived(revenueDerivation, website, day);
      const sessions = traffic.sessions(website, day);
      for (let j = 0; j < batch.count; j++) {
        const i = batch.sample[j] as number;
        sessionOf.set(transactionIdOf(batch, j), {
          country: country[sessions.dims.country[i] as number] ?? '',
          browser: browser[sessions.dims.browser_name[i] as number] ?? '',
        });
      }
    }
    for (const row of rows) {
      const session = sessionOf.get(row.transaction_id as string);
      expect(session, row.transaction_id as string).toBeDefined();
      if (row.is_attributed === 1) {
        expect(row.country).toBe(session?.country || 'Unknown');
        expect(row.browser_name).toBe(session?.browser || 'Unknown');
      } else {
        expect(row.country).toBe('Unattributed');
      }
    }
    const created = rows.map((r) => r.created as string);
    expect(created).toEqual([...created].sort().reverse());
  });
});

describe('revenue filters and limits', () => {
  const sim = freshSimulator({ profile: 'live' });

  it('a country filter narrows the overview to that country and drops unattributed revenue', async () => {
    const all = await rowsFor(sim, 'revenue_by_country', { ...WEEK, limit: 1000 }, STORE);
    const filters = [{ field: 'country', op: 'eq', value: 'US' }];
    const answer = await runQuery(sim, { parameters: ['revenue_overview', 'revenue_attribution_overview'], ...WEEK, filters }, STORE);
    const overview = rowsOf(answer, 'revenue_overview');
    expect(perCurrency(overview, 'total_revenue')).toEqual(perCurrency(all.filter((r) => r.name === 'US'), 'revenue'));
    expect(rowsOf(answer, 'revenue_attribution_overview').map((r) => r.name)).not.toContain('Unattributed');
  });

  it('a currency filter keeps that currency only', async () => {
    const rows = await rowsFor(sim, 'revenue_by_provider', { ...WEEK, filters: [{ field: 'currency', op: 'eq', value: 'EUR' }] }, STORE);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.currency))).toEqual(new Set(['EUR']));
  });

  it('payment diagnostics are reported only when the filters keep Stripe', async () => {
    const [stripe] = await rowsFor(sim, 'revenue_overview', { ...WEEK, filters: [{ field: 'provider', op: 'eq', value: 'stripe' }] }, STORE);
    expect(stripe?.payment_diagnostics_available).toBe(1);
    expect(stripe?.required_failure_event_types).toBe(2);
    expect(typeof stripe?.failed_payment_attempts).toBe('number');
    const [paddle] = await rowsFor(sim, 'revenue_overview', { ...WEEK, filters: [{ field: 'provider', op: 'eq', value: 'paddle' }] }, STORE);
    expect(paddle?.payment_diagnostics_available).toBe(0);
    expect(paddle?.failed_payment_attempts).toBeNull();
    expect(paddle?.payment_failure_rate).toBeNull();
  });

  it('breakdowns apply their own default limit, and the request limit replaces it', async () => {
    const answer = await runQuery(sim, { parameters: ['revenue_by_city', 'revenue_by_browser', 'recent_transactions'], startDate: '2025-05-01', endDate: '2025-06-01' }, STORE);
    expect(rowsOf(answer, 'revenue_by_city')).toHaveLength(20);
    expect(rowsOf(answer, 'revenue_by_browser').length).toBeLessThanOrEqual(10);
    expect(rowsOf(answer, 'recent_transactions')).toHaveLength(50);
    expect(await rowsFor(sim, 'revenue_by_city', { ...WEEK, limit: 3 }, STORE)).toHaveLength(3);
  });

  it('has no transaction after now', async () => {
    const startMs = Date.UTC(2025, 5, 2, 9, 30);
    const early = freshSimulator({ startMs, profile: 'live' });
    const series = await rowsFor(early, 'revenue_time_series', { startDate: '2025-06-02', endDate: '2025-06-02', granularity: 'hourly' }, STORE);
    expect(series.length).toBeGreaterThan(0);
    for (const date of series.map((r) => r.date as string)) expect(date <= '2025-06-02 09:00:00').toBe(true);
    const recent = await rowsFor(early, 'recent_transactions', { startDate: '2025-06-02', endDate: '2025-06-02' }, STORE);
    for (const row of recent) expect(Date.parse(`${(row.created as string).replace(' ', 'T')}Z`)).toBeLessThan(startMs);
  });
});
