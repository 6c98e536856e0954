import { describe, expect, it } from 'vitest';
import { prometheusMetricsOf } from '../../../src/http/prometheus-metrics.js';
import { createRequestCounters, MAX_KEY_LABELS } from '../../../src/sim/metrics/request-counters.js';
import type { JournalEntry } from '../../../src/sim/journal/journal.js';
import type { SimResponse } from '../../../src/sim/messages.js';
import type { Simulator } from '../../../src/sim/simulator.js';
import { SUMMARY_QUERY } from '../../helpers/credentials.js';
import { journalCounts, parsePrometheusText, requestCounts, secretsOf, valueOf, type Exposition } from '../../helpers/prometheus-text.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

/** A simulator whose `/__sim/metrics` renders as the HTTP adapters render it. */
function servedSimulator(options: Parameters<typeof freshSimulator>[0] = {}): Simulator {
  const sim = freshSimulator(options);
  prometheusMetricsOf(sim);
  return sim;
}

async function scrape(sim: Simulator): Promise<{ text: string; exposition: Exposition }> {
  const answer = await call(sim, 'GET', '/__sim/metrics');
  expect(answer.status).toBe(200);
  expect(answer.headers['Content-Type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return { text: answer.text, exposition: parsePrometheusText(answer.text) };
}

const query = (sim: Simulator, key?: string) => call(sim, 'POST', '/v1/query', { ...(key ? { key } : {}), query: { website_id: 'web_acme_store' }, body: SUMMARY_QUERY });

function held(sim: Simulator, secret: string): Promise<SimResponse> {
  return sim.handle({ method: 'GET', path: '/v1/query/types', query: {}, headers: { 'x-api-key': secret } }, { holdSlot: true });
}

describe('GET /__sim/metrics', () => {
  it('answers 404 with a hint naming the HTTP server when no adapter installed a renderer', async () => {
    const answer = await call(freshSimulator(), 'GET', '/__sim/metrics');
    expect(answer.status).toBe(404);
    expect(answer.text).toMatch(/startServer/);
  });

  it('counts every decision by outcome, route and key exactly as the journal lists them', async () => {
    const sim = servedSimulator();
    const quota = secretOf(sim, 'key_acme_quota');
    for (let i = 0; i < 13; i++) await query(sim, quota);
    await query(sim);
    await call(sim, 'GET', '/v1/no-such-route', { key: secretOf(sim, 'key_acme_read') });
    const { exposition } = await scrape(sim);
    const counts = requestCounts(exposition);
    expect(counts.get('admitted /v1/query key_acme_quota')).toBe(10);
    expect(counts.get('key_quota /v1/query key_acme_quota')).toBe(3);
    expect(counts).toEqual(journalCounts(sim.journal.list()));
    expect(exposition.types.get('analytics_sim_requests_total')).toBe('counter');
    expect(valueOf(exposition, 'analytics_sim_journal_entries')).toBe(sim.journal.list().length);
  });

  it('shows the requests of a key in flight against the cap while they are held, and the concurrency refusal past it', async () => {
    const sim = servedSimulator();
    const secret = secretOf(sim, 'key_acme_read');
    const responses: SimResponse[] = [];
    for (let i = 0; i < 21; i++) responses.push(await held(sim, secret));
    const during = (await scrape(sim)).exposition;
    expect(valueOf(during, 'analytics_sim_in_flight', { key: 'key_acme_read' })).toBe(20);
    expect(valueOf(during, 'analytics_sim_in_flight_cap')).toBe(20);
    expect(valueOf(during, 'analytics_sim_requests_total', { outcome: 'concurrency', key: 'key_acme_read' })).toBe(1);
    for (const response of responses) response.release?.();
    const after = (await scrape(sim)).exposition;
    expect(valueOf(after, 'analytics_sim_in_flight', { key: 'key_acme_read' })).toBe(0);
    expect(requestCounts(after)).toEqual(journalCounts(sim.journal.list()));
  });

  it('never shows an API key secret or a session token', async () => {
    const sim = servedSimulator();
    for (const key of ['key_acme_read', 'key_acme_quota', 'key_acme_all']) await query(sim, secretOf(sim, key));
    const { text } = await scrape(sim);
    const secrets = secretsOf(sim.fixtures());
    expect(secrets.length).toBeGreaterThan(3);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('follows the virtual clock and the journal size and drops, and starts again from zero on reset', async () => {
    const sim = servedSimulator({ journalCapacity: 3 });
    for (let i = 0; i < 5; i++) await query(sim);
    await call(sim, 'POST', '/__sim/clock', { body: { advanceMs: 90_000 } });
    const before = (await scrape(sim)).exposition;
    expect(valueOf(before, 'analytics_sim_requests_total', { outcome: 'admitted', key: 'none' })).toBe(5);
    expect(valueOf(before, 'analytics_sim_journal_entries')).toBe(3);
    expect(valueOf(before, 'analytics_sim_journal_dropped')).toBe(2);
    expect(valueOf(before, 'analytics_sim_journal_capacity')).toBe(3);
    expect(valueOf(before, 'analytics_sim_clock_ms')).toBe(sim.clock.now());
    expect(valueOf(before, 'analytics_sim_clock_virtual')).toBe(1);
    await call(sim, 'POST', '/__sim/reset');
    const after = (await scrape(sim)).exposition;
    expect(requestCounts(after).size).toBe(0);
    expect(valueOf(after, 'analytics_sim_journal_entries')).toBe(0);
    expect(valueOf(after, 'analytics_sim_clock_ms')).toBe(sim.clock.now());
  });

  it('gives the snapshot as data to library users', async () => {
    const sim = freshSimulator();
    await query(sim, secretOf(sim, 'key_acme_read'));
    const snapshot = await sim.metrics.snapshot();
    expect(snapshot.requests).toEqual([{ outcome: 'admitted', route: '/v1/query', key: 'key_acme_read', count: 1 }]);
    expect(snapshot.inFlightCap).toBe(20);
    expect(snapshot.journal.size).toBe(1);
    expect(snapshot.shared).toBe(false);
  });

  it('renders the latency histogram by route pattern and status: cumulative buckets with inclusive bounds, +Inf, sum and count', async () => {
    const sim = servedSimulator();
    const metrics = prometheusMetricsOf(sim);
    for (const seconds of [0.001, 0.002, 0.3, 20]) metrics.observe({ method: 'POST', path: '/v1/query' }, 200, seconds);
    metrics.observe({ method: 'GET', path: '/v1/websites/web_acme_store' }, 404, -1);
    const { exposition } = await scrape(sim);
    const name = 'analytics_sim_request_duration_seconds';
    expect(exposition.types.get(name)).toBe('histogram');
    const bucket = (le: string, labels = { route: '/v1/query', status: '200' }): number => valueOf(exposition, `${name}_bucket`, { ...labels, le });
    expect([bucket('0.001'), bucket('0.0025'), bucket('0.25'), bucket('0.5'), bucket('10'), bucket('+Inf')]).toEqual([1, 2, 2, 3, 3, 4]);
    expect(valueOf(exposition, `${name}_count`, { route: '/v1/query', status: '200' })).toBe(4);
    expect(valueOf(exposition, `${name}_sum`, { route: '/v1/query', status: '200' })).toBeCloseTo(20.303, 9);
    // A path is labelled with its route pattern, never the raw path; a negative time counts as 0.
    expect(bucket('0.001', { route: '/v1/websites/:id', status: '404' })).toBe(1);
  });

  it('is documented in the OpenAPI document as a Prometheus text response', async () => {
    const answer = await call(freshSimulator(), 'GET', '/openapi.json');
    const ok = answer.json.paths['/__sim/metrics'].get.responses['200'];
    expect(Object.keys(ok.content)).toEqual(['text/plain; version=0.0.4; charset=utf-8']);
  });
});

describe('request counters', () => {
  const entry = (keyId: string | null): JournalEntry =>
    ({ outcome: 'admitted', route: '/v1/query', keyId }) as Partial<JournalEntry> as JournalEntry;

  it('label at most 1000 key ids and count the keys beyond them as other', () => {
    const counters = createRequestCounters();
    for (let i = 0; i < MAX_KEY_LABELS + 5; i++) counters.record(entry(`key_${i}`));
    counters.record(entry('key_0'));
    counters.record(entry(null));
    const counts = counters.counts();
    expect(counts.filter((c) => c.key.startsWith('key_'))).toHaveLength(MAX_KEY_LABELS);
    expect(counts.find((c) => c.key === 'key_0')?.count).toBe(2);
    expect(counts.find((c) => c.key === 'other')?.count).toBe(5);
    expect(counts.find((c) => c.key === 'none')?.count).toBe(1);
  });
});
