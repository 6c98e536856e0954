import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

describe('the rolling per-key quota (SPEC 8.2.1)', () => {
  it('refuses the 11th request in 60 s of a key with a custom quota of 10, across endpoints', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_quota');
    const start = sim.clock.now();
    for (let i = 0; i < 5; i++) expect((await call(sim, 'GET', '/v1/query/websites', { key })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await call(sim, 'GET', '/v1/query/types', { key })).status).toBe(200);
    const tenth = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_www' }, body: { parameters: ['summary_metrics'], preset: 'today' } });
    expect(tenth.status).toBe(200);
    expect(tenth.headers['X-RateLimit-Remaining']).toBe('0');

    const refused = await call(sim, 'GET', '/v1/query/websites', { key });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({
      success: false,
      error: 'API key rate limit exceeded',
      code: 'RATE_LIMITED',
      limit: 10,
      remaining: 0,
      reset: start + 60_000,
      retryAfter: 60,
    });
    expect(refused.headers['Retry-After']).toBe('60');
    expect(refused.headers['X-RateLimit-Limit']).toBe('10');
  });

  it('puts X-RateLimit-* headers on the admitted responses of a quota key', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_quota');
    const start = sim.clock.now();
    const first = await call(sim, 'GET', '/v1/query/websites', { key });
    expect(first.headers['X-RateLimit-Limit']).toBe('10');
    expect(first.headers['X-RateLimit-Remaining']).toBe('9');
    expect(first.headers['X-RateLimit-Reset']).toBe(String(start + 60_000));
    sim.clock.advance(1000);
    const second = await call(sim, 'GET', '/v1/query/websites', { key });
    expect(second.headers['X-RateLimit-Remaining']).toBe('8');
    expect(second.headers['X-RateLimit-Reset']).toBe(String(start + 60_000));
  });

  it('applies the default of 300 per 60 s to a key with the quota on and no custom limit', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_quota_default');
    for (let i = 0; i < 300; i++) {
      const answer = await call(sim, 'GET', '/v1/query/websites', { key });
      if (answer.status !== 200) throw new Error(`request ${i + 1} answered ${answer.status}`);
    }
    const refused = await call(sim, 'GET', '/v1/query/websites', { key });
    expect(refused.status).toBe(429);
    expect(refused.json.limit).toBe(300);
    expect(refused.json.error).toBe('API key rate limit exceeded');
  });

  it('sends no X-RateLimit-* headers and no quota to keys without the quota', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_read');
    for (let i = 0; i < 400; i++) {
      const answer = await call(sim, 'GET', '/v1/query/websites', { key });
      if (answer.status !== 200 || answer.headers['X-RateLimit-Limit'] !== undefined) {
        throw new Error(`request ${i + 1}: ${answer.status} ${JSON.stringify(answer.headers)}`);
      }
    }
  });

  it('frees quota slots as the window slides on the virtual clock', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_quota');
    for (let i = 0; i < 10; i++) {
      await call(sim, 'GET', '/v1/query/websites', { key });
      sim.clock.advance(1000);
    }
    expect((await call(sim, 'GET', '/v1/query/websites', { key })).status).toBe(429);
    sim.clock.advance(50_000); // t0 + 60 s: the first slot frees
    expect((await call(sim, 'GET', '/v1/query/websites', { key })).status).toBe(200);
    expect((await call(sim, 'GET', '/v1/query/websites', { key })).status).toBe(429);
  });

  it('reports the quota refusal before the per-endpoint limit is consulted', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_quota');
    for (let i = 0; i < 10; i++) await call(sim, 'GET', '/v1/query/websites', { key });
    const refused = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_www' }, body: { parameters: ['summary_metrics'], preset: 'today' } });
    expect(refused.json.error).toBe('API key rate limit exceeded');
    const journal = await call(sim, 'GET', '/__sim/journal', { query: { outcome: 'key_quota' } });
    expect(journal.json.entries).toHaveLength(1);
    expect(journal.json.entries[0].checks.map((c: { rule: string }) => c.rule)).toEqual(['key_quota']);
  });
});
