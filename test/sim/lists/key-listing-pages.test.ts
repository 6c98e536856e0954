import { beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/index.js';
import { keyListResponseSchema } from '../../../src/contract/keys.js';
import { call, freshSimulator } from '../../helpers/sim.js';
import { createdKey, READ_KEY } from '../keys/support.js';

const CREATED = 1_200;

describe('GET /__sim/keys pages a long list', () => {
  let sim: Simulator;
  let fixtures: number;
  beforeAll(async () => {
    sim = freshSimulator();
    fixtures = (await call(sim, 'GET', '/__sim/keys')).json.total;
    for (let i = 0; i < CREATED; i++) await createdKey(sim, { ...READ_KEY, name: `bulk ${i}` });
  });

  const list = (query: Record<string, string> = {}) => call(sim, 'GET', '/__sim/keys', { query });

  it('answers at most 1,000 keys without page parameters, and total counts them all', async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(keyListResponseSchema.parse(answer.json)).toBeTruthy();
    expect(answer.json.keys).toHaveLength(1_000);
    expect(answer.json.total).toBe(fixtures + CREATED);
    expect(answer.text).not.toMatch(/dbdy_[A-Za-z0-9]{48}/);
  });

  it('gives the rest on page 2, fixtures first and the created keys in creation order', async () => {
    const first = (await list()).json.keys as { id: string; name: string; fixture: boolean }[];
    const second = await list({ page: '2' });
    expect(second.status).toBe(200);
    const rest = second.json.keys as { id: string; name: string }[];
    expect(first.length + rest.length).toBe(fixtures + CREATED);
    expect(first.slice(0, fixtures).every((k) => k.fixture)).toBe(true);
    expect(rest.at(-1)?.name).toBe(`bulk ${CREATED - 1}`);
    expect(new Set([...first, ...rest].map((k) => k.id)).size).toBe(fixtures + CREATED);
  });

  it('pages what the filters keep: total is the filtered count', async () => {
    const answer = await list({ organizationId: 'org_acme', status: 'active', limit: '10', page: '3' });
    expect(answer.status).toBe(200);
    expect(answer.json.keys).toHaveLength(10);
    expect(answer.json.keys.every((k: { organizationId: string; status: string }) => k.organizationId === 'org_acme' && k.status === 'active')).toBe(true);
    expect(answer.json.total).toBeGreaterThanOrEqual(CREATED);
  });

  it('refuses limit=1001 and page=0 with 400 VALIDATION_ERROR naming the parameter', async () => {
    for (const [query, field] of [
      [{ limit: '1001' }, 'limit'],
      [{ page: '0' }, 'page'],
    ] as const) {
      const answer = await list(query);
      expect(answer.status).toBe(400);
      expect(answer.json.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(answer.json.details)).toContain(field);
    }
  });
});
