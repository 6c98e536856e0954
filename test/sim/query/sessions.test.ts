import { describe, expect, it } from 'vitest';
import { freshSimulator } from '../../helpers/sim.js';
import { outcomesOf, rowsOf, runQuery, STORE, sumOf, type Row } from './support.js';

const DAY = { startDate: '2025-05-28', endDate: '2025-05-28' };
const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };

const byVisitor = (id: string) => [{ field: 'anonymous_id', op: 'eq', value: id }];

describe.each([42, 7])('the sessions family with seed %i', (seed) => {
  const sim = freshSimulator({ seed, profile: 'live' });
  const day = runQuery(
    sim,
    {
      parameters: ['session_metrics', 'sessions_by_device', 'sessions_by_browser', 'session_duration_distribution', 'sessions_time_series', 'session_list', 'summary_metrics'],
      ...DAY,
      limit: 10000,
    },
    STORE,
  );

  it('splits the session_metrics sessions exactly by device', async () => {
    const res = await day;
    const [metrics] = rowsOf(res, 'session_metrics');
    expect(metrics?.total_sessions).toBeGreaterThan(0);
    expect(sumOf(rowsOf(res, 'sessions_by_device'), 'sessions')).toBe(metrics?.total_sessions);
    expect(sumOf(rowsOf(res, 'sessions_by_browser'), 'sessions')).toBeLessThanOrEqual(metrics?.total_sessions as number);
  });

  it('gives one day of sessions_time_series the session_metrics sessions of that day', async () => {
    const res = await day;
    const series = rowsOf(res, 'sessions_time_series');
    const [metrics] = rowsOf(res, 'session_metrics');
    expect(series.find((r) => r.date === DAY.startDate)?.sessions).toBe(metrics?.total_sessions);
  });

  it('buckets every session in some time-on-page range, and no range holds more than every session', async () => {
    const res = await day;
    const total = rowsOf(res, 'session_metrics')[0]?.total_sessions as number;
    const ranges = rowsOf(res, 'session_duration_distribution');
    // Live buckets each pageview's time on page: a session with pages of several lengths is in several ranges.
    expect(sumOf(ranges, 'sessions')).toBeGreaterThanOrEqual(total);
    for (const r of ranges) expect(r.sessions).toBeLessThanOrEqual(total);
    expect(ranges.map((r) => r.sessions)).toEqual([...ranges.map((r) => r.sessions as number)].sort((a, b) => b - a));
  });

  it('lists every session of the day, whose pageviews scale to the top-line pageviews by the same sample weight', async () => {
    const res = await day;
    const list = rowsOf(res, 'session_list');
    const total = rowsOf(res, 'session_metrics')[0]?.total_sessions as number;
    const weight = total / list.length;
    expect(Number.isInteger(weight)).toBe(true);
    expect(sumOf(list, 'page_views') * weight).toBe(sumOf(rowsOf(res, 'summary_metrics'), 'pageviews'));
    expect(new Set(list.map((r) => r.session_id)).size).toBe(list.length);
  });

  it('narrows to one visitor with an anonymous_id filter, counting that visitor once per session', async () => {
    const list = rowsOf(await day, 'session_list');
    const visitor = (list[0] as Row).visitor_id as string;
    const res = await runQuery(sim, { parameters: ['session_list', 'session_metrics', 'sessions_by_device', 'session_pages'], ...WEEK, limit: 1000, filters: byVisitor(visitor) }, STORE);
    const own = rowsOf(res, 'session_list');
    expect(own.length).toBeGreaterThan(0);
    for (const row of own) expect(row.visitor_id).toBe(visitor);
    expect(rowsOf(res, 'session_metrics')[0]?.total_sessions).toBe(own.length);
    expect(sumOf(rowsOf(res, 'sessions_by_device'), 'sessions')).toBe(own.length);
    expect(Math.max(...rowsOf(res, 'session_pages').map((r) => r.visitors as number))).toBe(1);
  });

  it('narrows every count with a country filter and lists only that country', async () => {
    const res = await runQuery(sim, { parameters: ['session_metrics', 'sessions_by_device', 'session_list'], ...DAY, limit: 10000, filters: [{ field: 'country', op: 'eq', value: 'US' }] }, STORE);
    const [all] = rowsOf(await day, 'session_metrics');
    const [us] = rowsOf(res, 'session_metrics');
    expect(us?.total_sessions).toBeGreaterThan(0);
    expect(us?.total_sessions).toBeLessThan(all?.total_sessions as number);
    expect(sumOf(rowsOf(res, 'sessions_by_device'), 'sessions')).toBe(us?.total_sessions);
    for (const row of rowsOf(res, 'session_list')) expect(row.country_code).toBe('US');
  });

  it('answers session_events with the events of one listed session in time order', async () => {
    const list = rowsOf(await day, 'session_list');
    const listed = list[Math.floor(list.length / 2)] as Row;
    const res = await runQuery(sim, { parameters: ['session_events'], ...DAY, limit: 1000, filters: [{ field: 'session_id', op: 'eq', value: listed.session_id }] }, STORE);
    const events = rowsOf(res, 'session_events');
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e.session_id).toBe(listed.session_id);
    expect(events.map((e) => e.time)).toEqual([...events.map((e) => e.time as string)].sort());
    expect(events.filter((e) => e.event_name === 'screen_view').length).toBe(listed.page_views);
    expect(events.map((e) => e.event_id)).toEqual((listed.events as unknown[][]).map((e) => e[0]));
  });
});

describe('session lists and rankings', () => {
  const sim = freshSimulator({ profile: 'live' });

  it('fails session_events without a session_id filter, as live', async () => {
    const [outcome] = outcomesOf(await runQuery(sim, { parameters: ['session_events'], ...DAY }, STORE));
    expect(outcome?.success).toBe(false);
    expect(outcome?.error).toBe('Query execution failed');
  });

  it('pages session_list newest first: 25 sessions by default, the next page continuing the first', async () => {
    const unpaged = rowsOf(await runQuery(sim, { parameters: ['session_list'], ...DAY }, STORE), 'session_list');
    expect(unpaged).toHaveLength(25);
    const first = rowsOf(await runQuery(sim, { parameters: ['session_list'], ...DAY, limit: 10, page: 1 }, STORE), 'session_list');
    const second = rowsOf(await runQuery(sim, { parameters: ['session_list'], ...DAY, limit: 10, page: 2 }, STORE), 'session_list');
    expect([...first, ...second].map((r) => r.session_id)).toEqual(unpaged.slice(0, 20).map((r) => r.session_id));
    const starts = unpaged.map((r) => r.first_visit as string);
    expect(starts).toEqual([...starts].sort().reverse());
  });

  it('ranks interesting_sessions by score and counts their errors from the same sessions', async () => {
    const rows = rowsOf(await runQuery(sim, { parameters: ['interesting_sessions'], ...WEEK, limit: 50 }, STORE), 'interesting_sessions');
    expect(rows).toHaveLength(50);
    const scores = rows.map((r) => r.interesting_score as number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(rows.some((r) => (r.errors as number) > 0)).toBe(true);
    for (const r of rows) expect((r.paths as string[]).length).toBe(Math.min(12, r.unique_pages as number));
  });

  it('pages interesting_sessions as one ranking: small pages, far pages and one page of every session agree, ties included', async () => {
    const ask = async (limit: number, page: number): Promise<Row[]> =>
      rowsOf(await runQuery(sim, { parameters: ['interesting_sessions'], ...WEEK, limit, page }, STORE), 'interesting_sessions');
    const all = await ask(10000, 1);
    expect(all.length).toBeGreaterThan(1100);
    const scores = all.map((r) => r.interesting_score as number);
    expect(new Set(scores).size).toBeLessThan(scores.length);
    const pages = [...(await ask(7, 1)), ...(await ask(7, 2)), ...(await ask(7, 3))];
    expect(pages).toEqual(all.slice(0, 21));
    expect(await ask(500, 2)).toEqual(all.slice(500, 1000));
    expect(await ask(3, 301)).toEqual(all.slice(900, 903));
  });

  it('caps session_flow at 100 transitions whatever the limit, dropping self-transitions', async () => {
    const rows = rowsOf(await runQuery(sim, { parameters: ['session_flow'], ...WEEK, limit: 5 }, STORE), 'session_flow');
    expect(rows).toHaveLength(100);
    for (const r of rows) {
      expect(r.from_path).not.toBe(r.to_path);
      expect(r.name).toBe(`${r.from_path} → ${r.to_path}`);
      expect(r.sessions).toBeLessThanOrEqual(r.transitions as number);
    }
  });

  it('has no day after now in sessions_time_series and no listed visit after now', async () => {
    const now = Date.UTC(2025, 5, 2, 9, 30);
    const early = freshSimulator({ startMs: now, profile: 'live' });
    const res = await runQuery(early, { parameters: ['sessions_time_series', 'session_list'], startDate: '2025-05-30', endDate: '2025-06-05', limit: 1000 }, STORE);
    const dates = rowsOf(res, 'sessions_time_series').map((r) => r.date as string);
    expect(dates.at(-1)).toBe('2025-06-02');
    for (const row of rowsOf(res, 'session_list')) expect(row.last_visit as string <= '2025-06-02 09:30:00.000').toBe(true);
  });
});
