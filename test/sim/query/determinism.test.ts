import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/sim/simulator.js';
import { rowsOf, runQuery, STORE, WWW } from './support.js';

const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };

/** A varied sequence of requests: listing, single and batch queries, filters, presets, errors, compile, clock moves. */
async function session(sim: Simulator): Promise<Answer[]> {
  const read = secretOf(sim, 'key_acme_read');
  const monitors = secretOf(sim, 'key_acme_monitors');
  const out: Answer[] = [];
  const q = (body: unknown, query: Record<string, string> = WWW, key = read) => call(sim, 'POST', '/v1/query', { key, query, body });
  out.push(await call(sim, 'GET', '/v1/query/types', { query: { include_meta: 'true' } }));
  out.push(await q({ id: 'overview', parameters: ['summary_metrics', 'top_pages', 'browser_name'], ...WEEK }));
  out.push(await q({ parameters: ['country', 'city'], preset: 'last_30d', limit: 5, page: 2 }, STORE));
  out.push(await q({ parameters: ['events_by_date'], startDate: '2025-05-31', endDate: '2025-06-01', granularity: 'hourly' }, { ...WWW, timezone: 'Europe/Berlin' }));
  out.push(await q({ parameters: ['top_pages', 'traffic_sources'], ...WEEK, filters: [{ field: 'device_type', op: 'eq', value: 'Mobile' }, { field: 'path', op: 'starts_with', value: '/p' }] }));
  out.push(await q([{ id: 'a', parameters: ['today_metrics', 'active_stats'], preset: 'today' }, { id: 'b', parameters: ['custom_events', 'session_metrics'], preset: 'last_7d' }], STORE));
  out.push(await q({ parameters: ['link_total_clicks', 'link_clicks_by_day', 'link_top_countries'], ...WEEK }, { link_id: 'link_acme_launch' }));
  out.push(await q({ parameters: ['uptime_overview', 'uptime_recent_checks'], ...WEEK, limit: 10 }, { schedule_id: 'mon_acme_store' }, monitors));
  out.push(await q({ parameters: ['summry'], ...WEEK }));
  out.push(await q({ parameters: ['summary_metrics'], ...WEEK, limit: 'x' }));
  out.push(await q({ parameters: ['summary_metrics'], ...WEEK }, { website_id: 'web_globex_www' }));
  out.push(await call(sim, 'POST', '/v1/query/compile', { key: read, query: WWW, body: { projectId: 'web_acme_www', type: 'top_pages', from: '2025-05-01', to: '2025-05-31', filters: [{ field: 'country', op: 'in', value: ['US', 'DE'] }] } }));
  out.push(await call(sim, 'POST', '/__sim/clock', { body: { advanceMs: 45 * 60_000 } }));
  out.push(await q({ parameters: ['today_metrics', 'active_stats', 'entry_pages'], preset: 'today' }, STORE));
  out.push(await q({ parameters: ['exit_pages', 'utm_sources', 'top_referrers', 'screen_resolution'], preset: 'this_month' }));
  out.push(await call(sim, 'POST', '/v1/query', { key: read, query: WWW, body: '{not json' }));
  return out;
}

describe('determinism', () => {
  it('answers the same request sequence with byte-identical bodies and identical headers on two simulators with the same seed', async () => {
    const first = await session(freshSimulator());
    const second = await session(freshSimulator());
    expect(first.length).toBeGreaterThanOrEqual(15);
    expect(second.map((a) => a.status)).toEqual(first.map((a) => a.status));
    for (const [i, answer] of first.entries()) {
      expect(second[i]?.text, `request ${i}`).toBe(answer.text);
      expect(second[i]?.headers, `request ${i}`).toEqual(answer.headers);
    }
  });

  it('exercises successes and refusals alike in that sequence', async () => {
    const statuses = (await session(freshSimulator())).map((a) => a.status);
    expect(statuses).toEqual(expect.arrayContaining([200, 400, 403, 422]));
  });

  it('answers with the same rows when the same query is repeated on one simulator', async () => {
    const sim = freshSimulator();
    const body = { parameters: ['top_pages', 'browser_name', 'summary_metrics'], ...WEEK };
    const first = await runQuery(sim, body, STORE);
    const second = await runQuery(sim, body, STORE);
    expect(second.json.data).toEqual(first.json.data);
    expect(second.json.requestId).not.toBe(first.json.requestId);
  });

  it('gives the same data after a reset to the same seed', async () => {
    const sim = freshSimulator();
    const body = { parameters: ['summary_metrics', 'country'], ...WEEK };
    const before = await runQuery(sim, body);
    await call(sim, 'POST', '/__sim/reset', { body: {} });
    const after = await runQuery(sim, body);
    expect(after.text).toBe(before.text);
  });

  it('gives different data for the same query with a different seed', async () => {
    const body = { parameters: ['summary_metrics', 'top_pages'], ...WEEK };
    const seed42 = await runQuery(freshSimulator(), body);
    const seed7 = await runQuery(freshSimulator({ seed: 7 }), body);
    expect(seed7.status).toBe(200);
    expect(rowsOf(seed7, 'summary_metrics')).not.toEqual(rowsOf(seed42, 'summary_metrics'));
    expect(rowsOf(seed7, 'summary_metrics').length).toBe(7);
    expect(rowsOf(seed7, 'top_pages')).not.toEqual(rowsOf(seed42, 'top_pages'));
  });

  it('gives different request ids with a different seed', async () => {
    const a = await call(freshSimulator(), 'GET', '/v1/query/types');
    const b = await call(freshSimulator({ seed: 7 }), 'GET', '/v1/query/types');
    expect(a.headers['X-Request-ID']).not.toBe(b.headers['X-Request-ID']);
  });
});
