import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const SITE = { website_id: 'web_acme_store' };

async function query(profile: 'spec' | 'live', body: unknown) {
  const sim = freshSimulator({ profile });
  return call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: SITE, body });
}

describe('validation', () => {
  it('fails each parameter of an impossible date at execution with a Warning under live, and refuses it with 400 under spec', async () => {
    const body = { parameters: ['summary_metrics', 'top_pages'], startDate: '2025-13-45', endDate: '2025-12-31' };
    const live = await query('live', body);
    expect(live.status).toBe(200);
    expect(live.json.data.map((p: { success: boolean; error: string }) => [p.success, p.error])).toEqual([
      [false, 'Query execution failed'],
      [false, 'Query execution failed'],
    ]);
    expect(live.headers.Warning).toMatch(/2025-13-45/);
    expect((await query('spec', body)).status).toBe(400);
  });

  it('fails the parameter of a start after its end at execution under live, and refuses it with 400 under spec', async () => {
    const body = { parameters: ['summary_metrics'], startDate: '2025-06-10', endDate: '2025-06-01' };
    const live = await query('live', body);
    expect(live.status).toBe(200);
    expect(live.json.data[0]).toMatchObject({ success: false, error: 'Query execution failed', data: [] });
    expect(live.headers.Warning).toMatch(/after endDate/);
    expect((await query('spec', body)).status).toBe(400);
  });

  it('fails the parameter of a single query asking hourly over 30 days under live (the service answers 500; the simulator never does for bad input), and refuses it with 400 under spec', async () => {
    const body = { parameters: ['summary_metrics'], startDate: '2025-01-01', endDate: '2025-03-01', granularity: 'hourly' };
    const live = await query('live', body);
    expect(live.status).toBe(200);
    expect(live.json.data).toEqual([{ parameter: 'summary_metrics', success: false, error: 'Query execution failed', data: [] }]);
    expect(live.headers.Warning).toMatch(/Hourly/);
    const spec = await query('spec', body);
    expect(spec.status).toBe(400);
    expect(spec.json.error).toMatch(/Hourly granularity only supports up to 30 days/);
  });

  it('fails only that batch item, with one failed parameter, when it asks hourly over 30 days under live', async () => {
    const body = [
      { parameters: ['summary_metrics'], preset: 'last_7d' },
      { parameters: ['summary_metrics', 'top_pages'], startDate: '2025-01-01', endDate: '2025-03-01', granularity: 'hourly' },
    ];
    const live = await query('live', body);
    expect(live.status).toBe(200);
    expect(live.json.results[0].data[0].success).toBe(true);
    expect(live.json.results[1].data).toEqual([{ parameter: 'summary_metrics', success: false, error: 'Query execution failed', data: [] }]);
    expect((await query('spec', body)).status).toBe(400);
  });

  it('answers a batch of 51 queries under live (with a Warning) and refuses it with 400 under spec', async () => {
    const body = Array.from({ length: 51 }, () => ({ parameters: ['summary_metrics'], preset: 'today' }));
    const live = await query('live', body);
    expect(live.status).toBe(200);
    expect(live.json.results).toHaveLength(51);
    expect(live.headers.Warning).toMatch(/51 queries/);
    const spec = await query('spec', body);
    expect(spec.status).toBe(400);
    expect(spec.json.error).toBe('A batch holds at most 50 queries');
  });

  it("lists only the first invalid batch item's details under live (a Warning names the others), and every invalid item's under spec", async () => {
    const body = [
      { parameters: ['summary_metrics'], preset: 'last_7d' },
      { parameters: ['summary_metrics'] },
      { parameters: ['summry'], preset: 'last_7d' },
      { parameters: [], preset: 'last_7d' },
    ];
    const live = await query('live', body);
    expect(live.status).toBe(400);
    expect(live.json).toMatchObject({ success: false, code: 'VALIDATION_ERROR', error: 'Either startDate or preset is required' });
    expect(live.json.details).toEqual([
      { field: 'batch[1].startDate', message: 'Either startDate or preset is required' },
      { field: 'batch[1].endDate', message: 'Either endDate or preset is required' },
    ]);
    expect(live.headers.Warning).toMatch(/batch\[2\], batch\[3\] are invalid too; their details are left out/);
    const spec = await query('spec', body);
    expect(spec.status).toBe(400);
    expect(spec.json.error).toBe('Either startDate or preset is required');
    expect((spec.json.details as { field: string }[]).map((d) => d.field.slice(0, 8))).toEqual(['batch[1]', 'batch[1]', 'batch[2]', 'batch[3]']);
    expect(spec.headers.Warning).toBeUndefined();
  });

  it('answers /compile of an unknown type with 422 VALIDATION under live and 400 COMPILATION_ERROR under spec', async () => {
    for (const profile of ['spec', 'live'] as const) {
      const sim = freshSimulator({ profile });
      const res = await call(sim, 'POST', '/v1/query/compile', {
        key: secretOf(sim, 'key_acme_read'),
        query: SITE,
        body: { type: 'nope', projectId: 'web_acme_store', from: '2025-01-01', to: '2025-01-02' },
      });
      expect(res.status).toBe(profile === 'live' ? 422 : 400);
      expect(res.json.code).toBe(profile === 'live' ? 'VALIDATION' : 'COMPILATION_ERROR');
    }
  });
});
