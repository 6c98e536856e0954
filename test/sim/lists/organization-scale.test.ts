import { beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/index.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';
import { worldWithBulkWebsites } from './bulk-world.js';

const BULK = 10_000;
/** Acme's fixture websites: a large, two medium, a small and a tiny one. */
const ACME_FIXTURES = 5;

describe('an organization of 10,000 websites', () => {
  let sim: Simulator;
  let key: string;
  beforeAll(() => {
    sim = freshSimulator({ createWorld: worldWithBulkWebsites(BULK) });
    key = secretOf(sim, 'key_acme_read');
  });

  const orgQuery = (body: unknown) => call(sim, 'POST', '/v1/query', { key, query: { organization_id: 'org_acme' }, body });

  it('answers an organization-wide query of a day over every website with 200', { timeout: 120_000 }, async () => {
    const answer = await orgQuery({ parameters: ['summary_metrics', 'top_pages'], preset: 'yesterday', limit: 5 });
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    const [summary, pages] = answer.json.data as { parameter: string; success: boolean; data: Record<string, number>[] }[];
    expect(summary?.success).toBe(true);
    expect(summary?.data).toHaveLength(1);
    expect(summary?.data[0]?.pageviews).toBeGreaterThan(0);
    expect(pages?.data).toHaveLength(5);
  });

  it('counts ten tiny websites as one in the work budget: a week over 10,005 websites asks for 7026 website-days, refused with 400 naming the cap', async () => {
    const answer = await orgQuery({ parameters: ['country'], preset: 'last_7d' });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('VALIDATION_ERROR');
    expect(answer.json.details).toEqual([
      {
        field: 'parameters[0]',
        message:
          "country asks for 7026 website-days of data; one parameter may ask for at most 2000, five years of one website (a small website's day counts half, a tiny one's a tenth). Shorten its range or name one website",
      },
    ]);
  });

  it('still answers one named website of the organization as before', async () => {
    const answer = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_bulk_09999' }, body: { parameters: ['summary_metrics'], preset: 'last_30d' } });
    expect(answer.status).toBe(200);
  });

  it('lists the 10,005 websites in pages of 1,000', async () => {
    const answer = await call(sim, 'GET', '/v1/query/websites', { key, query: { page: '11' } });
    expect(answer.status).toBe(200);
    expect(answer.json.total).toBe(BULK + ACME_FIXTURES);
    expect(answer.json.websites).toHaveLength(5);
  });
});

describe('an organization of 10,000 websites of ordinary traffic', () => {
  it('refuses an organization-wide day with 400 naming the cap instead of generating the days of 10,000 small websites', async () => {
    const sim = freshSimulator({
      createWorld: (seed) => {
        const world = worldWithBulkWebsites(BULK)(seed);
        return { ...world, websites: world.websites.map((w) => (w.id.startsWith('web_bulk_') ? { ...w, size: 'small' as const, baseDailySessions: 150 } : w)) };
      },
    });
    const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { organization_id: 'org_acme' }, body: { parameters: ['country'], preset: 'yesterday' } });
    expect(answer.status).toBe(400);
    expect(answer.json.details[0].message).toMatch(/^country asks for 5004 website-days of data; one parameter may ask for at most 2000,/);
  });
});
