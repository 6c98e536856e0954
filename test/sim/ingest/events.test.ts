import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/index.js';
import { NOW, queryRows, rowOf } from './support.js';

const STORE = { website_id: 'web_acme_store' };
const TODAY = { startDate: '2025-06-02', endDate: '2025-06-02' };

function spans(sim: Simulator, body: unknown, options: { query?: Record<string, string>; headers?: Record<string, string> } = { query: { client_id: 'web_acme_store' } }): Promise<Answer> {
  return call(sim, 'POST', '/events', { body, ...options });
}

const span = (eventName: string, fields: Record<string, unknown> = {}) => ({ timestamp: NOW - 3_600_000, path: '/checkout', eventName, ...fields });

function expectBasket(answer: Answer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.json).toMatchObject({ success: false, status: 'error', code: `basket.${code}` });
}

describe('POST /events (lean custom-event spans)', () => {
  it('answers {status, type, count} and the spans count in custom_events beside the events of /track', async () => {
    const sim = freshSimulator();
    const answer = await spans(sim, [span('legacy_buy', { anonymousId: 'anon_1', sessionId: 'sess_1', properties: { plan: 'pro' } }), span('legacy_buy', { anonymousId: 'anon_2' })]);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 'success', type: 'custom_event', count: 2 });
    await call(sim, 'POST', '/track', { key: secretOf(sim, 'key_acme_track'), query: STORE, body: { name: 'legacy_buy', timestamp: NOW - 1_800_000, anonymousId: 'anon_3' } });
    const rows = await queryRows(sim, secretOf(sim, 'key_acme_read'), STORE, TODAY);
    expect(rowOf(rows, 'legacy_buy')).toMatchObject({ total_events: 3, unique_users: 3 });
  });

  it('takes the client id from the databuddy-client-id header too', async () => {
    const sim = freshSimulator();
    expect((await spans(sim, [span('by_header')], { headers: { 'databuddy-client-id': 'web_acme_store' } })).json.count).toBe(1);
  });

  it('refuses without a client id, with an unknown one, spans outside the schema or the time window, and a batch of 101, storing nothing', async () => {
    const sim = freshSimulator();
    expectBasket(await spans(sim, [span('x')], {}), 400, 'INGEST_MISSING_CLIENT_ID');
    expectBasket(await spans(sim, [span('x')], { query: { client_id: 'web_nope' } }), 400, 'INGEST_INVALID_CLIENT_ID');
    for (const [body, field] of [
      [[span('x', { eventName: '' })], '0.eventName'],
      [[span('x', { timestamp: '2025-06-02T10:00:00Z' })], '0.timestamp'],
      [[span('ok'), span('x', { timestamp: NOW + 2 * 3_600_000 })], '1.timestamp'],
      [[span('x', { path: 'p'.repeat(2049) })], '0.path'],
      [Array.from({ length: 101 }, () => span('x')), ''],
    ] as const) {
      const answer = await spans(sim, body);
      expectBasket(answer, 400, 'INVALID_EVENT_SCHEMA');
      expect(answer.json.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const rows = await queryRows(sim, secretOf(sim, 'key_acme_read'), STORE, TODAY);
    expect(rowOf(rows, 'x')).toBeUndefined();
    expect(rowOf(rows, 'ok')).toBeUndefined();
  });

  it('answers a bot 204 and stores nothing', async () => {
    const sim = freshSimulator();
    const answer = await spans(sim, [span('from_bot')], { query: { client_id: 'web_acme_store' }, headers: { 'user-agent': 'AhrefsBot/7.0' } });
    expect(answer.status).toBe(204);
    expect(rowOf(await queryRows(sim, secretOf(sim, 'key_acme_read'), STORE, TODAY), 'from_bot')).toBeUndefined();
  });
});
