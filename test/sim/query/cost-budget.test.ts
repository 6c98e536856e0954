import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

describe('the work one request may ask for', () => {
  it('refuses a batch that asks for more than 4000 website-days with 400 and says how much it asked', async () => {
    const sim = freshSimulator();
    const batch = Array.from({ length: 50 }, () => ({ parameters: ['summary_metrics'], preset: 'last_90d' }));
    const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { website_id: 'web_acme_www' }, body: batch });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('VALIDATION_ERROR');
    expect(answer.json.details).toEqual([
      { field: 'batch', message: 'This request asks for 4500 website-days of data; at most 4000 per request. Split it, shorten the ranges, or name one website' },
    ]);
  });

  it('counts every website of an organization scope', async () => {
    const sim = freshSimulator();
    const answer = await call(sim, 'POST', '/v1/query', {
      key: secretOf(sim, 'key_acme_read'),
      query: { organization_id: 'org_acme' },
      body: { parameters: ['summary_metrics', 'top_pages', 'country'], startDate: '2024-06-01', endDate: '2025-05-31' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.details[0].message).toMatch(/^This request asks for 5475 website-days/);
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
});
