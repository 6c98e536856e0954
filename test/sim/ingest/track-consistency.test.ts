import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

describe('tracked events across query types', () => {
  it('adds tracked events to summary_metrics and session_metrics totals as custom_events counts them', async () => {
    const sim = freshSimulator();
    const read = secretOf(sim, 'key_acme_read');
    const range = { startDate: '2025-06-02', endDate: '2025-06-02' };
    const totals = async () => {
      const answer = await call(sim, 'POST', '/v1/query', {
        key: read,
        query: { website_id: 'web_acme_www' },
        body: { parameters: ['summary_metrics', 'session_metrics', 'custom_events'], ...range, limit: 1000 },
      });
      const [summary, sessions, events] = answer.json.data;
      return {
        summary: summary.data.reduce((sum: number, row: { total_events: number }) => sum + row.total_events, 0),
        sessions: sessions.data[0].total_events as number,
        events: events.data.reduce((sum: number, row: { total_events: number }) => sum + row.total_events, 0),
      };
    };
    const before = await totals();
    expect(before.summary).toBe(before.events);
    const batch = Array.from({ length: 50 }, (_, i) => ({ name: 'checkout', timestamp: Date.UTC(2025, 5, 2, 10, i) }));
    const tracked = await call(sim, 'POST', '/track', { key: secretOf(sim, 'key_acme_track'), query: { website_id: 'web_acme_www' }, body: batch });
    expect(tracked.json).toEqual({ status: 'success', type: 'custom_event', count: 50 });
    const after = await totals();
    expect(after.events).toBe(before.events + 50);
    expect(after.summary).toBe(after.events);
    expect(after.sessions).toBe(before.sessions + 50);
  });
});

describe('tracked events in time buckets', () => {
  it('adds each tracked event to the hour it falls in, in a zone 45 minutes off UTC, whatever order the events arrived in', async () => {
    const sim = freshSimulator();
    const read = secretOf(sim, 'key_acme_read');
    const hourly = async () => {
      const answer = await call(sim, 'POST', '/v1/query', {
        key: read,
        query: { website_id: 'web_acme_www', timezone: 'Asia/Kathmandu' },
        body: { parameters: ['summary_metrics'], startDate: '2025-06-02', endDate: '2025-06-02', granularity: 'hourly', limit: 1000 },
      });
      expect(answer.status).toBe(200);
      return new Map((answer.json.data[0].data as { date: string; total_events: number }[]).map((row) => [row.date, row.total_events]));
    };
    const before = await hourly();
    // Out of order, on quarter-hour edges and at the last millisecond before the clock's minute.
    const times = [
      Date.UTC(2025, 5, 2, 11, 59, 59, 999),
      Date.UTC(2025, 5, 2, 0, 15),
      Date.UTC(2025, 5, 2, 0, 14, 59, 999),
      Date.UTC(2025, 5, 2, 6, 30),
      Date.UTC(2025, 5, 2, 0, 15),
      Date.UTC(2025, 5, 2, 3, 44, 59, 999),
      Date.UTC(2025, 5, 2, 3, 45),
      Date.UTC(2025, 5, 2, 0, 0),
    ];
    const tracked = await call(sim, 'POST', '/track', {
      key: secretOf(sim, 'key_acme_track'),
      query: { website_id: 'web_acme_www' },
      body: times.map((timestamp) => ({ name: 'bucketed', timestamp })),
    });
    expect(tracked.status).toBe(200);
    const expected = new Map<string, number>();
    for (const t of times) {
      const label = `${new Date(t + 345 * 60_000).toISOString().slice(0, 13).replace('T', ' ')}:00:00`;
      expected.set(label, (expected.get(label) ?? 0) + 1);
    }
    const after = await hourly();
    const added: Record<string, number> = {};
    for (const [date, total] of after) if (total !== (before.get(date) ?? 0)) added[date] = total - (before.get(date) ?? 0);
    expect(added).toEqual(Object.fromEntries(expected));
    expect(expected.get('2025-06-02 05:00:00')).toBe(2);
    expect(expected.get('2025-06-02 06:00:00')).toBe(2);
  });
});

describe('custom events and their properties tracked between two queries of the same range', () => {
  const TYPES = ['custom_events', 'custom_events_by_path', 'custom_events_trends', 'custom_events_summary', 'custom_event_properties', 'custom_events_property_cardinality', 'custom_events_property_top_values', 'session_metrics'];
  const RANGE = { startDate: '2025-05-30', endDate: '2025-06-02', limit: 1000 };
  /** Events with and without users, sessions, pages (one a generated page) and properties, some backdated. */
  const events = (from: number) =>
    Array.from({ length: 30 }, (_, i) => ({
      name: ['signup', 'checkout', 'cart_add'][i % 3],
      timestamp: Date.UTC(2025, 5, 2, 11, 0) - (i % 4) * 86_400_000 - (from + i) * 60_000,
      ...(i % 2 === 0 ? { anonymousId: `anon_${(from + i) % 7}` } : {}),
      ...(i % 3 === 0 ? { sessionId: `sess_${(from + i) % 5}` } : {}),
      ...(i % 5 === 0 ? { path: i % 2 === 0 ? '/' : `/tracked/${i}` } : {}),
      ...(i % 4 === 0 ? { properties: { plan: `p${i % 3}` } } : {}),
    }));
  const answer = async (sim: ReturnType<typeof freshSimulator>, filters: unknown[] = []) => {
    const res = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { website_id: 'web_acme_www' }, body: { parameters: TYPES, ...RANGE, filters } });
    expect(res.status).toBe(200);
    return res.json.data;
  };
  const track = async (sim: ReturnType<typeof freshSimulator>, body: unknown[]) => {
    const res = await call(sim, 'POST', '/track', { key: secretOf(sim, 'key_acme_track'), query: { website_id: 'web_acme_www' }, body });
    expect(res.status).toBe(200);
  };

  it.each([
    ['no filter', []],
    ['a filter on the event name', [{ field: 'event_name', op: 'in', value: ['signup', 'checkout'] }]],
  ])('answers, with %s, what a simulator that had every event before its first query answers', async (_name, filters) => {
    const stepwise = freshSimulator();
    await answer(stepwise, filters);
    await track(stepwise, events(0));
    await answer(stepwise, filters);
    await track(stepwise, events(100));
    const folded = await answer(stepwise, filters);

    const whole = freshSimulator();
    await track(whole, [...events(0), ...events(100)]);
    expect(folded).toEqual(await answer(whole, filters));
  });

  it('adds tracked property values to the generated ones of the same event and key', async () => {
    const all = [...events(0), ...events(100)];
    const signupPlans = all.filter((e) => e.name === 'signup' && e.properties !== undefined).length;
    const byType = (data: { parameter: string; data: Record<string, unknown>[] }[], type: string) => data.find((d) => d.parameter === type)?.data ?? [];
    const occurrences = (data: { parameter: string; data: Record<string, unknown>[] }[]) =>
      byType(data, 'custom_events_property_cardinality').find((row) => row.event_name === 'signup' && row.property_key === 'plan')?.occurrences as number;
    const untouched = await answer(freshSimulator());
    const sim = freshSimulator();
    await answer(sim);
    await track(sim, all);
    const after = await answer(sim);
    expect(signupPlans).toBeGreaterThan(0);
    expect(occurrences(after)).toBe(occurrences(untouched) + signupPlans);
    const tracked = byType(after, 'custom_event_properties').filter((row) => /^p\d$/.test(row.property_value as string));
    expect(tracked.reduce((sum, row) => sum + (row.count as number), 0)).toBe(signupPlans + all.filter((e) => e.name !== 'signup' && e.properties !== undefined).length);
  });
});

describe('hostile and extreme input on ingestion and sign-in', () => {
  it('answers deeply nested properties with 400 INVALID_EVENT_SCHEMA, not a crash', async () => {
    const sim = freshSimulator();
    const deep = `{"name":"x","properties":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const answer = await call(sim, 'POST', '/track', { key: secretOf(sim, 'key_acme_track'), query: { website_id: 'web_acme_www' }, body: deep });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('INVALID_EVENT_SCHEMA');
    expect(answer.json.details[0].message).toBe('Properties are nested too deeply (at most 32 levels)');
  });

  it('keeps answering near the largest date the clock can hold', async () => {
    const sim = freshSimulator({ startMs: 8.64e15 - 1000 });
    expect((await call(sim, 'POST', '/__sim/sessions', { body: { userId: 'user_alice' } })).status).toBe(201);
    const late = await call(sim, 'POST', '/track', {
      key: secretOf(sim, 'key_acme_track'),
      query: { website_id: 'web_acme_www' },
      body: { name: 'x', timestamp: 8.64e15 + 5e12 },
    });
    expect(late.status).toBe(400);
  });
});
