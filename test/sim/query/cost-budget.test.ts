import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';
import { findQueryType, QUERY_TYPE_NAMES } from '../../../src/sim/query/registry.js';
import { MAX_PARAMETER_SITE_DAYS, MAX_SITE_DAYS } from '../../../src/sim/query/engine/work-budget.js';
import { PREFETCH_PIECE } from '../../../src/sim/query/engine/prefetch-traffic.js';
import { DIGEST_DAY_WORK, PASS_PIECE_RECORDS } from '../../../src/sim/query/engine/pass-steps.js';
import { TYPE_DAY_WEIGHTS } from '../../../src/sim/query/engine/type-weights.js';

describe('the work one request may ask for', () => {
  it('refuses a batch that asks for more than 10000 website-days with 400 and says how much it asked', async () => {
    expect(MAX_SITE_DAYS).toBe(10_000);
    const sim = freshSimulator();
    const batch = Array.from({ length: 30 }, () => ({ parameters: ['summary_metrics'], startDate: '2024-06-03', endDate: '2025-06-01' }));
    const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { website_id: 'web_acme_store' }, body: batch });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('VALIDATION_ERROR');
    expect(answer.json.details).toEqual([
      { field: 'batch', message: 'This request asks for 10920 website-days of data; at most 10000 per request (a small website\'s day counts half, a tiny one\'s a tenth). Split it, shorten the ranges, or name one website' },
    ]);
  });

  it("counts every website of an organization scope, a small website's day as half and a tiny one's as a tenth: five years of an organization's websites at once are refused", async () => {
    const sim = freshSimulator();
    const answer = await call(sim, 'POST', '/v1/query', {
      key: secretOf(sim, 'key_acme_read'),
      query: { organization_id: 'org_acme' },
      body: { parameters: ['browser_name'], startDate: '2020-06-01', endDate: '2025-05-31' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.details).toEqual([
      { field: 'parameters[0]', message: "browser_name asks for 6574 website-days of data; one parameter may ask for at most 2000, five years of one website (a small website's day counts half, a tiny one's a tenth). Shorten its range or name one website" },
    ]);
  });

  it('limits uptime_recent_checks to 31 days', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_monitors');
    const long = await call(sim, 'POST', '/v1/query', { key, query: { schedule_id: 'mon_acme_store' }, body: { parameters: ['uptime_recent_checks'], startDate: '2025-04-01', endDate: '2025-05-31' } });
    expect(long.status).toBe(400);
    expect(long.json.details).toEqual([{ field: 'parameters[0]', message: 'uptime_recent_checks covers at most 31 days; narrow the range' }]);
    const ok = await call(sim, 'POST', '/v1/query', { key, query: { schedule_id: 'mon_acme_store' }, body: { parameters: ['uptime_recent_checks'], startDate: '2025-05-01', endDate: '2025-05-31', limit: 3 } });
    expect(ok.status).toBe(200);
    expect(ok.json.data[0].data).toHaveLength(3);
  });

  it('refuses a 10-year summary_metrics on the public largest website, even without a key, with 400 naming the per-parameter cap', async () => {
    const sim = freshSimulator();
    const answer = await call(sim, 'POST', '/v1/query', { query: { website_id: 'web_globex_news' }, body: { parameters: ['summary_metrics'], startDate: '2015-06-03', endDate: '2025-06-01' } });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('VALIDATION_ERROR');
    expect(answer.json.details).toEqual([
      {
        field: 'parameters[0]',
        message: "summary_metrics asks for 3652 website-days of data; one parameter may ask for at most 2000, five years of one website (a small website's day counts half, a tiny one's a tenth). Shorten its range or name one website",
      },
    ]);
  });

  it('answers 7 years on a small website, whose day counts half', async () => {
    const sim = freshSimulator();
    const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { website_id: 'web_acme_www' }, body: { parameters: ['summary_metrics'], startDate: '2018-06-03', endDate: '2025-06-01' } });
    expect(answer.status).toBe(200);
    expect(answer.json.data[0].data).toHaveLength(2556);
  });

  it('answers a long parameter in pieces, yielding between the days it generates but not over days already cached, with the same bytes whether or not other work ran in between', async () => {
    let yields = 0;
    // A seed of its own: generated days are shared by every simulator of a seed in the process
    // (and the suite's files share a process), so with seed 42 how many days are left to
    // generate would depend on the files that ran before.
    const seed = 'cost-budget-pieces';
    const pieces = freshSimulator({ seed, yieldToEventLoop: () => { yields++; return Promise.resolve(); } });
    const body = { parameters: ['summary_metrics', 'top_pages'], startDate: '2024-06-03', endDate: '2025-06-01' };
    const answer = await call(pieces, 'POST', '/v1/query', { query: { website_id: 'web_globex_news' }, body });
    expect(answer.status).toBe(200);
    // The first parameter generates 364 days and the day before (its per-day digests are
    // derived like records, which may reach back a day) and their 365 digests, a piece between
    // two yields and one more before its pass; one yield between the parameters; the second
    // finds the days cached and derives its own 365 digests of page views the same way. Each
    // pass folds 364 digests in pieces too, one yield for each full piece of digest days.
    const passPieces = Math.floor((364 * DIGEST_DAY_WORK) / PASS_PIECE_RECORDS);
    expect(yields).toBe(Math.ceil(730 / PREFETCH_PIECE) + passPieces + 1 + Math.ceil(365 / PREFETCH_PIECE) + passPieces);
    const whole = await call(freshSimulator({ seed, trafficCacheBytes: 0 }), 'POST', '/v1/query', { query: { website_id: 'web_globex_news' }, body });
    expect(answer.text).toBe(whole.text);
  });

  it("derives a long parameter's records (errors, vitals …) in pieces before its pass, so the pass of every website type generates nothing", async () => {
    // A seed of its own: what another file of the suite left in the process-wide store for seed
    // 42 would be copied into this simulator's cache during the pass, and counted as generated.
    const sim = freshSimulator({ seed: 'cost-budget-records', limits: 'off', yieldToEventLoop: async () => void (beforePass = await trafficEntries()) });
    let beforePass = -1;
    const trafficEntries = async (): Promise<number> => (await call(sim, 'GET', '/__sim/health')).json.caches.traffic.entries as number;
    const key = secretOf(sim, 'key_acme_read');
    const generatedByPass: string[] = [];
    for (const name of QUERY_TYPE_NAMES) {
      const type = findQueryType(name);
      if (type?.target !== 'website' || type.skipDateRange) continue;
      beforePass = -1;
      const answer = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_www' }, body: { parameters: [name], startDate: '2025-02-01', endDate: '2025-04-30' } });
      expect(answer.status).toBe(200);
      if (beforePass !== -1 && (await trafficEntries()) !== beforePass) generatedByPass.push(name);
    }
    // ai_products also reports when server-side tracking began: it reads up to 31 days from then, outside its range.
    expect(generatedByPass).toEqual(['ai_products']);
  });

  it('answers five years of the heaviest type on one large website, and refuses a day past the cap with 400 naming it, whatever the type', async () => {
    const sim = freshSimulator({ limits: 'off' });
    const key = secretOf(sim, 'key_acme_read');
    const startOf = (days: number): string => new Date(Date.UTC(2025, 4, 31) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
    const fiveYears = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_store' }, body: { parameters: ['interesting_sessions'], startDate: startOf(5 * 365 + 2), endDate: '2025-05-31', limit: 3 } });
    expect(fiveYears.status).toBe(200);
    expect(fiveYears.json.data[0].success).toBe(true);
    for (const type of ['interesting_sessions', 'summary_metrics']) {
      const refused = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_store' }, body: { parameters: [type], startDate: startOf(MAX_PARAMETER_SITE_DAYS + 1), endDate: '2025-05-31' } });
      expect(refused.status).toBe(400);
      expect(refused.json.details).toEqual([
        {
          field: 'parameters[0]',
          message: `${type} asks for 2001 website-days of data; one parameter may ask for at most 2000, five years of one website (a small website's day counts half, a tiny one's a tenth). Shorten its range or name one website`,
        },
      ]);
    }
  });

  it('weighs only query types that exist, each heavier than 1, to a tenth', () => {
    for (const [type, weight] of Object.entries(TYPE_DAY_WEIGHTS)) {
      expect(QUERY_TYPE_NAMES).toContain(type);
      expect(weight).toBeGreaterThan(1);
      expect(Number.isInteger(Math.round(weight * 10)) && Math.abs(weight * 10 - Math.round(weight * 10)) < 1e-9).toBe(true);
    }
  });
});
