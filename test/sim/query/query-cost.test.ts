import { describe, expect, it } from 'vitest';
import { DEFAULT_RESULT_CACHE_ENTRIES } from '../../../src/sim/query/engine/result-cache.js';
import { DEFAULT_TRAFFIC_CACHE_BYTES } from '../../../src/sim/traffic-cache.js';
import type { Simulator } from '../../../src/index.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

interface CacheStats {
  results: { entries: number; hits: number; misses: number };
  traffic: { entries: number; bytes: number };
}

async function cacheStats(sim: Simulator): Promise<CacheStats> {
  const health = await call(sim, 'GET', '/__sim/health');
  return health.json.caches as CacheStats;
}

async function summary(sim: Simulator, websiteId: string, startDate: string, endDate: string): Promise<Record<string, number>[]> {
  const answer = await call(sim, 'POST', '/v1/query', {
    key: secretOf(sim, 'key_acme_read'),
    query: { website_id: websiteId },
    body: { parameters: ['summary_metrics'], startDate, endDate, limit: 10_000 },
  });
  expect(answer.status).toBe(200);
  return answer.json.data[0].data as Record<string, number>[];
}

async function track(sim: Simulator, websiteId: string, timestamp: number): Promise<void> {
  const answer = await call(sim, 'POST', '/track', { key: secretOf(sim, 'key_acme_track'), query: { website_id: websiteId }, body: { name: 'signup', timestamp } });
  expect(answer.status).toBe(200);
}

const totalEvents = (rows: Record<string, number>[]): number => rows.reduce((sum, row) => sum + (row.total_events ?? 0), 0);

describe('what a tracked event invalidates', () => {
  it('leaves the cached results of another website cached, and shows in the next query of its own website', async () => {
    const sim = freshSimulator();
    await summary(sim, 'web_acme_www', '2025-05-01', '2025-06-02');
    const before = await summary(sim, 'web_acme_store', '2025-05-01', '2025-06-02');
    const cached = await cacheStats(sim);

    await track(sim, 'web_acme_www', Date.UTC(2025, 5, 2, 9, 0));
    const other = await summary(sim, 'web_acme_store', '2025-05-01', '2025-06-02');
    const afterOther = await cacheStats(sim);
    expect(other).toEqual(before);
    // Nothing computed again: the same query of the other website is answered from its last
    // answer (an event elsewhere leaves that standing), without reaching the result cache.
    expect(afterOther.results.misses).toBe(cached.results.misses);
    expect(afterOther.results.hits).toBe(cached.results.hits);

    const own = await summary(sim, 'web_acme_www', '2025-05-01', '2025-06-02');
    expect((await cacheStats(sim)).results.misses).toBe(cached.results.misses + 1);
    expect(totalEvents(own)).toBe(totalEvents(await summary(freshSimulator(), 'web_acme_www', '2025-05-01', '2025-06-02')) + 1);
  });

  it('leaves the cached results of ranges that do not cover the event day cached', async () => {
    const sim = freshSimulator();
    const may = await summary(sim, 'web_acme_www', '2025-05-01', '2025-05-31');
    const cached = await cacheStats(sim);
    await track(sim, 'web_acme_www', Date.UTC(2025, 5, 2, 9, 0));
    expect(await summary(sim, 'web_acme_www', '2025-05-01', '2025-05-31')).toEqual(may);
    expect((await cacheStats(sim)).results.misses).toBe(cached.results.misses);
  });
});

describe('the cost of a long range', () => {
  it('answers a 6-year summary of a small website as the two halves of the range answer it, row for row', async () => {
    const sim = freshSimulator();
    const whole = await summary(sim, 'web_acme_www', '2019-06-03', '2025-06-02');
    expect(whole).toHaveLength(2192);
    const first = await summary(sim, 'web_acme_www', '2019-06-03', '2022-06-02');
    const second = await summary(sim, 'web_acme_www', '2022-06-03', '2025-06-02');
    expect([...first, ...second]).toEqual(whole);
    expect(totalEvents(whole)).toBe(totalEvents(first) + totalEvents(second));
  });

  it('keeps the generated traffic within its byte cap and the results within their entry cap', async () => {
    const cap = 2 * 1024 * 1024;
    const sim = freshSimulator({ trafficCacheBytes: cap });
    // A range no other simulator of the process asked: their rows of seeded traffic are shared.
    const whole = await summary(sim, 'web_acme_www', '2019-06-04', '2025-06-02');
    const stats = await cacheStats(sim);
    expect(stats.traffic.bytes).toBeGreaterThan(0);
    expect(stats.traffic.bytes).toBeLessThanOrEqual(cap);
    expect(stats.traffic.entries).toBeLessThan(2192);
    expect(stats.results.entries).toBeLessThanOrEqual(DEFAULT_RESULT_CACHE_ENTRIES);
    expect(await summary(freshSimulator(), 'web_acme_www', '2019-06-04', '2025-06-02')).toEqual(whole);
  });

  it('bounds the generated traffic by default', async () => {
    const sim = freshSimulator();
    await summary(sim, 'web_acme_docs', '2024-06-02', '2025-06-02');
    expect((await cacheStats(sim)).traffic.bytes).toBeLessThanOrEqual(DEFAULT_TRAFFIC_CACHE_BYTES);
  });
});

describe('a long batch', () => {
  it('lets other work run between its queries, through the yield the adapter gives', async () => {
    let yields = 0;
    const sim = freshSimulator({
      yieldToEventLoop: () => {
        yields++;
        return Promise.resolve();
      },
    });
    const batch = Array.from({ length: 5 }, () => ({ parameters: ['summary_metrics'], preset: 'last_7d', granularity: 'hourly' }));
    const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { website_id: 'web_globex_news' }, body: batch });
    expect(answer.status).toBe(200);
    expect(answer.json.results).toHaveLength(5);
    expect(yields).toBe(4);
  });

  it('does not refill the caches from a website changed while it yielded: the next query sees the change', async () => {
    const SITE = { website_id: 'web_acme_labs' };
    const BATCH = [{ parameters: ['top_pages'], preset: 'last_7d' }, { parameters: ['summary_metrics'], preset: 'last_7d' }];
    const SUMMARY = { parameters: ['summary_metrics'], preset: 'last_7d' };
    const RESIZE = { trafficSize: 'large' };
    let changeDuringYield: (() => Promise<unknown>) | undefined;
    const sim = freshSimulator({
      yieldToEventLoop: async () => {
        const change = changeDuringYield;
        changeDuringYield = undefined;
        await change?.();
      },
    });
    const key = secretOf(sim, 'key_acme_all');
    changeDuringYield = () => call(sim, 'PATCH', '/v1/websites/web_acme_labs', { key, body: RESIZE });
    expect((await call(sim, 'POST', '/v1/query', { key, query: SITE, body: BATCH })).status).toBe(200);
    const after = await call(sim, 'POST', '/v1/query', { key, query: SITE, body: SUMMARY });

    const reference = freshSimulator();
    const referenceKey = secretOf(reference, 'key_acme_all');
    expect((await call(reference, 'PATCH', '/v1/websites/web_acme_labs', { key: referenceKey, body: RESIZE })).status).toBe(200);
    const expected = await call(reference, 'POST', '/v1/query', { key: referenceKey, query: SITE, body: SUMMARY });
    expect(after.json.data).toEqual(expected.json.data);
  });
});
