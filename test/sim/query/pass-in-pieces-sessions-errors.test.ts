import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/index.js';

// Seeds of their own: the suite's files share a process, and with it the days and seeded
// results other simulators of a seed computed.
const ask = (sim: Simulator, type: string, startDate: string, filters: unknown[]): Promise<Answer> =>
  call(sim, 'POST', '/v1/query', {
    key: secretOf(sim, 'key_acme_read'),
    query: { website_id: 'web_acme_store' },
    body: { parameters: [type], startDate, endDate: '2025-06-02', limit: 5, filters },
  });

/** These generate weeks of a large website's days, several times: more than the suite's default on a busy machine. */
const LONG_RANGE_TIMEOUT_MS = 60_000;

/** A type, and filters that make its pass scan sessions or pick its error. */
const CASES: readonly [string, unknown[]][] = [
  // A filter that keeps every session: the flows are counted session by session, not from digests.
  ['session_flow', [{ field: 'country', op: 'ne', value: 'Nowhere' }]],
  // Its errors, then every control day's sessions, then its strata sorted.
  ['error_route_continuation_comparison', [{ field: 'message', op: 'eq', value: 'Failed to fetch' }]],
];

describe('the sessions and errors families in pieces', () => {
  it('let other requests run between pieces of a long pass, with the rows of a simulator that keeps no day', async () => {
    for (const [type, filters] of CASES) {
      const seed = `pass-in-pieces-${type}`;
      let yields = 0;
      const sim = freshSimulator({ seed, limits: 'off', yieldToEventLoop: () => Promise.resolve(void yields++) });
      // Generates and keeps ten weeks of days, and their records.
      expect((await ask(sim, type, '2025-03-24', filters)).status).toBe(200);
      yields = 0;
      // A day shorter: another result, over days already kept, so every yield is the pass's.
      const answer = await ask(sim, type, '2025-03-25', filters);
      expect(answer.status).toBe(200);
      expect(answer.json.data[0].success, type).toBe(true);
      expect(yields, type).toBeGreaterThan(1);
      const whole = await ask(freshSimulator({ seed, limits: 'off', trafficCacheBytes: 0 }), type, '2025-03-25', filters);
      expect(answer.json.data, type).toEqual(whole.json.data);
    }
  }, LONG_RANGE_TIMEOUT_MS);
});
