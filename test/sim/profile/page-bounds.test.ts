import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/sim/simulator.js';

type Profile = 'spec' | 'live';

const sims: Record<Profile, Simulator> = { spec: freshSimulator(), live: freshSimulator({ profile: 'live' }) };
const QUERY = { parameters: ['summary_metrics'], startDate: '2025-05-26', endDate: '2025-06-01' };

function query(profile: Profile, body: unknown, ids: Record<string, string> = { website_id: 'web_acme_www' }, keyId: string | null = 'key_acme_read'): Promise<Answer> {
  return call(sims[profile], 'POST', '/v1/query', { query: ids, body, ...(keyId === null ? {} : { key: secretOf(sims[profile], keyId) }) });
}

function expectSchemaRefusal(answer: Answer, field: string): void {
  expect(answer.status).toBe(422);
  expect(answer.json).toMatchObject({ success: false, code: 'VALIDATION', error: 'Some of the details are invalid. Check them and try again.' });
  expect(answer.json.details.map((d: { field: string }) => d.field)).toEqual([field]);
}

describe('page-bounds', () => {
  it.each([
    [{ limit: 0 }, 'body.limit'],
    [{ limit: 10001 }, 'body.limit'],
    [{ limit: 1.5 }, 'body.limit'],
    [{ page: 0 }, 'body.page'],
    [{ page: 1.5 }, 'body.page'],
  ])('refuses %o on /v1/query with 422 VALIDATION under live', async (bounds, field) => {
    expectSchemaRefusal(await query('live', { ...QUERY, ...bounds }), field);
  });

  it.each([
    [{ limit: 0 }, 'limit', 'Limit must be at least 1'],
    [{ limit: 10001 }, 'limit', 'Limit cannot exceed 10000'],
    [{ page: 0 }, 'page', 'Page must be at least 1'],
  ])('refuses %o with the route’s 400 VALIDATION_ERROR under spec', async (bounds, field, message) => {
    const answer = await query('spec', { ...QUERY, ...bounds });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: 'VALIDATION_ERROR', error: message, details: [{ field, message }] });
  });

  it.each([[{ limit: 1.5 }, 'body.limit'], [{ page: 1.5 }, 'body.page']])('refuses the fractional %o with 422 VALIDATION under spec too', async (bounds, field) => {
    expectSchemaRefusal(await query('spec', { ...QUERY, ...bounds }), field);
  });

  it('names the batch item whose limit or page is out of bounds under live, refusing the whole batch with 422', async () => {
    const answer = await query('live', [QUERY, { ...QUERY, limit: 0, page: 0 }]);
    expect(answer.status).toBe(422);
    expect(answer.json.code).toBe('VALIDATION');
    expect(answer.json.details.map((d: { field: string }) => d.field)).toEqual(['body[1].limit', 'body[1].page']);
  });

  it('answers the bounds themselves (limit 1 and 10000, page 1) under both profiles', async () => {
    for (const profile of ['spec', 'live'] as const) {
      for (const bounds of [{ limit: 1, page: 1 }, { limit: 10000 }]) {
        const answer = await query(profile, { ...QUERY, ...bounds });
        expect(answer.status, `${profile} ${JSON.stringify(bounds)}`).toBe(200);
        expect(answer.json.meta).toMatchObject({ limit: bounds.limit, page: 1 });
      }
    }
  });

  it('refuses an out-of-bounds limit with 422 under live before the website’s reach is judged', async () => {
    expectSchemaRefusal(await query('live', { ...QUERY, limit: 0 }, { website_id: 'web_globex_app' }), 'body.limit');
    expect((await query('spec', { ...QUERY, limit: 0 }, { website_id: 'web_globex_app' })).status).toBe(403);
  });
});
