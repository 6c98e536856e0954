import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';
import { rowsFor, rowsOf, runQuery, STORE, sumOf, type Row } from './support.js';

const REALTIME = ['realtime_pages', 'realtime_referrers', 'realtime_countries', 'realtime_cities', 'realtime_feed', 'realtime_sessions', 'realtime_velocity'];

/** Epoch ms of a `YYYY-MM-DD HH:MM:SS[.mmm]` UTC text. */
const msOf = (text: unknown): number => Date.parse(`${(text as string).replace(' ', 'T')}Z`);

describe.each([
  [42, Date.UTC(2025, 5, 2, 12, 0)],
  [7, Date.UTC(2025, 5, 3, 0, 2, 30)],
])('realtime with seed %i', (seed, now) => {
  const sim = freshSimulator({ seed, startMs: now, profile: 'live' });
  const ask = (filters: unknown[] = []): ReturnType<typeof runQuery> =>
    runQuery(sim, { parameters: REALTIME, startDate: '2025-01-01', endDate: '2025-01-02', filters, limit: 500 }, STORE);

  it('reads the last minutes before now whatever the date range', async () => {
    const answer = await ask();
    for (const row of rowsOf(answer, 'realtime_feed')) {
      expect(msOf(row.timestamp)).toBeLessThanOrEqual(now);
      expect(msOf(row.timestamp)).toBeGreaterThanOrEqual(now - 2 * 60_000);
    }
    const sessions = rowsOf(answer, 'realtime_sessions');
    expect(sessions.length).toBeGreaterThan(0);
    for (const row of sessions) {
      expect(msOf(row.last_seen)).toBeLessThanOrEqual(now);
      expect(msOf(row.last_seen)).toBeGreaterThanOrEqual(now - 5 * 60_000);
    }
    const minutes = rowsOf(answer, 'realtime_velocity').map((r) => msOf(r.minute));
    expect(minutes.length).toBeGreaterThan(0);
    expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
    for (const minute of minutes) {
      expect(minute).toBeLessThanOrEqual(now);
      expect(minute).toBeGreaterThanOrEqual(Math.floor((now - 60 * 60_000) / 60_000) * 60_000);
    }
  });

  it('no page has more visitors than are active, nor more visitors than pageviews', async () => {
    const answer = await ask();
    const active = sumOf(rowsOf(answer, 'realtime_countries'), 'visitors');
    expect(active).toBeGreaterThan(0);
    for (const row of rowsOf(answer, 'realtime_pages')) {
      expect(row.visitors as number).toBeLessThanOrEqual(active);
      expect(row.visitors as number).toBeLessThanOrEqual(row.pageviews as number);
    }
    expect(sumOf(rowsOf(answer, 'realtime_cities'), 'visitors')).toBe(active);
  });

  it('the feed and the sessions list tell of the same sessions', async () => {
    const answer = await ask();
    const sessions = rowsOf(answer, 'realtime_sessions');
    expect(sessions.length).toBeLessThanOrEqual(20);
    const lastSeen = sessions.map((r) => msOf(r.last_seen));
    expect(lastSeen).toEqual([...lastSeen].sort((a, b) => b - a));
    const feed = rowsOf(answer, 'realtime_feed');
    const recent = sessions.filter((r) => msOf(r.last_seen) >= now - 2 * 60_000);
    for (const session of recent) {
      expect(feed.some((e: Row) => e.timestamp === session.last_seen && e.path === session.current_page && e.country === session.country)).toBe(true);
    }
  });
});

describe('realtime filters', () => {
  const sim = freshSimulator({ profile: 'live' });

  it('the tables honour the global filters; referrers, sessions and velocity ignore them', async () => {
    const all = await runQuery(sim, { parameters: REALTIME, startDate: '2025-06-01', endDate: '2025-06-02' }, STORE);
    const [top] = rowsOf(all, 'realtime_countries');
    expect(top).toBeDefined();
    const filters = [{ field: 'country', op: 'eq', value: top?.name }];
    const narrowed = await runQuery(sim, { parameters: REALTIME, startDate: '2025-06-01', endDate: '2025-06-02', filters }, STORE);
    expect(rowsOf(narrowed, 'realtime_countries')).toEqual([top]);
    for (const row of rowsOf(narrowed, 'realtime_feed')) expect(row.country).toBe(top?.name);
    for (const type of ['realtime_referrers', 'realtime_sessions', 'realtime_velocity']) {
      expect(rowsOf(narrowed, type), type).toEqual(rowsOf(all, type));
    }
  });

  it('realtime_referrers takes the request limit, realtime_sessions keeps its literal 20', async () => {
    expect((await rowsFor(sim, 'realtime_referrers', { preset: 'today', limit: 1 }, STORE)).length).toBe(1);
    const sessions = await rowsFor(sim, 'realtime_sessions', { preset: 'today', limit: 1 }, STORE);
    expect(sessions.length).toBeGreaterThan(1);
  });

  it('an event tracked a minute ago shows in the feed and in the velocity of its minute', async () => {
    const now = Date.UTC(2025, 5, 2, 12, 0);
    const live = freshSimulator({ startMs: now, profile: 'live' });
    const at = now - 60_000;
    const tracked = await call(live, 'POST', '/track', {
      key: secretOf(live, 'key_acme_track'),
      headers: { 'user-agent': 'node' }, // Node's fetch: the live profile blocks a request without a User-Agent
      query: { website_id: 'web_acme_store' },
      body: { name: 'plan_upgraded', timestamp: at, anonymousId: 'anon_test', sessionId: 'sess_test', path: '/pricing' },
    });
    expect(tracked.status).toBe(200);
    const before = await rowsFor(sim, 'realtime_velocity', { preset: 'today' }, STORE);
    const answer = await runQuery(live, { parameters: ['realtime_feed', 'realtime_velocity'], preset: 'today' }, STORE);
    expect(rowsOf(answer, 'realtime_feed')).toContainEqual({ event_name: 'plan_upgraded', path: '/pricing', country: '', browser_name: '', timestamp: '2025-06-02 11:59:00.000' });
    const minute = (rows: readonly Row[]): Row | undefined => rows.find((r) => r.minute === '2025-06-02 11:59:00');
    expect(minute(rowsOf(answer, 'realtime_velocity'))?.events).toBe(((minute(before)?.events as number | undefined) ?? 0) + 1);
  });
});
