import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const BASE = { type: 'top_pages', projectId: 'web_acme_store', from: '2025-01-01', to: '2025-01-07' };

async function compile(profile: 'spec' | 'live', extra: Record<string, unknown>) {
  const sim = freshSimulator({ profile });
  return call(sim, 'POST', '/v1/query/compile', { key: secretOf(sim, 'key_acme_read'), query: { website_id: 'web_acme_store' }, body: { ...BASE, ...extra } });
}

describe('/v1/query/compile group-by and order-by lists, as live in both profiles', () => {
  for (const profile of ['spec', 'live'] as const) {
    it(`names the live groupBy fields, sorted, when refusing a groupBy under ${profile}`, async () => {
      const res = await compile(profile, { groupBy: ['hour'] });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe(
        "Grouping by 'hour' is not permitted. Allowed groupBy fields: browser_name, browser_version, city, country, date, depth_range, device_type, duration_range, error_type, language, message, name, os_name, os_version, path, referrer, region, source, timezone, utm_campaign, utm_content, utm_medium, utm_source, utm_term, viewport_size.",
      );
    });

    it(`accepts a live groupBy field such as utm_term under ${profile}`, async () => {
      const res = await compile(profile, { groupBy: ['utm_term'] });
      expect(res.status).toBe(200);
      expect(res.json.sql).toMatch(/GROUP BY utm_term/);
    });

    it(`refuses an orderBy with the live text and the sorted list under ${profile}`, async () => {
      const res = await compile(profile, { orderBy: 'bogus DESC' });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe(
        "Ordering by 'bogus DESC' is not permitted. Use '<field>' or '<field> ASC|DESC' where field is one of: avg_scroll_depth, clicks, count, date, errors, pageviews, revenue, samples, sessions, time, total, total_events, unique_users, uptime_percentage, visitors.",
      );
    });

    it(`reads the direction in any case and defaults it to DESC under ${profile}`, async () => {
      expect((await compile(profile, { orderBy: 'pageviews asc' })).json.sql).toMatch(/ORDER BY pageviews ASC/);
      expect((await compile(profile, { orderBy: 'pageviews' })).json.sql).toMatch(/ORDER BY pageviews DESC/);
    });
  }
});
