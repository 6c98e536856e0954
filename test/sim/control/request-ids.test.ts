import { describe, expect, it } from 'vitest';
import { COMPILE_BODY, REQUEST_ID, SUMMARY_QUERY } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf, type Answer, type CallOptions } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/sim/simulator.js';

type Step = [method: string, path: string, options: CallOptions];

/** Successes and refusals of every kind, on the Query API and the control plane. */
function variedSteps(sim: Simulator): Step[] {
  const read = secretOf(sim, 'key_acme_read');
  return [
    ['GET', '/v1/query/types', {}],
    ['GET', '/v1/query/types', { query: { include_meta: 'true' } }],
    ['HEAD', '/v1/query/types', {}],
    ['GET', '/v1/query/websites', { key: read }],
    ['POST', '/v1/query', { key: read, query: { website_id: 'web_acme_store' }, body: SUMMARY_QUERY }],
    ['POST', '/v1/query', { key: read, query: { website_id: 'web_acme_store' }, body: [SUMMARY_QUERY, SUMMARY_QUERY] }],
    ['POST', '/v1/query/compile', { key: read, body: COMPILE_BODY }],
    ['GET', '/v1/query/websites', {}],
    ['GET', '/v1/query/websites', { key: secretOf(sim, 'key_acme_track') }],
    ['POST', '/v1/query', { key: read, query: { website_id: 'web_globex_app' }, body: SUMMARY_QUERY }],
    ['POST', '/v1/query', { key: secretOf(sim, 'key_acme_store_only'), body: SUMMARY_QUERY }],
    ['POST', '/v1/query', { key: read, query: { website_id: 'web_acme_store' }, body: { parameters: ['summary_metrics'] } }],
    ['POST', '/v1/query', { key: read, body: '{"parameters":' }],
    ['POST', '/v1/query', { key: read, body: { parameters: 'summary_metrics' } }],
    ['POST', '/v1/query', { key: read, body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
    ['GET', '/no/such/route', {}],
    ['PUT', '/v1/query', {}],
    ['GET', '/__sim/health', {}],
    ['GET', '/__sim/fixtures', {}],
    ['GET', '/__sim/clock', {}],
    ['POST', '/__sim/clock', { body: { advanceMs: 1_000 } }],
    ['POST', '/__sim/clock', { body: { now: 0 } }],
    ['POST', '/__sim/clock', { body: { bogus: 1 } }],
    ['GET', '/__sim/unknown', {}],
  ];
}

async function run(sim: Simulator, steps: readonly Step[]): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const [method, path, options] of steps) answers.push(await call(sim, method, path, options));
  return answers;
}

const idsOf = (answers: readonly Answer[]): string[] => answers.map((a) => a.headers['X-Request-ID'] as string);

describe('request ids', () => {
  it('puts an X-Request-ID of the form req_ + 16 letters and digits on every response, equal to body.requestId', async () => {
    const sim = freshSimulator();
    const steps = variedSteps(sim);
    const answers = await run(sim, steps);
    const statuses = new Set(answers.map((a) => a.status));
    for (const status of [200, 400, 401, 403, 404, 405, 415, 422]) expect(statuses).toContain(status);
    answers.forEach((answer, i) => {
      const label = `${steps[i]?.[0]} ${steps[i]?.[1]} → ${answer.status}`;
      const id = answer.headers['X-Request-ID'];
      expect(id, label).toMatch(REQUEST_ID);
      if (answer.json && typeof answer.json === 'object' && 'requestId' in answer.json) {
        expect(answer.json.requestId, label).toBe(id);
      }
      if (answer.status >= 400) expect(answer.json?.requestId, label).toBe(id);
    });
  });

  it('issues a different id for every request of a run', async () => {
    const sim = freshSimulator();
    const ids = idsOf(await run(sim, [...variedSteps(sim), ...variedSteps(sim)]));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('issues the same ids in the same order from two fresh simulators with the same seed', async () => {
    const a = freshSimulator();
    const b = freshSimulator();
    const answersA = await run(a, variedSteps(a));
    const answersB = await run(b, variedSteps(b));
    expect(idsOf(answersA)).toEqual(idsOf(answersB));
    expect(answersA).toEqual(answersB);
  });

  it('derives the n-th service request’s id from the seed and n alone, whatever the requests were', async () => {
    const a = freshSimulator();
    const b = freshSimulator();
    const service = (steps: Step[]) => steps.filter(([, path]) => !path.startsWith('/__sim'));
    const idsA = idsOf(await run(a, service(variedSteps(a))));
    const idsB = idsOf(await run(b, service(variedSteps(b)).map((): Step => ['GET', '/v1/query/types', {}])));
    expect(idsB).toEqual(idsA);
  });

  it('draws no id of the service’s sequence for a control request: health probes between requests change none of their ids', async () => {
    const quiet = freshSimulator();
    const probed = freshSimulator();
    const steps = (sim: Simulator) => variedSteps(sim).filter(([, path]) => !path.startsWith('/__sim'));
    const idsQuiet = idsOf(await run(quiet, steps(quiet)));
    const idsProbed: string[] = [];
    for (const step of steps(probed)) {
      const probe = await call(probed, 'GET', '/__sim/health');
      expect(probe.headers['X-Request-ID']).toMatch(REQUEST_ID);
      expect(idsQuiet).not.toContain(probe.headers['X-Request-ID']);
      idsProbed.push(...idsOf(await run(probed, [step])));
    }
    expect(idsProbed).toEqual(idsQuiet);
  });

  it('gives the README’s curl walk-through its ids with seed 42, whatever control requests came first', async () => {
    const sim = freshSimulator({ seed: 42 });
    await call(sim, 'GET', '/__sim/health');
    await call(sim, 'GET', '/__sim/fixtures');
    const key = secretOf(sim, 'key_acme_read');
    const websites = await call(sim, 'GET', '/v1/query/websites', { key });
    const summary = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_store' }, body: { parameters: ['summary_metrics', 'top_pages'], preset: 'yesterday', limit: 3 } });
    expect([websites.json.requestId, summary.json.requestId]).toEqual(['req_Iv7PxvQzmCDv9PIq', 'req_mH1dgnizYuFFuBIH']);
  });

  it('issues other ids for another seed', async () => {
    const a = freshSimulator({ seed: 42 });
    const b = freshSimulator({ seed: 43 });
    const idsA = idsOf(await run(a, variedSteps(a).slice(0, 5)));
    const idsB = idsOf(await run(b, variedSteps(b).slice(0, 5)));
    for (let i = 0; i < idsA.length; i++) expect(idsB[i]).not.toBe(idsA[i]);
  });
});
