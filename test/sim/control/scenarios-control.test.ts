import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/index.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const BUILT_INS = ['steady', 'rate-limit-storm', 'outage-window', 'flaky-5xx', 'slow-tail', 'concurrency-squeeze', 'brownout', 'quota-crunch'];
const QUERY = { parameters: ['summary_metrics'], preset: 'today' };

describe('/__sim/scenarios', () => {
  it('lists the eight built-in scenarios with their timelines, and none running', async () => {
    const answer = await call(freshSimulator(), 'GET', '/__sim/scenarios');
    expect(answer.status).toBe(200);
    expect(answer.json.available.map((s: { name: string }) => s.name)).toEqual(BUILT_INS);
    for (const scenario of answer.json.available) {
      expect(scenario.description.length).toBeGreaterThan(20);
      expect(scenario.steps.length).toBeGreaterThan(0);
    }
    expect(answer.json.active).toEqual([]);
  });

  it('starts a built-in by name at the current instant and reports each step as pending, active or done', async () => {
    const sim = freshSimulator();
    const t0 = sim.clock.now();
    const started = await call(sim, 'POST', '/__sim/scenarios', { body: { name: 'outage-window' } });
    expect(started.status).toBe(201);
    expect(started.json.started).toMatchObject({ name: 'outage-window', startedAt: t0 });
    expect(started.json.started.steps[0]).toMatchObject({ from: t0 + 30_000, until: t0 + 90_000, state: 'pending' });
    sim.clock.advance(30_000);
    expect((await call(sim, 'GET', '/__sim/scenarios')).json.active[0].steps[0].state).toBe('active');
    sim.clock.advance(60_000);
    expect((await call(sim, 'GET', '/__sim/scenarios')).json.active[0].steps[0].state).toBe('done');
  });

  it('refuses to start a scenario that is already running with 409 CONFLICT', async () => {
    const sim = freshSimulator();
    await call(sim, 'POST', '/__sim/scenarios', { body: { name: 'steady' } });
    const again = await call(sim, 'POST', '/__sim/scenarios', { body: { name: 'steady' } });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ success: false, code: 'CONFLICT', error: 'Scenario steady is already running' });
  });

  it('answers an unknown name with 404 and a Did-you-mean hint', async () => {
    const answer = await call(freshSimulator(), 'POST', '/__sim/scenarios', { body: { name: 'outage-windw' } });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ code: 'NOT_FOUND', error: 'Scenario not found', hint: "Did you mean 'outage-window'?" });
  });

  it('validates an inline definition and names the fields that are wrong', async () => {
    const answer = await call(freshSimulator(), 'POST', '/__sim/scenarios', {
      body: { scenario: { name: 'Bad Name', steps: [{ start: '5 minutes', effect: { type: 'latency', delay: { distribution: 'fixed', ms: -5 } } }] } },
    });
    expect(answer.status).toBe(422);
    const fields = answer.json.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['body.scenario.name', 'body.scenario.steps[0].start', 'body.scenario.steps[0].effect.delay.ms']));
  });

  it('runs an inline scenario against what it matches and nothing else', async () => {
    const sim = freshSimulator();
    const started = await call(sim, 'POST', '/__sim/scenarios', {
      body: { scenario: { name: 'store-down', steps: [{ match: { websiteId: 'web_acme_store' }, effect: { type: 'error', status: 502, code: 'BAD_GATEWAY', message: 'Upstream is down' } }] } },
    });
    expect(started.status).toBe(201);
    const key = secretOf(sim, 'key_acme_read');
    const hit = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_store' }, body: QUERY });
    expect(hit.status).toBe(502);
    expect(hit.json).toEqual({ success: false, error: 'Upstream is down', code: 'BAD_GATEWAY', requestId: hit.headers['X-Request-ID'] });
    expect((await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_www' }, body: QUERY })).status).toBe(200);
    expect((await call(sim, 'GET', '/__sim/health')).status).toBe(200);
    const journal = sim.journal.list();
    expect(journal[0]).toMatchObject({ outcome: 'scenario', status: 502, faults: [{ scenario: 'store-down', step: 0, name: null, effect: 'error' }] });
    expect(journal[1]).toMatchObject({ outcome: 'admitted', faults: [] });
  });

  it('stops one scenario by name, 404s an unknown one, and stops all', async () => {
    const sim = freshSimulator();
    await call(sim, 'POST', '/__sim/scenarios', { body: { name: 'steady' } });
    await call(sim, 'POST', '/__sim/scenarios', { body: { name: 'flaky-5xx' } });
    expect((await call(sim, 'DELETE', '/__sim/scenarios/steady')).json).toEqual({ stopped: ['steady'] });
    expect((await call(sim, 'DELETE', '/__sim/scenarios/steady')).status).toBe(404);
    expect((await call(sim, 'DELETE', '/__sim/scenarios')).json).toEqual({ stopped: ['flaky-5xx'] });
    expect((await call(sim, 'GET', '/__sim/scenarios')).json.active).toEqual([]);
  });

  it('runs several scenarios at once', async () => {
    const sim = createSimulator({ seed: 42, scenarios: ['quota-crunch', 'steady'] });
    const key = secretOf(sim, 'key_acme_read');
    const first = await sim.handle({ method: 'GET', path: '/v1/query/websites', query: {}, headers: { 'x-api-key': key } });
    expect(first.headers['X-RateLimit-Limit']).toBe('20');
    expect(first.delayMs).toBeGreaterThan(0);
  });

  it('restarts the start-up scenarios on reset and forgets the ones started later', async () => {
    const sim = createSimulator({ seed: 42, scenarios: ['outage-window'] });
    await call(sim, 'POST', '/__sim/scenarios', { body: { name: 'steady' } });
    sim.clock.advance(45_000);
    await call(sim, 'POST', '/__sim/reset');
    const active = (await call(sim, 'GET', '/__sim/scenarios')).json.active;
    expect(active.map((s: { name: string }) => s.name)).toEqual(['outage-window']);
    expect(active[0].startedAt).toBe(sim.clock.now());
  });

  it('offers the same control programmatically', () => {
    const sim = freshSimulator();
    expect(sim.scenarios.start('brownout')).toMatchObject({ name: 'brownout', startedAt: sim.clock.now() });
    expect(() => sim.scenarios.start('brownout')).toThrow(/already running/);
    expect(() => sim.scenarios.start({ name: 'x', steps: [] })).toThrow(/Invalid scenario: steps/);
    expect(() => sim.scenarios.start('nope')).toThrow(/Unknown scenario 'nope'/);
    expect(sim.scenarios.list().map((s) => s.name)).toEqual(['brownout']);
    expect(sim.scenarios.stop()).toEqual(['brownout']);
  });
});
