import { beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/index.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';
import { bulkWebsiteId, worldWithBulkWebsites } from './bulk-world.js';

const BULK = 2_500;

describe('GET /v1/query/websites pages a long list', () => {
  let sim: Simulator;
  let key: string;
  let acmeFixtures: number;
  beforeAll(async () => {
    sim = freshSimulator({ createWorld: worldWithBulkWebsites(BULK) });
    key = secretOf(sim, 'key_acme_read');
    const small = freshSimulator();
    acmeFixtures = (await call(small, 'GET', '/v1/query/websites', { key: secretOf(small, 'key_acme_read') })).json.total;
  });

  const list = (query: Record<string, string> = {}) => call(sim, 'GET', '/v1/query/websites', { key, query });

  it('answers at most 1,000 websites without page parameters, and total counts them all', async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(answer.json.websites).toHaveLength(1_000);
    expect(answer.json.total).toBe(acmeFixtures + BULK);
    expect(Object.keys(answer.json)).toEqual(['success', 'requestId', 'websites', 'total']);
  });

  it('walks every website once, oldest first, page by page until page × limit reaches total', async () => {
    const seen: string[] = [];
    let total = Infinity;
    for (let page = 1; (page - 1) * 1_000 < total; page++) {
      const answer = await list({ page: String(page) });
      expect(answer.status).toBe(200);
      total = answer.json.total;
      seen.push(...answer.json.websites.map((w: { id: string }) => w.id));
    }
    expect(seen).toHaveLength(acmeFixtures + BULK);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.at(-1)).toBe(bulkWebsiteId(BULK - 1));
  });

  it('answers a smaller page with limit, and an empty page past the end with the same total', async () => {
    const answer = await list({ page: '2', limit: '3' });
    expect(answer.json.websites.map((w: { id: string }) => w.id)).toEqual(
      (await list({ limit: '6' })).json.websites.slice(3, 6).map((w: { id: string }) => w.id),
    );
    const past = await list({ page: '99', limit: '1000' });
    expect(past.status).toBe(200);
    expect(past.json.websites).toEqual([]);
    expect(past.json.total).toBe(acmeFixtures + BULK);
  });

  it('refuses a limit over 1,000, a limit of 0 and a page that is not a whole number with 400 naming the parameter', async () => {
    for (const [query, field] of [
      [{ limit: '1001' }, 'limit'],
      [{ limit: '0' }, 'limit'],
      [{ page: 'two' }, 'page'],
    ] as const) {
      const answer = await list(query);
      expect(answer.status).toBe(400);
      expect(answer.json.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(answer.json.details)).toContain(field);
    }
  });
});
