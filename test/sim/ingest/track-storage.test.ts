import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';
import { event, NOW, queryRows, RESTRICTED_TRACK_KEY, rowOf, track, trackSimulator } from './support.js';

const DAY = { startDate: '2025-06-02', endDate: '2025-06-02' };
const AT = (hour: number, minute = 0) => Date.UTC(2025, 5, 2, hour, minute);

describe('tracked events in the custom-event queries', () => {
  it('appear in custom_events of their website and day, beside the seeded events', async () => {
    const sim = freshSimulator();
    const read = secretOf(sim, 'key_acme_read');
    const before = await queryRows(sim, read, { website_id: 'web_acme_store' }, DAY);
    expect(before.length).toBeGreaterThan(0);

    const sent = await track(
      sim,
      [
        event('checkout_done', { timestamp: AT(9, 15), anonymousId: 'u1', sessionId: 's1' }),
        event('checkout_done', { timestamp: AT(10, 30), anonymousId: 'u1', sessionId: 's2' }),
        event('checkout_done', { timestamp: AT(11, 45), anonymousId: 'u2', sessionId: 's3' }),
      ],
      { key: secretOf(sim, 'key_acme_track'), query: { website_id: 'web_acme_store' } },
    );
    expect(sent.status).toBe(200);

    const after = await queryRows(sim, read, { website_id: 'web_acme_store' }, DAY);
    expect(rowOf(after, 'checkout_done')).toMatchObject({
      total_events: 3,
      unique_users: 2,
      unique_sessions: 3,
      first_occurrence: '2025-06-02 09:15:00.000',
      last_occurrence: '2025-06-02 11:45:00.000',
    });
    // The seeded rows are still there, and the percentages are shares of the users of all rows.
    expect(after).toHaveLength(before.length + 1);
    const total = after.reduce((sum, r) => sum + r.total_events, 0);
    expect(total).toBe(before.reduce((sum, r) => sum + r.total_events, 0) + 3);
    const users = after.reduce((sum, r) => sum + r.unique_users, 0);
    expect(rowOf(after, 'checkout_done')?.percentage).toBe(Math.round((2 / users) * 10_000) / 100);
  });

  it('adds to a seeded event of the same name', async () => {
    const sim = freshSimulator();
    const read = secretOf(sim, 'key_acme_read');
    const seeded = (await queryRows(sim, read, { website_id: 'web_acme_store' }, DAY))[0];
    expect(seeded).toBeDefined();
    const name = seeded?.name as string;
    await track(sim, [event(name), event(name)], { query: { website_id: 'web_acme_store' } });
    const merged = rowOf(await queryRows(sim, read, { website_id: 'web_acme_store' }, DAY), name);
    expect(merged?.total_events).toBe((seeded?.total_events ?? 0) + 2);
    // Events without an anonymousId or profileId add no user.
    expect(merged?.unique_users).toBe(seeded?.unique_users ?? 0);
  });

  it('stay out of other websites, other days and other organizations', async () => {
    const sim = freshSimulator();
    await track(sim, event('only_docs', { timestamp: AT(8) }), { query: { website_id: 'web_acme_docs' } });
    const read = secretOf(sim, 'key_acme_read');
    expect(rowOf(await queryRows(sim, read, { website_id: 'web_acme_docs' }, DAY), 'only_docs')?.total_events).toBe(1);
    expect(rowOf(await queryRows(sim, read, { website_id: 'web_acme_store' }, DAY), 'only_docs')).toBeUndefined();
    expect(rowOf(await queryRows(sim, read, { website_id: 'web_acme_docs' }, { startDate: '2025-06-01', endDate: '2025-06-01' }), 'only_docs')).toBeUndefined();
    expect(rowOf(await queryRows(sim, read, { website_id: 'web_acme_docs' }, { startDate: '2025-06-03', endDate: '2025-06-09' }), 'only_docs')).toBeUndefined();
    expect(rowOf(await queryRows(sim, secretOf(sim, 'key_globex_read'), {}, DAY), 'only_docs')).toBeUndefined();
    // The organization scope holds its websites' events.
    expect(rowOf(await queryRows(sim, read, { organization_id: 'org_acme' }, DAY), 'only_docs')?.total_events).toBe(1);
  });

  it('fall in the time-zone bucket of the request', async () => {
    const sim = freshSimulator();
    sim.clock.advance(12 * 3_600_000);
    const read = secretOf(sim, 'key_acme_read');
    // Dates of the range are UTC days; buckets are days of the request's time zone.
    const tokyo = { website_id: 'web_acme_www', timezone: 'Asia/Tokyo' };
    type TrendRow = { date: string; total_events: number };
    const before = await queryRows<TrendRow>(sim, read, tokyo, DAY, 'custom_events_trends');
    expect((await track(sim, [event('late_night', { timestamp: AT(23, 30) })], { query: { website_id: 'web_acme_www' } })).status).toBe(200);
    expect(rowOf(await queryRows(sim, read, { website_id: 'web_acme_www' }, DAY), 'late_night')).toBeDefined();
    const after = await queryRows<TrendRow>(sim, read, tokyo, DAY, 'custom_events_trends');
    // 23:30 UTC on June 2 is 08:30 on June 3 in Tokyo.
    expect(after.map((r) => r.date)).toEqual(['2025-06-02', '2025-06-03']);
    expect(after[0]).toEqual(before[0]);
    expect(after[1]?.total_events).toBe((before[1]?.total_events ?? 0) + 1);
  });

  it('count no user for an event without anonymousId or profileId, and no session without sessionId', async () => {
    const sim = freshSimulator();
    await track(sim, [event('anon'), event('anon'), event('anon', { anonymousId: 'u', sessionId: 's' }), event('anon', { anonymousId: 'u', sessionId: 's' })], {
      query: { website_id: 'web_acme_labs' },
    });
    const row = rowOf(await queryRows(sim, secretOf(sim, 'key_acme_read'), { website_id: 'web_acme_labs' }, DAY), 'anon');
    expect(row).toMatchObject({ total_events: 4, unique_users: 1, unique_sessions: 1 });
  });

  it('appear in custom_events_trends by day and in custom_events_trends_by_event by hour', async () => {
    const sim = freshSimulator();
    const read = secretOf(sim, 'key_acme_read');
    const ids = { website_id: 'web_acme_labs' };
    const range = { startDate: '2025-06-01', endDate: '2025-06-02' };
    type TrendRow = { date: string; total_events: number; unique_users: number };
    const before = await queryRows<TrendRow>(sim, read, ids, range, 'custom_events_trends');
    await track(sim, [event('t', { timestamp: AT(10, 5), anonymousId: 'u1' }), event('t', { timestamp: AT(10, 50), anonymousId: 'u1' }), event('t', { timestamp: AT(11, 0) })], {
      query: ids,
    });
    const daily = await queryRows<TrendRow>(sim, read, ids, range, 'custom_events_trends');
    expect(daily.map((r) => r.date)).toEqual(['2025-06-01', '2025-06-02']);
    expect(daily[0]).toEqual(before[0]);
    expect(daily[1]?.total_events).toBe((before[1]?.total_events ?? 0) + 3);
    // The event without an anonymousId adds no user.
    expect(daily[1]?.unique_users).toBe((before[1]?.unique_users ?? 0) + 1);

    type EventTrendRow = { date: string; event_name: string; total_events: number };
    const hourly = await queryRows<EventTrendRow>(sim, read, ids, { ...DAY, granularity: 'hourly', filters: [{ field: 'event_name', op: 'eq', value: 't' }] }, 'custom_events_trends_by_event');
    expect(hourly.map((r) => [r.date, r.event_name, r.total_events])).toEqual([
      ['2025-06-02 10:00:00', 't', 2],
      ['2025-06-02 11:00:00', 't', 1],
    ]);
  });

  it('answer the event filters: event_name, anonymous_id, session_id, profile_id and path', async () => {
    const sim = freshSimulator();
    await track(
      sim,
      [
        event('f', { anonymousId: 'alice', sessionId: 's1', profileId: 'p1', path: '/pricing' }),
        event('f', { anonymousId: 'bob', sessionId: 's2', path: '/docs/start' }),
        event('g', { anonymousId: 'alice' }),
      ],
      { query: { website_id: 'web_acme_store' } },
    );
    const read = secretOf(sim, 'key_acme_read');
    const rows = (field: string, op: string, value: unknown) =>
      queryRows(sim, read, { website_id: 'web_acme_store' }, { ...DAY, filters: [{ field, op, value }] });
    expect((await rows('anonymous_id', 'eq', 'alice')).map((r) => [r.name, r.total_events])).toEqual([
      ['f', 1],
      ['g', 1],
    ]);
    expect((await rows('session_id', 'in', ['s1', 's2'])).map((r) => r.total_events)).toEqual([2]);
    expect((await rows('profile_id', 'eq', 'p1')).map((r) => r.name)).toEqual(['f']);
    expect(rowOf(await rows('path', 'starts_with', '/docs'), 'f')?.total_events).toBe(1);
    expect(rowOf(await rows('event_name', 'eq', 'g'), 'g')?.total_events).toBe(1);
    expect(await rows('event_name', 'in', ['g', 'f'])).toHaveLength(2);
    // Fields a tracked event does not carry are empty: a country filter leaves it out.
    expect(rowOf(await rows('country', 'eq', 'US'), 'f')).toBeUndefined();
  });

  it('keep organization-level events in the organization scope only', async () => {
    const sim = freshSimulator();
    await track(sim, [event('org_wide'), event('org_wide')], { key: secretOf(sim, 'key_acme_track') });
    const read = secretOf(sim, 'key_acme_read');
    expect(rowOf(await queryRows(sim, read, { organization_id: 'org_acme' }, DAY), 'org_wide')?.total_events).toBe(2);
    expect(rowOf(await queryRows(sim, read, {}, DAY), 'org_wide')?.total_events).toBe(2);
    for (const website of ['web_acme_www', 'web_acme_store', 'web_acme_blog']) {
      expect(rowOf(await queryRows(sim, read, { website_id: website }, DAY), 'org_wide')).toBeUndefined();
    }
    expect(rowOf(await queryRows(sim, secretOf(sim, 'key_globex_read'), {}, DAY), 'org_wide')).toBeUndefined();
  });

  it('show in a public website’s custom events without a key', async () => {
    const sim = freshSimulator();
    await track(sim, event('public_click'), { query: { website_id: 'web_acme_blog' } });
    const answer = await call(sim, 'POST', '/v1/query', { query: { website_id: 'web_acme_blog' }, body: { parameters: ['custom_events'], ...DAY } });
    expect(answer.status).toBe(200);
    expect(rowOf(answer.json.data[0].data, 'public_click')?.total_events).toBe(1);
  });

  it('reach a website-restricted key’s own websites', async () => {
    const sim = trackSimulator();
    await track(sim, event('restricted', { websiteId: 'web_acme_store' }), { key: RESTRICTED_TRACK_KEY.secret });
    const rows = await queryRows(sim, secretOf(sim, 'key_acme_store_only'), { website_id: 'web_acme_store' }, DAY);
    expect(rowOf(rows, 'restricted')?.total_events).toBe(1);
  });

  it('show up at once in a query that was answered (and cached) before they arrived', async () => {
    const sim = freshSimulator();
    const read = secretOf(sim, 'key_acme_read');
    const ids = { website_id: 'web_acme_www' };
    const first = await queryRows(sim, read, ids, DAY);
    expect(await queryRows(sim, read, ids, DAY)).toEqual(first);
    await track(sim, event('fresh'), { query: ids });
    expect(rowOf(await queryRows(sim, read, ids, DAY), 'fresh')?.total_events).toBe(1);
    await track(sim, event('fresh'), { query: ids });
    expect(rowOf(await queryRows(sim, read, ids, DAY), 'fresh')?.total_events).toBe(2);
  });

  it('get the arrival time when they carry no timestamp, on the simulator clock', async () => {
    const sim = freshSimulator();
    sim.clock.advance(90 * 60_000);
    await track(sim, { name: 'untimed' }, { query: { website_id: 'web_acme_www' } });
    // Queries read up to the last whole minute before now.
    sim.clock.advance(60_000);
    const row = rowOf(await queryRows(sim, secretOf(sim, 'key_acme_read'), { website_id: 'web_acme_www' }, DAY), 'untimed');
    expect(row?.first_occurrence).toBe('2025-06-02 13:30:00.000');
    expect(NOW + 90 * 60_000).toBe(AT(13, 30));
  });
});

describe('the event store', () => {
  it('is emptied by reset: the queries answer the seed again', async () => {
    const sim = freshSimulator();
    const read = secretOf(sim, 'key_acme_read');
    const seed = await queryRows(sim, read, { website_id: 'web_acme_store' }, DAY);
    await track(sim, event('before_reset'), { query: { website_id: 'web_acme_store' } });
    expect(rowOf(await queryRows(sim, read, { website_id: 'web_acme_store' }, DAY), 'before_reset')).toBeDefined();
    await sim.reset();
    expect(await queryRows(sim, secretOf(sim, 'key_acme_read'), { website_id: 'web_acme_store' }, DAY)).toEqual(seed);
  });

  it('is emptied by POST /__sim/reset too', async () => {
    const sim = freshSimulator();
    await track(sim, event('before_reset'), { query: { website_id: 'web_acme_www' } });
    expect((await call(sim, 'POST', '/__sim/reset', { body: {} })).status).toBe(200);
    const rows = await queryRows(sim, secretOf(sim, 'key_acme_read'), { website_id: 'web_acme_www' }, DAY);
    expect(rowOf(rows, 'before_reset')).toBeUndefined();
  });

  it('refuses a request whose events do not all fit with 503 EVENT_STORAGE_FULL, and keeps everything it accepted', async () => {
    const sim = freshSimulator({ eventStorage: { maxEvents: 5 } });
    const ids = { website_id: 'web_acme_www' };
    expect((await track(sim, [event('kept'), event('kept'), event('kept')], { query: ids })).status).toBe(200);
    const full = await track(sim, [event('dropped'), event('dropped'), event('dropped')], { query: ids });
    expect(full.status).toBe(503);
    expect(full.json).toMatchObject({ success: false, code: 'EVENT_STORAGE_FULL', error: 'Event storage is full', requestId: full.headers['X-Request-ID'] });
    expect(full.json.hint).toContain('at most 5 events');
    expect((await track(sim, [event('kept'), event('kept')], { query: ids })).status).toBe(200);
    expect((await track(sim, event('dropped'), { query: ids })).status).toBe(503);

    const rows = await queryRows(sim, secretOf(sim, 'key_acme_read'), ids, DAY);
    expect(rowOf(rows, 'kept')?.total_events).toBe(5);
    expect(rowOf(rows, 'dropped')).toBeUndefined();

    await sim.reset();
    expect((await track(sim, [event('again'), event('again')], { query: ids })).status).toBe(200);
  });

  it('bounds the text it keeps as well as the count', async () => {
    const sim = freshSimulator({ eventStorage: { maxChars: 1000 } });
    const ids = { website_id: 'web_acme_www' };
    expect((await track(sim, event('small', { properties: { note: 'x'.repeat(400) } }), { query: ids })).status).toBe(200);
    const full = await track(sim, event('large', { properties: { note: 'x'.repeat(700) } }), { query: ids });
    expect(full.status).toBe(503);
    expect(full.json.code).toBe('EVENT_STORAGE_FULL');
    expect((await track(sim, event('tiny'), { query: ids })).status).toBe(200);
  });
});
