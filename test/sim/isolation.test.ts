import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/index.js';
import { call, freshSimulator, secretOf, type Answer } from '../helpers/sim.js';

/**
 * Independent simulators in one process share nothing: no module-level state of the core
 * (limits, journal, clock, request ids, records, events, caches, scenario draws) may carry one
 * simulator's traffic into another's answers. A simulator interleaved with another's traffic
 * must answer exactly as one running alone.
 */

type Step = (sim: Simulator) => Promise<Answer>;

const SUMMARY = { parameters: ['summary_metrics', 'top_pages'], preset: 'last_7d', limit: 3 };
const STORE = { website_id: 'web_acme_store' };

/** A stateful sequence touching every part of a simulator. */
function script(): Step[] {
  const got: Record<string, string> = {};
  const read = (sim: Simulator) => secretOf(sim, 'key_acme_read');
  const steps: Step[] = [
    (sim) => call(sim, 'GET', '/v1/query/websites', { key: read(sim) }),
    (sim) => call(sim, 'POST', '/v1/query', { key: read(sim), query: STORE, body: SUMMARY }),
    (sim) => call(sim, 'POST', '/track', { key: secretOf(sim, 'key_acme_track'), body: [{ name: 'iso', websiteId: 'web_acme_store', anonymousId: 'a' }] }),
    (sim) => call(sim, 'POST', '/v1/query', { key: read(sim), query: STORE, body: { parameters: ['custom_events'], preset: 'today' } }),
    async (sim) => {
      const answer = await call(sim, 'POST', '/__sim/keys', { body: { name: 'iso', organizationId: 'org_acme', scopes: ['read:data'], quota: { enabled: true, limit: 3, windowSeconds: 60 } } });
      got.secret = answer.json.secret;
      return answer;
    },
    ...Array.from({ length: 4 }, (): Step => (sim) => call(sim, 'GET', '/v1/query/websites', { key: got.secret as string })),
    (sim) => call(sim, 'POST', '/__sim/sessions', { body: { userId: 'user_carol' } }),
    (sim) => call(sim, 'POST', '/v1/websites', { key: secretOf(sim, 'key_acme_all'), body: { name: 'Iso', domain: 'iso.example' } }),
    (sim) => call(sim, 'POST', '/__sim/scenarios', { body: { scenario: { name: 'coin', steps: [{ match: { route: '/v1/query', probability: 0.5 }, effect: { type: 'error', status: 502, code: 'BAD_GATEWAY', message: 'Bad gateway' } }] } } }),
    ...Array.from({ length: 6 }, (): Step => (sim) => call(sim, 'POST', '/v1/query', { key: read(sim), query: { website_id: 'web_acme_www' }, body: SUMMARY })),
    (sim) => call(sim, 'POST', '/__sim/clock', { body: { advanceMs: 90_000 } }),
    (sim) => call(sim, 'GET', '/v1/query/websites', { key: got.secret as string }),
    (sim) => call(sim, 'GET', '/__sim/journal', { query: { limit: '8' } }),
    (sim) => call(sim, 'GET', '/__sim/journal/oracle'),
    (sim) => call(sim, 'GET', '/__sim/fixtures'),
    (sim) => call(sim, 'POST', '/__sim/reset', { body: {} }),
    (sim) => call(sim, 'GET', '/v1/query/websites', { key: read(sim) }),
  ];
  return steps;
}

const transcript = (answers: Answer[]) => answers.map((a) => ({ status: a.status, headers: a.headers, text: a.text }));

describe('simulators in one process', () => {
  it('answer exactly as when alone while another simulator runs different traffic in between', async () => {
    const alone: Answer[] = [];
    const soloSim = freshSimulator();
    for (const step of script()) alone.push(await step(soloSim));

    const watched = freshSimulator();
    const other = freshSimulator({ seed: 7 });
    const noisy = freshSimulator({ seed: 42, startMs: Date.UTC(2025, 0, 1) });
    const otherSteps = script();
    const noisySteps = script();
    const interleaved: Answer[] = [];
    for (const [i, step] of script().entries()) {
      await otherSteps[i]?.(other);
      await noisySteps[i]?.(noisy);
      await noisySteps[(i + 3) % noisySteps.length]?.(noisy);
      interleaved.push(await step(watched));
    }
    expect(interleaved.map((a) => a.status)).toEqual(alone.map((a) => a.status));
    expect(transcript(interleaved)).toEqual(transcript(alone));
  });

  it('keep their own limits, journals and clocks', async () => {
    const a = freshSimulator();
    const b = freshSimulator();
    const quota = (sim: Simulator) => call(sim, 'GET', '/v1/query/websites', { key: secretOf(sim, 'key_acme_quota') });
    for (let i = 0; i < 10; i++) await quota(a);
    expect((await quota(a)).status).toBe(429);
    expect((await quota(b)).status).toBe(200);
    a.clock.advance(5_000);
    expect(b.clock.now()).toBe(a.clock.now() - 5_000);
    expect(a.journal.list()).toHaveLength(11);
    expect(b.journal.list()).toHaveLength(1);
    await a.reset();
    expect(b.journal.list()).toHaveLength(1);
  });
});
