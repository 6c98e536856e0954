import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const PROFILES = ['spec', 'live'] as const;

describe('rate-limit-reset and limit-429-bodies', () => {
  it('moves X-RateLimit-Reset to now + the window on every admitted answer under live, and keeps it at the oldest slot under spec', async () => {
    for (const profile of PROFILES) {
      const sim = freshSimulator({ profile });
      const key = secretOf(sim, 'key_acme_quota');
      const start = sim.clock.now();
      await call(sim, 'GET', '/v1/query/websites', { key });
      sim.clock.advance(5000);
      const second = await call(sim, 'GET', '/v1/query/websites', { key });
      expect(second.headers['X-RateLimit-Reset']).toBe(String(profile === 'live' ? start + 5000 + 60_000 : start + 60_000));
      expect(second.headers['X-RateLimit-Remaining']).toBe('8');
    }
  });

  it('says Retry-After the whole window on a quota 429 under live and the time to the next free slot under spec', async () => {
    for (const profile of PROFILES) {
      const sim = freshSimulator({ profile });
      const key = secretOf(sim, 'key_acme_quota');
      for (let i = 0; i < 10; i++) {
        expect((await call(sim, 'GET', '/v1/query/websites', { key })).status).toBe(200);
        sim.clock.advance(5000);
      }
      const refused = await call(sim, 'GET', '/v1/query/websites', { key });
      expect(refused.status).toBe(429);
      expect(refused.headers['Retry-After']).toBe(profile === 'live' ? '60' : '10');
      expect(refused.headers['X-RateLimit-Limit']).toBe('10');
      expect(refused.headers['X-RateLimit-Remaining']).toBe('0');
    }
  });

  it('writes the quota 429 body as {success, error, code, requestId} with the live message under live, and with the SPEC 8.4 numbers under spec', async () => {
    for (const profile of PROFILES) {
      const sim = freshSimulator({ profile });
      const key = secretOf(sim, 'key_acme_quota');
      for (let i = 0; i < 10; i++) await call(sim, 'GET', '/v1/query/websites', { key });
      const refused = await call(sim, 'GET', '/v1/query/websites', { key });
      if (profile === 'live') {
        expect(refused.json).toEqual({
          success: false,
          error: 'Too many requests for this API key. Try again shortly.',
          code: 'RATE_LIMITED',
          requestId: refused.headers['X-Request-ID'],
        });
      } else {
        expect(refused.json).toMatchObject({ error: 'API key rate limit exceeded', code: 'RATE_LIMITED', limit: 10, remaining: 0, retryAfter: 60 });
      }
    }
  });

  it('writes the concurrency 429 body with the live message and no numbers under live, keeping Retry-After: 1 in both', async () => {
    for (const profile of PROFILES) {
      const sim = freshSimulator({ profile });
      const key = secretOf(sim, 'key_acme_all');
      const held = await Promise.all(
        Array.from({ length: 20 }, () => sim.handle({ method: 'GET', path: '/v1/query/types', query: {}, headers: { 'x-api-key': key } }, { holdSlot: true })),
      );
      const refused = await call(sim, 'GET', '/v1/query/types', { key });
      expect(refused.status).toBe(429);
      expect(refused.headers['Retry-After']).toBe('1');
      expect(refused.headers['X-RateLimit-Limit']).toBe('20');
      if (profile === 'live') {
        expect(refused.json).toEqual({
          success: false,
          error: 'Too many concurrent requests for this API key. Try again shortly.',
          code: 'RATE_LIMITED',
          requestId: refused.headers['X-Request-ID'],
        });
      } else {
        expect(refused.json).toMatchObject({ error: 'Too many concurrent API key requests', limit: 20, remaining: 0, retryAfter: 1 });
      }
      for (const response of held) response.release?.();
    }
  });

  it('keeps the per-endpoint 429 body with its numbers under both profiles', async () => {
    for (const profile of PROFILES) {
      const sim = freshSimulator({ profile });
      const key = secretOf(sim, 'key_acme_all');
      let last;
      for (let i = 0; i < 301; i++) last = await call(sim, 'POST', '/v1/query/compile', { key, body: { type: 'summary_metrics', projectId: 'web_acme_store', from: '2025-01-01', to: '2025-01-02' } });
      expect(last?.status).toBe(429);
      expect(last?.json).toMatchObject({ error: 'Rate limit exceeded', code: 'RATE_LIMITED', limit: 300, remaining: 0 });
    }
  });
});
