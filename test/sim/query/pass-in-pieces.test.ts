import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import { postSpans, vital } from '../ingest/span-support.js';
import type { Simulator } from '../../../src/index.js';
import { findQueryType, QUERY_TYPE_NAMES } from '../../../src/sim/query/registry.js';

// Seeds of their own: the suite's files share a process, and with it the days and seeded
// results other simulators of a seed computed.
const ask = (sim: Simulator, type: string, startDate: string): Promise<Answer> =>
  call(sim, 'POST', '/v1/query', {
    key: secretOf(sim, 'key_acme_read'),
    query: { website_id: 'web_acme_store' },
    body: { parameters: [type], startDate, endDate: '2025-06-02', limit: 5 },
  });

/** These generate weeks of a large website's days, several times: more than the suite's default on a busy machine. */
const LONG_RANGE_TIMEOUT_MS = 60_000;

/** LCP samples of a vitals_overview answer. */
const lcpSamples = (answer: Answer): number => (answer.json.data[0].data as { metric_name: string; samples: number }[]).find((row) => row.metric_name === 'LCP')?.samples ?? 0;

describe('a long pass in pieces', () => {
  it('declares the pass of every type that reads a date range in pieces, but those of today and the last minutes', () => {
    const whole = QUERY_TYPE_NAMES.filter((name) => findQueryType(name)?.steps === undefined);
    expect(whole).toEqual(['today_metrics', 'active_stats', 'realtime_pages', 'realtime_referrers', 'realtime_countries', 'realtime_cities', 'realtime_feed', 'realtime_sessions', 'realtime_velocity']);
  });

  it('lets other requests run between pieces of the pass of vitals_overview and profile_list, once their days are cached, with the rows of a simulator that keeps no day', async () => {
    for (const type of ['vitals_overview', 'profile_list']) {
      const seed = `pass-in-pieces-${type}`;
      let yields = 0;
      const sim = freshSimulator({ seed, limits: 'off', yieldToEventLoop: () => Promise.resolve(void yields++) });
      // Generates and keeps ten weeks of days, and their records.
      expect((await ask(sim, type, '2025-03-24')).status).toBe(200);
      yields = 0;
      // A day shorter: another result, over days already kept, so every yield is the pass's.
      const answer = await ask(sim, type, '2025-03-25');
      expect(answer.status).toBe(200);
      expect(yields, type).toBeGreaterThan(1);
      const whole = await ask(freshSimulator({ seed, limits: 'off', trafficCacheBytes: 0 }), type, '2025-03-25');
      expect(answer.json.data, type).toEqual(whole.json.data);
    }
  }, LONG_RANGE_TIMEOUT_MS);

  it('pauses at least once every two days of a pass over per-day digests it has to derive again, for the pages, breakdown, summary and segment types alike', async () => {
    // 2025-03-25 to 2025-06-02: 70 days. With nothing kept, every day's digest is derived again
    // inside the pass (about 2,000 sessions of generating each), and weighs as it costs; counted
    // as a digest day alone it would pause once every 64 days, beside the days' own generation.
    const days = 70;
    for (const type of ['page_time_analysis', 'country', 'summary_metrics', 'traffic_segments']) {
      let yields = 0;
      const sim = freshSimulator({ seed: `pass-in-pieces-digests-${type}`, limits: 'off', trafficCacheBytes: 0, yieldToEventLoop: () => Promise.resolve(void yields++) });
      expect((await ask(sim, type, '2025-03-25')).status, type).toBe(200);
      expect(yields, type).toBeGreaterThanOrEqual(days / 2);
    }
  }, LONG_RANGE_TIMEOUT_MS);

  it('counts a measurement posted between two pieces of a long vitals pass in the next answer, and never in another simulator of the seed', async () => {
    const seed = 'pass-in-pieces-posted';
    let postOnce: (() => Promise<unknown>) | null = null;
    const sim = freshSimulator({
      seed,
      limits: 'off',
      yieldToEventLoop: async () => {
        const post = postOnce;
        postOnce = null;
        if (post) await post();
      },
    });
    expect((await ask(sim, 'vitals_overview', '2025-02-01')).status).toBe(200);
    let posted: Answer | undefined;
    postOnce = async () => {
      posted = await postSpans(sim, '/vitals', [vital()]);
    };
    expect((await ask(sim, 'vitals_overview', '2025-02-02')).status).toBe(200);
    expect(posted?.status).toBe(200);
    const counted = lcpSamples(await ask(sim, 'vitals_overview', '2025-02-02'));
    const untouched = lcpSamples(await ask(freshSimulator({ seed, limits: 'off' }), 'vitals_overview', '2025-02-02'));
    expect(untouched).toBeGreaterThan(0);
    expect(counted).toBe(untouched + 1);
  }, LONG_RANGE_TIMEOUT_MS);
});
