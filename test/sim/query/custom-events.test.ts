import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';
import { column, rowsFor, STORE, sumOf, type Row } from './support.js';

const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };
const SEEDS = [42, 7];

describe.each(SEEDS)('custom events with seed %i', (seed) => {
  const sim = freshSimulator({ seed });
  const rows = (type: string, body: Record<string, unknown> = {}): Promise<Row[]> => rowsFor(sim, type, { ...WEEK, limit: 10_000, ...body }, STORE);

  it('counts the same events per name, per day and in the summary', async () => {
    const [summary] = await rows('custom_events_summary');
    const total = summary?.total_events as number;
    expect(total).toBeGreaterThan(0);
    expect(sumOf(await rows('custom_events'), 'total_events')).toBe(total);
    expect(sumOf(await rows('custom_events_trends'), 'total_events')).toBe(total);
    expect(sumOf(await rows('custom_events_trends_by_event'), 'total_events')).toBe(total);
  });

  it('lists the names by users, with user shares adding up to about 100', async () => {
    const events = await rows('custom_events');
    const users = column<number>(events, 'unique_users');
    expect(users).toEqual([...users].sort((a, b) => b - a));
    expect(Math.abs(sumOf(events, 'percentage') - 100)).toBeLessThan(0.1);
    for (const event of events) expect(event.events_with_properties as number).toBeLessThanOrEqual(event.total_events as number);
  });

  it('gives property values that agree across the property types and stay within their event', async () => {
    const totals = new Map(
      (await rows('custom_events')).map((r) => [r.name as string, r.total_events as number]),
    );
    const withProperties = new Map((await rows('custom_events')).map((r) => [r.name as string, r.events_with_properties as number]));
    const topValues = await rows('custom_events_property_top_values', { limit: 1000 });
    expect(topValues.length).toBeGreaterThan(0);
    const cardinality = await rows('custom_events_property_cardinality');
    const classification = await rows('custom_events_property_classification');
    for (const row of topValues) {
      expect(row.count as number).toBeLessThanOrEqual(row.total as number);
      expect(row.total as number).toBeLessThanOrEqual(totals.get(row.event_name as string) as number);
      expect(row.total as number).toBeLessThanOrEqual(withProperties.get(row.event_name as string) as number);
    }
    for (const row of cardinality) {
      const values = topValues.filter((v) => v.event_name === row.event_name && v.property_key === row.property_key);
      expect(sumOf(values, 'count')).toBe(row.occurrences);
      expect(values).toHaveLength(row.unique_values as number);
      const classified = classification.find((c) => c.event_name === row.event_name && c.property_key === row.property_key);
      expect(classified?.total_count).toBe(row.occurrences);
      expect(classified?.cardinality).toBe(row.unique_values);
    }
    const properties = await rows('custom_event_properties');
    expect(sumOf(properties, 'count')).toBe(sumOf(cardinality, 'occurrences'));
  });

  it('classifies numbers, booleans and categories as the service does', async () => {
    const classification = await rows('custom_events_property_classification');
    const typeOf = (event: string, key: string) => classification.find((c) => c.event_name === event && c.property_key === key)?.inferred_type;
    expect(typeOf('purchase', 'order_value')).toBe('numeric');
    expect(typeOf('purchase', 'coupon_used')).toBe('boolean');
    expect(typeOf('purchase', 'currency')).toBe('categorical');
  });

  it('lists every event in discovery, with an empty key for events without properties', async () => {
    const discovery = await rows('custom_events_discovery');
    const names = new Set(column<string>(await rows('custom_events'), 'name'));
    expect(new Set(column<string>(discovery, 'event_name'))).toEqual(names);
    const login = discovery.filter((r) => r.event_name === 'login');
    if (login.length > 0) expect(login.map((r) => [r.property_key, r.unique_values, r.top_values])).toEqual([['', 0, []]]);
  });
});

describe('custom events of one website', () => {
  const sim = freshSimulator();
  const rows = (type: string, body: Record<string, unknown> = {}): Promise<Row[]> => rowsFor(sim, type, { ...WEEK, limit: 10_000, ...body }, STORE);

  it('narrows to one visitor with an anonymous_id filter', async () => {
    const [recent] = await rows('custom_events_recent', { limit: 1 });
    const visitor = recent?.anonymous_id as string;
    expect(visitor).toMatch(/^anon_/);
    const filters = [{ field: 'anonymous_id', op: 'eq', value: visitor }];
    const mine = await rows('custom_events', { filters });
    expect(mine.length).toBeGreaterThan(0);
    // One sample stands for `weight` visitors, so the visitor's events count that many.
    const weight = mine[0]?.unique_users as number;
    for (const row of mine) expect(row.unique_users).toBe(weight);
    expect(sumOf(mine, 'total_events')).toBeLessThan(sumOf(await rows('custom_events'), 'total_events'));
  });

  it('narrows to one event name with an event_name filter', async () => {
    const filtered = await rows('custom_events', { filters: [{ field: 'event_name', op: 'eq', value: 'add_to_cart' }] });
    expect(column(filtered, 'name')).toEqual(['add_to_cart']);
  });

  it('pages the recent events with limit and page', async () => {
    const first = await rows('custom_events_recent', { limit: 10 });
    const second = await rows('custom_events_recent', { limit: 5, page: 2 });
    expect(second).toEqual(first.slice(5, 10));
    const times = column<string>(first, 'timestamp');
    expect(times).toEqual([...times].sort().reverse());
  });

  it('cuts the top values of each key at the limit', async () => {
    const top = await rows('custom_events_property_top_values', { limit: 2 });
    expect(Math.max(...column<number>(top, 'rank'))).toBe(2);
  });

  it('shows an event tracked with POST /track in custom_events, its properties and the recent list', async () => {
    const live = freshSimulator();
    const day = { startDate: '2025-06-02', endDate: '2025-06-02', limit: 10_000 };
    const tracked = await call(live, 'POST', '/track', {
      key: secretOf(live, 'key_acme_track'),
      query: { website_id: 'web_acme_store' },
      body: { name: 'plan_upgraded', timestamp: Date.UTC(2025, 5, 2, 9, 0), anonymousId: 'anon_test', sessionId: 'sess_test', properties: { plan: 'team', seats: 5 } },
    });
    expect(tracked.status).toBe(200);
    const events = await rowsFor(live, 'custom_events', day, STORE);
    expect(events.find((r) => r.name === 'plan_upgraded')).toMatchObject({ total_events: 1, unique_users: 1, unique_sessions: 1, events_with_properties: 1 });
    const properties = await rowsFor(live, 'custom_event_properties', { ...day, filters: [{ field: 'event_name', op: 'eq', value: 'plan_upgraded' }] }, STORE);
    expect(properties.map((r) => [r.property_key, r.property_value, r.count]).sort()).toEqual([
      ['plan', 'team', 1],
      ['seats', '5', 1],
    ]);
    const [recent] = await rowsFor(live, 'custom_events_recent', { ...day, filters: [{ field: 'event_name', op: 'eq', value: 'plan_upgraded' }] }, STORE);
    expect(recent).toMatchObject({ event_name: 'plan_upgraded', anonymous_id: 'anon_test', properties: '{"plan":"team","seats":5}', timestamp: '2025-06-02 09:00:00.000' });
  });

  it('answers a tracked event at once even when the same query was answered (and cached) just before it', async () => {
    const live = freshSimulator();
    const day = { startDate: '2025-06-02', endDate: '2025-06-02', limit: 10_000 };
    const before = await rowsFor(live, 'custom_events', day, STORE);
    expect(before.find((r) => r.name === 'plan_upgraded')).toBeUndefined();
    const tracked = await call(live, 'POST', '/track', {
      key: secretOf(live, 'key_acme_track'),
      query: { website_id: 'web_acme_store' },
      body: { name: 'plan_upgraded', timestamp: Date.UTC(2025, 5, 2, 9, 0), anonymousId: 'anon_test' },
    });
    expect(tracked.status).toBe(200);
    const after = await rowsFor(live, 'custom_events', day, STORE);
    expect(after.find((r) => r.name === 'plan_upgraded')).toMatchObject({ total_events: 1 });
  });

  it('has no bucket after now', async () => {
    const startMs = Date.UTC(2025, 5, 2, 9, 30);
    const early = freshSimulator({ startMs });
    const series = await rowsFor(early, 'custom_events_trends_by_event', { startDate: '2025-06-02', endDate: '2025-06-02', granularity: 'hourly' }, STORE);
    expect(series.length).toBeGreaterThan(0);
    for (const date of column<string>(series, 'date')) expect(date <= '2025-06-02 09:00:00').toBe(true);
    const recent = await rowsFor(early, 'custom_events_recent', { startDate: '2025-06-02', endDate: '2025-06-02' }, STORE);
    for (const time of column<string>(recent, 'timestamp')) expect(Date.parse(`${time.replace(' ', 'T')}Z`)).toBeLessThan(startMs);
  });

  it('segments the events by browser, version, OS, device and country, each dimension adding up to the events', async () => {
    const filters = [{ field: 'event_name', op: 'eq', value: 'add_to_cart' }];
    const segments = await rows('custom_event_segments', { filters });
    const [summary] = await rows('custom_events_summary', { filters });
    expect(summary?.total_events as number).toBeGreaterThan(0);
    for (const dimension of ['browser', 'browser_version', 'os', 'device', 'country']) {
      expect(sumOf(segments.filter((s) => s.dimension === dimension), 'events')).toBe(summary?.total_events);
    }
  });
});
