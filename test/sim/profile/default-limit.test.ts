import { describe, expect, it } from 'vitest';
import { freshSimulator } from '../../helpers/sim.js';
import { rowsOf, runQuery, STORE, WWW } from '../query/support.js';

const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };

describe('default-limit', () => {
  it('pages device_types and viewport_patterns by 100 under live when no limit is sent, and by their own 20 and 50 under spec', async () => {
    for (const [profile, devices, viewports] of [
      ['live', 100, 100],
      ['spec', 20, 50],
    ] as const) {
      const sim = freshSimulator({ profile });
      const device = await runQuery(sim, { parameters: ['device_types'], ...WEEK }, WWW);
      expect(device.status).toBe(200);
      expect(device.json.meta.limit, profile).toBe(devices);
      const all = rowsOf(await runQuery(sim, { parameters: ['viewport_patterns'], ...WEEK, limit: 10000 }, STORE), 'viewport_patterns');
      expect(all.length).toBeGreaterThan(2 * viewports);
      const first = await runQuery(sim, { parameters: ['viewport_patterns'], ...WEEK }, STORE);
      expect(first.json.meta.limit, profile).toBe(viewports);
      expect(rowsOf(first, 'viewport_patterns'), profile).toEqual(all.slice(0, viewports));
      const second = await runQuery(sim, { parameters: ['viewport_patterns'], ...WEEK, page: 2 }, STORE);
      expect(rowsOf(second, 'viewport_patterns'), profile).toEqual(all.slice(viewports, 2 * viewports));
    }
  });
});
