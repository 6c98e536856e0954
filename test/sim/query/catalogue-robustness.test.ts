import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILTER_OPERATORS } from '../../../src/contract/query-request.js';
import { SORTABLE_FIELDS } from '../../../src/sim/query/engine/execute.js';
import { allowedFilters, QUERY_TYPES } from '../../../src/sim/query/registry.js';
import { freshSimulator } from '../../helpers/sim.js';
import { LAUNCH_LINK, outcomesOf, runQuery, STORE, STORE_MONITOR } from './support.js';

const sim = freshSimulator({ profile: 'live', limits: 'off' });

function targetOf(name: string): { target: Record<string, string>; keyId: string } {
  const type = QUERY_TYPES.find((t) => t.name === name);
  if (type?.target === 'link') return { target: LAUNCH_LINK, keyId: 'key_acme_read' };
  if (type?.target === 'monitor') return { target: STORE_MONITOR, keyId: 'key_acme_monitors' };
  return { target: STORE, keyId: 'key_acme_read' };
}

const day = fc.integer({ min: 0, max: 400 }).map((n) => new Date(Date.UTC(2024, 11, 1) + n * 86_400_000).toISOString().slice(0, 10));
const filter = fc.record({
  field: fc.constantFrom('path', 'country', 'device_type', 'browser_name', 'referrer', 'utm_source', 'profile_id', 'anonymous_id', 'event_name', 'error_type', 'metric_name', 'session_id', 'nope'),
  op: fc.constantFrom(...FILTER_OPERATORS),
  value: fc.oneof(fc.constantFrom('/', 'US', 'mobile', 'Chrome', 'google.com', '', 'x'), fc.array(fc.constantFrom('US', 'DE', '/pricing'), { maxLength: 3 })),
});

describe('every type under any filter, sort and range', () => {
  it('answers 200 with one outcome per parameter, never a 500, for random combinations over the whole catalogue', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...QUERY_TYPES.map((t) => t.name)),
        day,
        day,
        fc.array(filter, { maxLength: 3 }),
        fc.option(fc.tuple(fc.constantFrom(...SORTABLE_FIELDS, 'bogus'), fc.constantFrom('asc' as const, 'desc' as const)), { nil: undefined }),
        fc.constantFrom('daily', 'hourly'),
        async (name, a, b, filters, sort, granularity) => {
          const [startDate, endDate] = a <= b ? [a, b] : [b, a];
          const { target, keyId } = targetOf(name);
          const body = { parameters: [name], startDate, endDate, filters, granularity, ...(sort ? { sortBy: sort[0], sortOrder: sort[1] } : {}) };
          const res = await runQuery(sim, body, target, keyId);
          expect(res.status, `${JSON.stringify(body)} → ${res.text.slice(0, 200)}`).toBeLessThan(500);
          if (res.status === 200) {
            const [outcome] = outcomesOf(res);
            expect(outcome?.parameter).toBe(name);
            if (!outcome?.success) expect(outcome?.error).toBe('Query execution failed');
          }
        },
      ),
      { numRuns: 300, seed: 12 },
    );
    // 300 queries of up to 400 days on the largest website: about 12 s alone, more beside other files.
  }, 60_000);

  it('keeps allowedFilters to the 14 global fields followed by each type’s own', () => {
    for (const type of QUERY_TYPES) expect(allowedFilters(type).slice(0, 14), type.name).toContain('utm_campaign');
  });
});
