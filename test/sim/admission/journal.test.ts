import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/index.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const body = { parameters: ['summary_metrics'], preset: 'today' };

describe('the admission journal', () => {
  it('records every decision with clock time, identity, route, outcome, status and request id', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_read');
    const ok = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_www' }, body });
    sim.clock.advance(5);
    const anonymous = await call(sim, 'GET', '/v1/query/websites', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    const journal = await call(sim, 'GET', '/__sim/journal');
    expect(journal.status).toBe(200);
    expect(journal.json.info).toMatchObject({ complete: true, size: 2, dropped: 0, capacity: 100_000 });
    const [first, second] = journal.json.entries;
    expect(first).toMatchObject({
      seq: 1,
      at: sim.clock.now() - 5,
      requestId: ok.headers['X-Request-ID'],
      method: 'POST',
      path: '/v1/query',
      route: '/v1/query',
      identity: 'apikey:key_acme_read',
      keyId: 'key_acme_read',
      outcome: 'admitted',
      status: 200,
      inFlight: 0,
      inFlightCap: 20,
    });
    expect(first.checks).toEqual([{ rule: 'endpoint_limit', id: 'query:execute:apikey:key_acme_read', limit: 120, windowMs: 60_000, allowed: true, order: 1 }]);
    expect(second).toMatchObject({ identity: 'anon:203.0.113.9', status: 401, outcome: 'admitted', requestId: anonymous.headers['X-Request-ID'], inFlight: null });
  });

  it('names the rule that refused a request and never records a secret', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_quota');
    for (let i = 0; i < 11; i++) await call(sim, 'GET', '/v1/query/websites', { key });
    const journal = await call(sim, 'GET', '/__sim/journal');
    expect(journal.json.entries.map((e: { outcome: string }) => e.outcome)).toEqual([...Array(10).fill('admitted'), 'key_quota']);
    expect(journal.text).not.toContain(key);
  });

  it('filters by identity, route, outcome, time and limit', async () => {
    const sim = freshSimulator();
    const acme = secretOf(sim, 'key_acme_read');
    const quota = secretOf(sim, 'key_acme_quota');
    const t0 = sim.clock.now();
    await call(sim, 'GET', '/v1/query/websites', { key: acme });
    sim.clock.advance(1000);
    await call(sim, 'POST', '/v1/query', { key: acme, query: { website_id: 'web_acme_www' }, body });
    sim.clock.advance(1000);
    for (let i = 0; i < 11; i++) await call(sim, 'GET', '/v1/query/types', { key: quota });
    const list = async (query: Record<string, string>) => (await call(sim, 'GET', '/__sim/journal', { query })).json.entries as { identity: string; route: string; at: number }[];
    expect(await list({ identity: 'apikey:key_acme_read' })).toHaveLength(2);
    expect(await list({ route: '/v1/query' })).toHaveLength(1);
    expect(await list({ outcome: 'key_quota' })).toHaveLength(1);
    expect(await list({ since: String(t0 + 1000), until: String(t0 + 1000) })).toHaveLength(1);
    expect(await list({ since: new Date(t0 + 2000).toISOString() })).toHaveLength(11);
    const last3 = await list({ limit: '3' });
    expect(last3).toHaveLength(3);
    const bad = await call(sim, 'GET', '/__sim/journal', { query: { outcome: 'nope', since: 'yesterday' } });
    expect(bad.status).toBe(400);
    expect(bad.json.details.map((d: { field: string }) => d.field)).toEqual(['outcome', 'since']);
  });

  it('keeps the control plane out of the journal', async () => {
    const sim = freshSimulator();
    await call(sim, 'GET', '/__sim/health');
    await call(sim, 'GET', '/__sim/fixtures');
    expect((await call(sim, 'GET', '/__sim/journal')).json.entries).toEqual([]);
  });

  it('clears with DELETE, after which it says it is no longer complete', async () => {
    const sim = freshSimulator();
    await call(sim, 'GET', '/v1/query/types');
    const cleared = await call(sim, 'DELETE', '/__sim/journal');
    expect(cleared.status).toBe(200);
    const journal = await call(sim, 'GET', '/__sim/journal');
    expect(journal.json.entries).toEqual([]);
    expect(journal.json.info.complete).toBe(false);
  });

  it('keeps only the newest entries up to its capacity and counts what it dropped', async () => {
    const sim = createSimulator({ seed: 42, journalCapacity: 5 });
    for (let i = 0; i < 8; i++) await call(sim, 'GET', '/v1/query/types');
    const journal = await call(sim, 'GET', '/__sim/journal');
    expect(journal.json.entries.map((e: { seq: number }) => e.seq)).toEqual([4, 5, 6, 7, 8]);
    expect(journal.json.info).toMatchObject({ size: 5, dropped: 3, complete: false });
  });

  it('starts over, complete, after a reset', async () => {
    const sim = freshSimulator();
    await call(sim, 'GET', '/v1/query/types');
    await call(sim, 'DELETE', '/__sim/journal');
    await call(sim, 'POST', '/__sim/reset');
    await call(sim, 'GET', '/v1/query/types');
    const journal = await call(sim, 'GET', '/__sim/journal');
    expect(journal.json.info.complete).toBe(true);
    expect(journal.json.entries.map((e: { seq: number }) => e.seq)).toEqual([1]);
  });
});

describe('journal order', () => {
  it('lists requests in arrival order and keeps the oracle exact when they finish out of order', async () => {
    const sim = freshSimulator();
    const quota = secretOf(sim, 'key_acme_quota');
    for (let i = 0; i < 9; i++) await call(sim, 'GET', '/v1/query/websites', { key: quota });
    // Started together: the first goes on to the endpoint limit, the later ones are refused at the quota.
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call(sim, 'POST', '/v1/query', { key: quota, query: { website_id: 'web_acme_www' }, body })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 429, 429, 429]);
    const entries = sim.journal.list();
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(entries[9]?.requestId).toBe(answers[0]?.headers['X-Request-ID']);
    const oracle = await call(sim, 'GET', '/__sim/journal/oracle');
    expect(oracle.json).toMatchObject({ accuracy: 100, overAdmissions: 0, underAdmissions: 0 });
  });
});
