import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const SITE = { website_id: 'web_acme_store' };
const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01', limit: 3 };

async function query(profile: 'spec' | 'live', body: unknown) {
  const sim = freshSimulator({ profile });
  return call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: SITE, body });
}

const entries = (data: { parameter: string; success: boolean; data: Record<string, unknown>[] }[]) => data.map((p) => [p.parameter, p.success, p.data[0] ? Object.keys(p.data[0])[0] : null]);

describe('duplicate-ids', () => {
  it('answers one entry for parameters sharing an id under live (the last one’s result, in the first one’s place, with a Warning), and one entry each under spec', async () => {
    const body = { parameters: [{ name: 'top_pages', id: 'a' }, 'browser_name', { name: 'country', id: 'a' }], ...WEEK };
    const live = await query('live', body);
    expect(live.status).toBe(200);
    expect(entries(live.json.data)).toEqual([
      ['a', true, 'name'],
      ['browser_name', true, 'name'],
    ]);
    const country = await query('live', { parameters: ['country'], ...WEEK });
    expect(live.json.data[0].data).toEqual(country.json.data[0].data);
    expect(live.json.meta).toMatchObject({ parameters: ['top_pages', 'browser_name', 'country'], total_parameters: 3 });
    expect(live.headers.Warning).toMatch(/parameters\[2\] has the result name a of parameters\[0\]/);
    const spec = await query('spec', body);
    expect(spec.json.data.map((p: { parameter: string }) => p.parameter)).toEqual(['a', 'browser_name', 'a']);
    expect(spec.json.data[0].data[0]).toHaveProperty('path');
    expect(spec.headers.Warning).toBeUndefined();
  });

  it('folds a type named twice without ids under live too, in each query of a batch on its own', async () => {
    const body = [
      { parameters: ['browser_name', 'browser_name', 'os_name'], ...WEEK },
      { parameters: ['browser_name', { name: 'browser_name', id: 'again' }], ...WEEK },
    ];
    const live = await query('live', body);
    expect(live.status).toBe(200);
    expect(live.json.results.map((r: { data: { parameter: string }[] }) => r.data.map((p) => p.parameter))).toEqual([
      ['browser_name', 'os_name'],
      ['browser_name', 'again'],
    ]);
    expect(live.headers.Warning).toMatch(/batch\[0\]\.parameters\[1\]/);
    const spec = await query('spec', body);
    expect(spec.json.results[0].data.map((p: { parameter: string }) => p.parameter)).toEqual(['browser_name', 'browser_name', 'os_name']);
  });
});
