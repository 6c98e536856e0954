import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const QUERY = { parameters: ['summary_metrics'], preset: 'last_7d' };
const LIVE_CHALLENGE = 'Bearer resource_metadata="http://sim.test/.well-known/oauth-protected-resource"';

describe('auth-codes', () => {
  it('answers a track-only key on a website query with 401 AUTH_REQUIRED, the live challenge and no hint under live, and 403 FORBIDDEN under spec', async () => {
    const live = freshSimulator({ profile: 'live' });
    const refused = await call(live, 'POST', '/v1/query', { key: secretOf(live, 'key_acme_track'), headers: { host: 'sim.test' }, query: { website_id: 'web_acme_store' }, body: QUERY });
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual({ success: false, error: 'Authentication required', code: 'AUTH_REQUIRED', requestId: refused.headers['X-Request-ID'] });
    expect(refused.headers['WWW-Authenticate']).toBe(LIVE_CHALLENGE);

    const spec = freshSimulator();
    const forbidden = await call(spec, 'POST', '/v1/query', { key: secretOf(spec, 'key_acme_track'), query: { website_id: 'web_acme_store' }, body: QUERY });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.code).toBe('FORBIDDEN');
  });

  it('sends the live challenge without a hint on any 401 under live, and the realm challenge with a hint under spec', async () => {
    const live = freshSimulator({ profile: 'live' });
    const a = await call(live, 'GET', '/v1/query/websites', { headers: { host: 'sim.test' } });
    expect(a.status).toBe(401);
    expect(a.headers['WWW-Authenticate']).toBe(LIVE_CHALLENGE);
    expect(a.json.hint).toBeUndefined();
    const spec = freshSimulator();
    const b = await call(spec, 'GET', '/v1/query/websites');
    expect(b.headers['WWW-Authenticate']).toBe('Bearer realm="analytics-sim", charset="UTF-8"');
    expect(typeof b.json.hint).toBe('string');
  });

  it('denies a read:data-only key on schedule_id with 403 ACCESS_DENIED "Access denied to this monitor" under live, FORBIDDEN under spec', async () => {
    for (const profile of ['spec', 'live'] as const) {
      const sim = freshSimulator({ profile });
      const res = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { schedule_id: 'mon_acme_store' }, body: { parameters: ['uptime_overview'], preset: 'last_7d' } });
      expect(res.status).toBe(403);
      if (profile === 'live') expect(res.json).toEqual({ success: false, error: 'Access denied to this monitor', code: 'ACCESS_DENIED', requestId: res.headers['X-Request-ID'] });
      else expect(res.json.code).toBe('FORBIDDEN');
    }
  });

  it('admits a monitors-only key to a website query under live (200) and refuses it with 403 FORBIDDEN under spec', async () => {
    const live = freshSimulator({ profile: 'live' });
    const ok = await call(live, 'POST', '/v1/query', { key: secretOf(live, 'key_acme_monitors'), query: { website_id: 'web_acme_store' }, body: QUERY });
    expect(ok.status).toBe(200);
    expect(ok.json.success).toBe(true);
    const spec = freshSimulator();
    const refused = await call(spec, 'POST', '/v1/query', { key: secretOf(spec, 'key_acme_monitors'), query: { website_id: 'web_acme_store' }, body: QUERY });
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('FORBIDDEN');
  });

  it('lists websites for a monitors-only key as 200 [] and refuses a track-only key with 401 under live; both are 403 FORBIDDEN under spec', async () => {
    const live = freshSimulator({ profile: 'live' });
    const monitors = await call(live, 'GET', '/v1/query/websites', { key: secretOf(live, 'key_acme_monitors') });
    expect(monitors.status).toBe(200);
    expect(monitors.json).toMatchObject({ success: true, websites: [], total: 0 });
    const track = await call(live, 'GET', '/v1/query/websites', { key: secretOf(live, 'key_acme_track') });
    expect(track.status).toBe(401);
    expect(track.json.code).toBe('AUTH_REQUIRED');

    const spec = freshSimulator();
    for (const id of ['key_acme_monitors', 'key_acme_track']) {
      const res = await call(spec, 'GET', '/v1/query/websites', { key: secretOf(spec, id) });
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('FORBIDDEN');
    }
  });

  it('still lists every reachable website for a read:data key under live', async () => {
    const live = freshSimulator({ profile: 'live' });
    const spec = freshSimulator();
    const a = await call(live, 'GET', '/v1/query/websites', { key: secretOf(live, 'key_acme_read') });
    const b = await call(spec, 'GET', '/v1/query/websites', { key: secretOf(spec, 'key_acme_read') });
    expect(a.json.websites).toEqual(b.json.websites);
    expect(a.json.total).toBeGreaterThan(0);
  });
});
