import { describe, expect, it } from 'vitest';
import { sessionCookie, sessionTokenOf } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf, type Answer, type CallOptions } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/sim/simulator.js';

type Profile = 'spec' | 'live';

const sims: Record<Profile, Simulator> = { spec: freshSimulator(), live: freshSimulator({ profile: 'live' }) };
const DATES = { startDate: '2025-05-26', endDate: '2025-06-01' };

/** A query of `types` on `ids` (Globex, on the free plan, unless told), with Globex's global key unless told. */
function query(profile: Profile, types: readonly string[], ids: Record<string, string>, options?: CallOptions): Promise<Answer> {
  const credential = options ?? { key: secretOf(sims[profile], 'key_globex_read') };
  return call(sims[profile], 'POST', '/v1/query', { query: ids, body: { ...DATES, parameters: types }, ...credential });
}

function expectGated(answer: Answer, type: string): void {
  expect(answer.status).toBe(402);
  expect(answer.json).toMatchObject({ success: false, code: 'FEATURE_UNAVAILABLE', error: 'This feature is not available on the plan' });
  expect(answer.json.hint).toContain(type);
}

describe('plan-gate', () => {
  it('answers 402 FEATURE_UNAVAILABLE for an error type on a free-plan website under both profiles', async () => {
    for (const profile of ['spec', 'live'] as const) expectGated(await query(profile, ['error_summary'], { website_id: 'web_globex_app' }), 'error_summary');
  });

  it('gates error_fingerprints on a free-plan website under live, and serves it under spec', async () => {
    expectGated(await query('live', ['error_fingerprints'], { website_id: 'web_globex_app' }), 'error_fingerprints');
    expect((await query('spec', ['error_fingerprints'], { website_id: 'web_globex_app' })).status).toBe(200);
  });

  it('gates an organization_id query of a free-plan organization under live, and serves it under spec', async () => {
    for (const type of ['error_summary', 'error_fingerprints']) {
      expectGated(await query('live', [type], { organization_id: 'org_globex' }), type);
      expect((await query('spec', [type], { organization_id: 'org_globex' })).status).toBe(200);
    }
  });

  it('gates a query with no id whose free-plan organization a global key implies under live, and serves it under spec', async () => {
    expectGated(await query('live', ['recent_errors'], {}), 'recent_errors');
    expect((await query('spec', ['recent_errors'], {})).status).toBe(200);
  });

  it('gates a query with no id whose free-plan organization a session implies under live, and serves it under spec', async () => {
    for (const profile of ['spec', 'live'] as const) {
      const answer = await query(profile, ['error_fingerprints'], {}, { headers: sessionCookie(sessionTokenOf(sims[profile], 'user_bob')) });
      if (profile === 'live') expectGated(answer, 'error_fingerprints');
      else expect(answer.status).toBe(200);
    }
  });

  it('fails a whole batch with 402 under live when one item names error_fingerprints at organization scope', async () => {
    const answer = await call(sims.live, 'POST', '/v1/query', {
      key: secretOf(sims.live, 'key_globex_read'),
      query: { organization_id: 'org_globex' },
      body: [{ ...DATES, parameters: ['summary_metrics'] }, { ...DATES, parameters: ['error_fingerprints'] }],
    });
    expectGated(answer, 'error_fingerprints');
  });

  it('serves every gated type at every scope of an organization whose plan has error tracking under live', async () => {
    const types = ['error_summary', 'error_fingerprints'];
    const key = { key: secretOf(sims.live, 'key_acme_read') };
    const scopes: Record<string, string>[] = [{ website_id: 'web_acme_store' }, { organization_id: 'org_acme' }, {}];
    for (const ids of scopes) {
      const answer = await query('live', types, ids, key);
      expect(answer.status, JSON.stringify(ids)).toBe(200);
    }
  });
});
