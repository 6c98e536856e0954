import { describe, expect, it } from 'vitest';
import { SUMMARY_QUERY } from '../helpers/credentials.js';
import { journalCounts, parsePrometheusText, requestCounts, samplesOf, secretsOf, valueOf, type Exposition } from '../helpers/prometheus-text.js';
import { freshSimulator, secretOf } from '../helpers/sim.js';
import { serveDuringSuite } from '../helpers/suite-server.js';

const HOLD_MS = 150;

describe('scraping GET /__sim/metrics over HTTP during a burst', () => {
  const sim = freshSimulator();
  const server = serveDuringSuite(sim);

  async function scrape(): Promise<{ text: string; exposition: Exposition }> {
    const res = await fetch(`${server.url}/__sim/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    return { text, exposition: parsePrometheusText(text) };
  }

  const post = (body: unknown, path: string) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  const queryWith = (secret: string) =>
    fetch(`${server.url}/v1/query?website_id=web_acme_store`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': secret }, body: JSON.stringify(SUMMARY_QUERY) }).then(
      (res) => res.arrayBuffer().then(() => res.status),
    );

  it('sees keys in flight within the cap while the burst runs, and counters equal to the journal after it', async () => {
    expect((await post({}, '/__sim/reset')).status).toBe(200);
    const scenario = {
      scenario: {
        name: 'metrics-hold',
        description: `every /v1/ answer takes ${HOLD_MS} ms`,
        steps: [{ name: 'latency', match: { route: '/v1/*' }, effect: { type: 'latency', delay: { distribution: 'fixed', ms: HOLD_MS } } }],
      },
    };
    expect((await post(scenario, '/__sim/scenarios')).status).toBe(201);
    const read = secretOf(sim, 'key_acme_read');
    const quota = secretOf(sim, 'key_acme_quota');
    let settled = false;
    const burst = Promise.all([...Array.from({ length: 30 }, () => queryWith(read)), ...Array.from({ length: 15 }, () => queryWith(quota))]).finally(() => {
      settled = true;
    });

    // Scrape while the answers are held, until one scrape has seen requests in flight (or the burst is over).
    const seen: number[] = [];
    const deadline = Date.now() + 10_000;
    while (!settled && Date.now() < deadline) {
      const { exposition } = await scrape();
      const inFlight = valueOf(exposition, 'analytics_sim_in_flight', { key: 'key_acme_read' });
      seen.push(inFlight);
      expect(inFlight).toBeLessThanOrEqual(valueOf(exposition, 'analytics_sim_in_flight_cap'));
      if (inFlight > 0) break;
    }
    const statuses = await burst;
    expect(Math.max(...seen)).toBeGreaterThan(0);

    const { text, exposition } = await scrape();
    const journal = (await (await fetch(`${server.url}/__sim/journal`)).json()) as { entries: { outcome: string; route: string | null; keyId: string | null }[] };
    expect(journal.entries).toHaveLength(45);
    expect(requestCounts(exposition)).toEqual(journalCounts(journal.entries));
    expect(valueOf(exposition, 'analytics_sim_requests_total', { outcome: 'admitted', key: 'key_acme_quota' })).toBe(10);
    expect(valueOf(exposition, 'analytics_sim_requests_total', { outcome: 'key_quota', key: 'key_acme_quota' })).toBe(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(journal.entries.filter((e) => e.outcome !== 'admitted').length);
    expect(valueOf(exposition, 'analytics_sim_in_flight', { key: 'key_acme_read' })).toBe(0);
    expect(valueOf(exposition, 'analytics_sim_journal_entries')).toBe(45);

    const timed = samplesOf(exposition, 'analytics_sim_request_duration_seconds_count', { route: '/v1/query' });
    expect(timed.reduce((sum, s) => sum + s.value, 0)).toBe(45);
    expect(exposition.types.get('analytics_sim_request_duration_seconds')).toBe('histogram');

    for (const secret of secretsOf(await (await fetch(`${server.url}/__sim/fixtures`)).json())) expect(text).not.toContain(secret);
  });
});
