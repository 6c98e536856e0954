import { describe, expect, it } from 'vitest';
import { freshSimulator } from '../../helpers/sim.js';
import { column, rowsOf, runQuery, STORE, STORE_MONITOR, WWW, type Row } from './support.js';

const sim = freshSimulator();
const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };

async function page(type: string, limit: number | undefined, pageNumber: number | undefined, target = STORE, keyId = 'key_acme_read'): Promise<Row[]> {
  const res = await runQuery(
    sim,
    { parameters: [type], ...WEEK, ...(limit === undefined ? {} : { limit }), ...(pageNumber === undefined ? {} : { page: pageNumber }) },
    target,
    keyId,
  );
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return rowsOf(res, type);
}

describe('pagination with limit and page', () => {
  it('continues page 1 on page 2 and page 3 with no overlap and no gap (top_pages, limit 10)', async () => {
    const pages = [await page('top_pages', 10, 1), await page('top_pages', 10, 2), await page('top_pages', 10, 3)];
    for (const p of pages) expect(p.length).toBe(10);
    const paths = pages.flat().map((r) => r.path);
    expect(new Set(paths).size).toBe(30);
    expect(pages.flat()).toEqual(await page('top_pages', 30, 1));
  });

  it('slices the full ordered list: page k of size n is rows (k-1)·n … k·n-1', async () => {
    const all = await page('top_pages', 10000, 1);
    expect(all.length).toBeGreaterThan(100);
    for (const [limit, pageNumber] of [
      [7, 1],
      [7, 4],
      [25, 3],
      [50, 2],
    ] as const) {
      expect(await page('top_pages', limit, pageNumber), `limit ${limit} page ${pageNumber}`).toEqual(all.slice((pageNumber - 1) * limit, pageNumber * limit));
    }
  });

  it('returns a short last page and an empty page past the end, still with success', async () => {
    const all = await page('top_pages', 10000, 1);
    const limit = 50;
    const lastPage = Math.ceil(all.length / limit);
    const last = await page('top_pages', limit, lastPage);
    expect(last).toEqual(all.slice((lastPage - 1) * limit));
    expect(last.length).toBeLessThanOrEqual(limit);
    expect(await page('top_pages', limit, lastPage + 1)).toEqual([]);
  });

  it('pages every parameter of the query with the same limit and page', async () => {
    const res = await runQuery(sim, { parameters: ['top_pages', 'city'], ...WEEK, limit: 4, page: 2 }, STORE);
    const allPages = await page('top_pages', 10000, 1);
    const allCities = await page('city', 10000, 1);
    expect(rowsOf(res, 'top_pages')).toEqual(allPages.slice(4, 8));
    expect(rowsOf(res, 'city')).toEqual(allCities.slice(4, 8));
    expect(res.json.meta).toEqual(expect.objectContaining({ page: 2, limit: 4 }));
  });

  it('answers every bucket of events_by_date whatever limit and page ask, as its live SQL has no LIMIT', async () => {
    const body = { parameters: ['events_by_date'], startDate: '2025-05-31', endDate: '2025-06-01', granularity: 'hourly' };
    const all = column<string>(rowsOf(await runQuery(sim, body), 'events_by_date'), 'date');
    const paged = column<string>(rowsOf(await runQuery(sim, { ...body, limit: 24, page: 2 }), 'events_by_date'), 'date');
    expect(all.length).toBeGreaterThan(24);
    expect(paged).toEqual(all);
  });

  it('accepts the bounds limit 1 and limit 10000', async () => {
    expect((await page('top_pages', 1, 1)).length).toBe(1);
    expect((await page('top_pages', 10000, 1)).length).toBeGreaterThan(100);
  });
});

describe('default page size', () => {
  it("uses the type's defaultLimit when the request has no limit: 100 rows of top_pages and city", async () => {
    const all = await page('top_pages', 10000, 1);
    expect(all.length).toBeGreaterThan(100);
    expect(await page('top_pages', undefined, undefined)).toEqual(all.slice(0, 100));
    expect((await page('city', undefined, undefined)).length).toBe(100);
    const res = await runQuery(sim, { parameters: ['top_pages'], ...WEEK }, STORE);
    expect(res.json.meta.limit).toBe(100);
  });

  it('uses 100 for uptime_recent_checks, whose live builder sets no limit', async () => {
    const rows = await page('uptime_recent_checks', undefined, undefined, STORE_MONITOR, 'key_acme_monitors');
    expect(rows.length).toBe(100);
    const res = await runQuery(sim, { parameters: ['uptime_recent_checks'], ...WEEK }, STORE_MONITOR, 'key_acme_monitors');
    expect(res.json.meta.limit).toBe(100);
  });

  it('reports 20, the defaultLimit of device_types, in meta.limit', async () => {
    const res = await runQuery(sim, { parameters: ['device_types'], ...WEEK }, WWW);
    expect(res.json.meta.limit).toBe(20);
  });

  it('pages with the default limit when only page is given', async () => {
    const all = await page('city', 10000, 1);
    expect(await page('city', undefined, 2)).toEqual(all.slice(100, 200));
  });
});

describe('invalid limit and page', () => {
  it.each([
    [{ limit: 0 }, 'limit', 'Limit must be at least 1'],
    [{ limit: -5 }, 'limit', 'Limit must be at least 1'],
    [{ limit: 10001 }, 'limit', 'Limit cannot exceed 10000'],
    [{ page: 0 }, 'page', 'Page must be at least 1'],
    [{ page: -1 }, 'page', 'Page must be at least 1'],
  ])('rejects %j with 400 VALIDATION_ERROR and the service message', async (paging, field, message) => {
    const res = await runQuery(sim, { parameters: ['top_pages'], ...WEEK, ...paging });
    expect(res.status).toBe(400);
    expect(res.json).toEqual(expect.objectContaining({ success: false, code: 'VALIDATION_ERROR', error: message, requestId: res.headers['X-Request-ID'] }));
    expect(res.json.details).toEqual([{ field, message }]);
  });

  it.each([
    [{ limit: 'x' }, 'body.limit'],
    [{ limit: 1.5 }, 'body.limit'],
    [{ limit: '10' }, 'body.limit'],
    [{ page: 1.5 }, 'body.page'],
    [{ page: '2' }, 'body.page'],
    [{ limit: null }, 'body.limit'],
  ])('rejects %j with 422 VALIDATION', async (paging, field) => {
    const res = await runQuery(sim, { parameters: ['top_pages'], ...WEEK, ...paging });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('VALIDATION');
    expect(res.json.requestId).toBe(res.headers['X-Request-ID']);
    expect((res.json.details as { field: string }[]).map((d) => d.field)).toContain(field);
  });
});
