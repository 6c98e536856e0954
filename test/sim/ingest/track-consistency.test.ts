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
