import { describe, expect, it } from 'vitest';
import { as, manageSimulator, refusal, type Client } from './support.js';

/** Creates `count` flags, advancing the clock between some of them so createdAt ties and differs. */
async function createFlags(admin: Client, advance: (ms: number) => void, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 7 === 0) advance(1_000);
    const answer = await admin.post('/v1/flags', { key: `flag-${String(i).padStart(2, '0')}` });
    ids.push(answer.json.data.id);
  }
  return ids;
}

describe('management lists: pagination', () => {
  it('walks every item exactly once across pages, ordered by createdAt then id', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const created = await createFlags(admin, (ms) => sim.clock.advance(ms), 45);
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push((await admin.get('/v1/flags', { page: String(page) })).json);
    expect(pages.map((p) => p.data.length)).toEqual([20, 20, 8]);
    expect(pages.map((p) => p.pagination)).toEqual([
      { page: 1, limit: 20, total: 48, hasMore: true },
      { page: 2, limit: 20, total: 48, hasMore: true },
      { page: 3, limit: 20, total: 48, hasMore: false },
    ]);
    const ids = pages.flatMap((p) => p.data.map((f: { id: string }) => f.id));
    expect(ids).toEqual(['flag_acme_dark_mode', 'flag_acme_new_checkout', 'flag_acme_docs_search', ...created]);
    const items = pages.flatMap((p) => p.data as { id: string; createdAt: string }[]);
    const sorted = [...items].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.id < b.id ? -1 : 1));
    expect(items).toEqual(sorted);
  });

  it('honours limit up to 100 and answers an empty page past the end', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    await createFlags(admin, (ms) => sim.clock.advance(ms), 45);
    const small = await admin.get('/v1/flags', { limit: '5', page: '2' });
    expect(small.json.data.map((f: { key: string }) => f.key)).toEqual(['flag-02', 'flag-03', 'flag-04', 'flag-05', 'flag-06']);
    const all = await admin.get('/v1/flags', { limit: '100' });
    expect(all.json.data).toHaveLength(48);
    expect(all.json.pagination).toEqual({ page: 1, limit: 100, total: 48, hasMore: false });
    const past = await admin.get('/v1/flags', { page: '9' });
    expect(past.json.data).toEqual([]);
    expect(past.json.pagination).toEqual({ page: 9, limit: 20, total: 48, hasMore: false });
  });

  it('answers 400 naming page or limit when they are not usable', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    for (const [query, field] of [
      [{ limit: '101' }, 'limit'],
      [{ limit: '0' }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ page: '0' }, 'page'],
      [{ page: '-1' }, 'page'],
    ] as const) {
      const answer = await admin.get('/v1/links', query);
      expect(refusal(answer)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(answer.json.details[0].field).toBe(field);
    }
    expect((await admin.get('/v1/status-pages/sp_acme_status/incidents', { limit: '500' })).json.details[0]).toEqual({
      field: 'limit',
      message: 'limit must be between 1 and 100',
    });
  });

  it('paginates every list the same way', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    for (const path of ['/v1/websites', '/v1/links', '/v1/monitors', '/v1/status-pages', '/v1/status-pages/sp_acme_status/incidents', '/v1/flags']) {
      const answer = await admin.get(path, { limit: '1', page: '2' });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.json)).toEqual(['success', 'requestId', 'data', 'pagination']);
      expect(answer.json.data).toHaveLength(1);
      expect(answer.json.pagination).toMatchObject({ page: 2, limit: 1 });
    }
  });
});
