import { describe, expect, it } from 'vitest';
import { SUMMARY_QUERY } from '../helpers/credentials.js';
import { journalCounts, parsePrometheusText, requestCounts, samplesOf, secretsOf, valueOf, type Exposition } from '../helpers/prometheus-text.js';
import { freshSimulator, secretOf } from '../helpers/sim.js';
import { gateSlots } from '../helpers/slot-gate.js';
import { serveDuringSuite } from '../helpers/suite-server.js';

describe('scraping GET /__sim/metrics over HTTP during a burst', () => {
  // The test holds the burst's in-flight slots (the gate) until it has scraped.
  const gate = gateSlots(freshSimulator());
  const sim = gate.sim;
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

  it('sees a key in flight up to the cap while the burst holds its slots, and counters equal to the journal after it', async () => {
    expect((await post({}, '/__sim/reset')).status).toBe(200);
    const read = secretOf(sim, 'key_acme_read');
    const quota = secretOf(sim, 'key_acme_quota');
    const before = gate.count();
    gate.hold();
    const burst = Promise.all([...Array.from({ length: 30 }, () => queryWith(read)), ...Array.from({ length: 15 }, () => queryWith(quota))]);
    // Every request of the burst is decided, and none has given its slot back.
    await gate.decided(before + 45);
    const { exposition: during } = await scrape();
    expect(valueOf(during, 'analytics_sim_in_flight_cap')).toBe(20);
    expect(valueOf(during, 'analytics_sim_in_flight', { key: 'key_acme_read' })).toBe(20);
    // The quota key's 15 passed the in-flight gate (those its quota then refuses too): each is counted until answered.
    expect(valueOf(during, 'analytics_sim_in_flight', { key: 'key_acme_quota' })).toBe(15);
    gate.open();
    const statuses = await burst;

    const { text, exposition } = await scrape();
    const journal = (await (await fetch(`${server.url}/__sim/journal`)).json()) as { entries: { outcome: string; route: string | null; keyId: string | null }[] };
    expect(journal.entries).toHaveLength(45);
    expect(requestCounts(exposition)).toEqual(journalCounts(journal.entries));
    expect(valueOf(exposition, 'analytics_sim_requests_total', { outcome: 'admitted', key: 'key_acme_read' })).toBe(20);
    expect(valueOf(exposition, 'analytics_sim_requests_total', { outcome: 'concurrency', key: 'key_acme_read' })).toBe(10);
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
