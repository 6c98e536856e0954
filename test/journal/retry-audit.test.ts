import { describe, expect, it } from 'vitest';
import { hammeringQuery } from '../../examples/hammering-client.js';
import { politeQuery } from '../../examples/polite-client.js';
import { auditRetries, createSimulator, expectRetriesCompliant, RetryComplianceError, type ScenarioInput } from '../../src/index.js';
import { call, secretOf } from '../helpers/sim.js';
import { virtualDeps } from '../helpers/sim-fetch.js';

const BASE = 'http://analytics.test';
const QUERY = { parameters: ['summary_metrics'], preset: 'today' };

/** Every POST /v1/query gets 429 with Retry-After: 2 for the first 5 s. */
const STORM: ScenarioInput = {
  name: 'short-storm',
  steps: [{ duration: '5s', match: { route: '/v1/query' }, effect: { type: 'rate_limit', retryAfterSeconds: 2 } }],
};

function simulatorWith(...scenarios: ScenarioInput[]) {
  return createSimulator({ seed: 42, scenarios });
}

describe('the retry audit', () => {
  it('passes a client that waits Retry-After plus a small jitter, three times at most', async () => {
    const sim = simulatorWith(STORM);
    const result = await politeQuery(BASE, secretOf(sim, 'key_acme_read'), 'web_acme_www', QUERY, virtualDeps(sim));
    expect(result).toMatchObject({ status: 200, attempts: 4 });
    const audit = expectRetriesCompliant(sim);
    expect(audit.summary).toEqual({ chains: 1, retries: 3, violations: 0, compliantChains: 1 });
    expect(audit.chains[0]).toMatchObject({ identity: 'apikey:key_acme_read', statuses: [429, 429, 429, 200], recovered: true, compliant: true });
  });

  it('fails a client that retries at once, with a reason and request id per retry', async () => {
    const sim = simulatorWith(STORM);
    const result = await hammeringQuery(BASE, secretOf(sim, 'key_acme_read'), 'web_acme_www', QUERY, virtualDeps(sim));
    expect(result).toEqual({ status: 429, attempts: 11 });
    const audit = auditRetries(sim.journal.list());
    expect(audit.compliant).toBe(false);
    const kinds = audit.violations.map((v) => v.kind);
    expect(kinds.filter((k) => k === 'too_early')).toHaveLength(10);
    expect(kinds.filter((k) => k === 'too_many_retries')).toHaveLength(7);
    const first = audit.violations[0]!;
    const chain = audit.chains[0]!;
    expect(first.requestId).toBe(chain.requestIds[1]);
    expect(first.previousRequestId).toBe(chain.requestIds[0]);
    expect(first.reason).toBe(`retried 0 ms after the 429 (${chain.requestIds[0]}), which said Retry-After: 2 s: wait at least 2000 ms`);
  });

  it('throws a readable error from expectRetriesCompliant for a hammering client', async () => {
    const sim = simulatorWith(STORM);
    await hammeringQuery(BASE, secretOf(sim, 'key_acme_read'), 'web_acme_www', QUERY, virtualDeps(sim));
    let error: unknown;
    try {
      expectRetriesCompliant(sim);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RetryComplianceError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Expected retries as the service asks of clients/);
    expect(message).toContain('found 17 violation(s) in 1 of 1 retry chain(s)');
    expect(message).toContain('apikey:key_acme_read POST /v1/query: answers 429 → 429');
    expect(message).toMatch(/- req_[A-Za-z0-9]{16} \[too_early\] retried 0 ms after the 429/);
    expect(message).toMatch(/\[too_many_retries\] retry number 4 of the same request; at most 3/);
  });

  it('flags retries of an answer that retrying cannot change', async () => {
    const sim = simulatorWith();
    const result = await hammeringQuery(BASE, secretOf(sim, 'key_acme_track'), 'web_acme_www', QUERY, virtualDeps(sim));
    expect(result.status).toBe(403);
    const audit = auditRetries(sim.journal.list());
    expect(audit.violations.filter((v) => v.kind === 'non_retryable')).toHaveLength(10);
    expect(audit.violations[0]!.reason).toMatch(/^retried a 403 answer \(req_[A-Za-z0-9]{16}\), which will not change by retrying$/);
  });

  it('gives up politely on a 403 without retrying it', async () => {
    const sim = simulatorWith();
    const result = await politeQuery(BASE, secretOf(sim, 'key_acme_track'), 'web_acme_www', QUERY, virtualDeps(sim));
    expect(result).toMatchObject({ status: 403, attempts: 1 });
    expect(expectRetriesCompliant(sim).summary).toEqual({ chains: 1, retries: 0, violations: 0, compliantChains: 1 });
  });

  it('waits out a 503 outage by its Retry-After of 5 s', async () => {
    const sim = simulatorWith({ name: 'blip', steps: [{ duration: '12s', match: { route: '/v1/*' }, effect: { type: 'outage' } }] });
    const result = await politeQuery(BASE, secretOf(sim, 'key_acme_read'), 'web_acme_www', QUERY, virtualDeps(sim, 0.9));
    expect(result).toMatchObject({ status: 200, attempts: 4 });
    expect(expectRetriesCompliant(sim).chains[0]!.statuses).toEqual([503, 503, 503, 200]);
  });

  it('treats a dropped connection as retryable with the 1 s minimum', async () => {
    const sim = simulatorWith({ name: 'drops', steps: [{ duration: '1500ms', match: { route: '/v1/query' }, effect: { type: 'reset' } }] });
    const result = await politeQuery(BASE, secretOf(sim, 'key_acme_read'), 'web_acme_www', QUERY, virtualDeps(sim));
    expect(result).toMatchObject({ status: 200, attempts: 3 });
    expect(expectRetriesCompliant(sim).chains[0]!.statuses).toEqual([0, 0, 200]);
  });

  it('flags a retry that waits far beyond the minimum as too much jitter', async () => {
    const sim = simulatorWith(STORM);
    const key = secretOf(sim, 'key_acme_read');
    const send = () => call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_www' }, body: QUERY });
    expect((await send()).status).toBe(429);
    sim.clock.advance(9000);
    expect((await send()).status).toBe(200);
    const audit = auditRetries(sim.journal.list());
    expect(audit.violations.map((v) => v.kind)).toEqual(['excess_jitter']);
    expect(audit.violations[0]!.reason).toBe('waited 9000 ms, 7000 ms over the 2000 ms minimum: keep the jitter under 250 ms');
  });

  it('tells retries apart by identity and request, ends a chain at a success, and ignores repeats after five minutes', async () => {
    const sim = simulatorWith(STORM);
    const acme = secretOf(sim, 'key_acme_read');
    const globex = secretOf(sim, 'key_globex_read');
    await call(sim, 'POST', '/v1/query', { key: acme, query: { website_id: 'web_acme_www' }, body: QUERY });
    await call(sim, 'POST', '/v1/query', { key: globex, query: { website_id: 'web_globex_www' }, body: QUERY });
    await call(sim, 'POST', '/v1/query', { key: acme, query: { website_id: 'web_acme_docs' }, body: QUERY });
    sim.clock.advance(600_000);
    await call(sim, 'POST', '/v1/query', { key: acme, query: { website_id: 'web_acme_www' }, body: QUERY });
    await call(sim, 'POST', '/v1/query', { key: acme, query: { website_id: 'web_acme_www' }, body: QUERY });
    const audit = auditRetries(sim.journal.list());
    expect(audit.compliant).toBe(true);
    expect(audit.summary).toMatchObject({ chains: 3, retries: 0 });
  });

  it('is served at GET /__sim/journal/retry-audit with the journal filters', async () => {
    const sim = simulatorWith(STORM);
    await hammeringQuery(BASE, secretOf(sim, 'key_acme_read'), 'web_acme_www', QUERY, virtualDeps(sim));
    const served = await call(sim, 'GET', '/__sim/journal/retry-audit');
    expect(served.status).toBe(200);
    expect(served.json).toEqual(JSON.parse(JSON.stringify(auditRetries(sim.journal.list()))));
    const none = await call(sim, 'GET', '/__sim/journal/retry-audit', { query: { identity: 'apikey:key_globex_read' } });
    expect(none.json).toMatchObject({ compliant: true, summary: { chains: 0 } });
  });
});
