import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/index.js';
import { median } from '../../../src/sim/query/readers/aggregate.js';
import { createValueCounts } from '../../../src/sim/query/readers/value-counts.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

/**
 * A range without filters on one website is answered from per-day digests of its generated
 * sessions (src/sim/query/readers/digest-days.ts); with a filter, from the sessions. A filter
 * that keeps every session must then give the same rows, to the byte.
 */

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const KEEPS_ALL = [{ field: 'country', op: 'ne', value: 'Nowhere' }];
const TYPES = ['summary_metrics', 'events_by_date', 'top_pages', 'entry_pages', 'exit_pages', 'page_performance', 'browser_name', 'country', 'top_referrers', 'traffic_sources', 'sessions_time_series', 'sessions_by_device', 'sessions_by_browser', 'region', 'city', 'page_time_analysis', 'session_pages', 'session_flow', 'session_duration_distribution', 'traffic_segments', 'scroll_depth_summary', 'scroll_depth_distribution', 'page_scroll_performance', 'interaction_summary', 'frustration_by_page', 'engagement_quality_by_page'];

/** The `data` of each type's answer, unfiltered and filtered by {@link KEEPS_ALL}. */
async function bothWays(sim: Simulator, websiteId: string, key: string, range: object): Promise<[string[], string[]]> {
  const ask = async (filters: object[]): Promise<string[]> => {
    const texts: string[] = [];
    for (const type of TYPES) {
      const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, key), query: { website_id: websiteId }, body: { parameters: [type], ...range, filters, limit: 1000 } });
      expect(answer.status).toBe(200);
      expect(answer.json.data[0].success).toBe(true);
      texts.push(JSON.stringify(answer.json.data));
    }
    return texts;
  };
  return [await ask([]), await ask(KEEPS_ALL)];
}

/** 26 types, twice, over a year of the largest website: about 6 s alone, and several times that on a busy machine. */
const YEAR_TIMEOUT_MS = 60_000;

describe('per-day digests of long ranges', () => {
  it('answers an unfiltered year of the largest website as a filter that keeps every session does, row for row', async () => {
    const [digested, scanned] = await bothWays(freshSimulator({ limits: 'off' }), 'web_globex_news', 'key_globex_read', { startDate: '2024-06-01', endDate: '2025-05-31' });
    expect(digested).toEqual(scanned);
  }, YEAR_TIMEOUT_MS);

  it('adds the page views ingested on whole days and the sessions of days a time zone cuts, as a scan does', async () => {
    for (const profile of ['spec', 'live'] as const) {
      const sim = freshSimulator({ profile });
      const views = [1, 2, 3].map((i) => ({ eventId: `ev_digest_${i}`, name: 'screen_view', path: `https://acme.io/digest-${i % 2}`, sessionId: `s${i}`, anonymousId: `a${i}`, timestamp: Date.UTC(2025, 4, 20 + i, 10 + i) }));
      expect((await call(sim, 'POST', '/batch', { query: { client_id: 'web_acme_www' }, headers: { 'user-agent': CHROME }, body: views })).status).toBeLessThan(300);
      const [digested, scanned] = await bothWays(sim, 'web_acme_www', 'key_acme_read', { startDate: '2025-03-01', endDate: '2025-06-02' });
      expect(digested).toEqual(scanned);
      expect(digested.join()).toContain('/digest-1');
      const [zoned, zonedScan] = await bothWays(sim, 'web_acme_www', 'key_acme_read', { startDate: '2025-03-01', endDate: '2025-05-31', timezone: 'Asia/Tokyo' });
      expect(zoned).toEqual(zonedScan);
    }
  });

  it('takes the median of counted values as the median of every value', () => {
    const values = [5, 1, 9, 9, 2, 2, 2, 40, 7, 3];
    const counts = createValueCounts();
    counts.add(5);
    counts.addCounts([1, 2, 9], [1, 3, 2]);
    counts.add(40);
    counts.addCounts([3, 7], [1, 1]);
    expect(counts.median()).toBe(median(values));
    const odd = createValueCounts();
    odd.addCounts([4, 10], [2, 1]);
    odd.add(3_000_000);
    odd.add(1);
    odd.add(8);
    expect(odd.median()).toBe(median([4, 4, 10, 3_000_000, 1, 8]));
    expect(createValueCounts().median()).toBe(0);
  });
});
