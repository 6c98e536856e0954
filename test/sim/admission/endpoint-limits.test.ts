import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/index.js';

const QUERY = { parameters: ['summary_metrics'], preset: 'today' };

function query(sim: Simulator, key?: string, websiteId = 'web_acme_www', headers: Record<string, string> = {}): Promise<Answer> {
  return call(sim, 'POST', '/v1/query', { query: { website_id: websiteId }, body: QUERY, headers, ...(key ? { key } : {}) });
}

async function burst(n: number, send: () => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < n; i++) answers.push(await send());
  return answers;
}

describe('per-endpoint limits (SPEC 8.1)', () => {
  it('admits the 120th query in a minute and refuses the 121st with 429, Retry-After and the SPEC 8.4 body', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_read');
    const start = sim.clock.now();
    const answers = await burst(120, () => query(sim, key));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers[119]?.headers['X-RateLimit-Limit']).toBeUndefined();

    const refused = await query(sim, key);
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({
      success: false,
      error: 'Rate limit exceeded',
      code: 'RATE_LIMITED',
      requestId: refused.headers['X-Request-ID'],
      limit: 120,
      remaining: 0,
      reset: start + 60_000,
      retryAfter: 60,
    });
    expect(refused.headers['Retry-After']).toBe('60');
    expect(refused.headers['X-RateLimit-Limit']).toBe('120');
    expect(refused.headers['X-RateLimit-Remaining']).toBe('0');
    expect(refused.headers['X-RateLimit-Reset']).toBe(String(start + 60_000));
    expect(refused.headers['X-Request-ID']).toMatch(/^req_[A-Za-z0-9]{16}$/);
  });

  it('answers malformed JSON with 400 PARSE without spending the per-endpoint window, as the live service reads the body first', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_read');
    const malformed = await burst(130, () => call(sim, 'POST', '/v1/query', { query: { website_id: 'web_acme_www' }, body: '{"parameters": [', key }));
    expect(malformed.every((a) => a.status === 400 && (a.json as { code: string }).code === 'PARSE')).toBe(true);
    const answers = await burst(120, () => query(sim, key));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect((await query(sim, key)).status).toBe(429);
  });

  it('answers malformed JSON to /v1/query/compile with 400 PARSE without spending its window either', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_read');
    const compile = (body: unknown) => call(sim, 'POST', '/v1/query/compile', { body, key });
    const valid = { projectId: 'web_acme_www', type: 'top_pages', from: '2025-05-01', to: '2025-05-31' };
    const malformed = await burst(310, () => compile('{"type": "top_pages",'));
    expect(malformed.every((a) => a.status === 400 && (a.json as { code: string }).code === 'PARSE')).toBe(true);
    const answers = await burst(300, () => compile(valid));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect((await compile(valid)).status).toBe(429);
  });

  it('counts malformed JSON against the per-key quota, which is checked before the body is read', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_quota');
    const malformed = await burst(10, () => call(sim, 'POST', '/v1/query', { query: { website_id: 'web_acme_www' }, body: '{', key }));
    expect(malformed.map((a) => a.status)).toEqual(Array(10).fill(400));
    const refused = await query(sim, key);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBe('API key rate limit exceeded');
  });

  it('still refuses 1 ms before the oldest slot frees and admits at that instant', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_read');
    const start = sim.clock.now();
    await burst(120, () => query(sim, key));
    sim.clock.advance(59_999);
    const early = await query(sim, key);
    expect(early.status).toBe(429);
    expect(early.json.retryAfter).toBe(1);
    expect(early.json.reset).toBe(start + 60_000);
    sim.clock.advance(1);
    // All 120 slots were taken at the same instant, so all of them free now.
    const again = await burst(120, () => query(sim, key));
    expect(again.every((a) => a.status === 200)).toBe(true);
    expect((await query(sim, key)).status).toBe(429);
  });

  it('slides: slots free one by one as their own minute passes', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_read');
    for (let i = 0; i < 120; i++) {
      expect((await query(sim, key)).status).toBe(200);
      sim.clock.advance(100);
    }
    // The first slot was taken at t0 and frees at t0 + 60 s; the clock is now at t0 + 12 s.
    const refused = await query(sim, key);
    expect(refused.status).toBe(429);
    expect(refused.json.retryAfter).toBe(48);
    sim.clock.advance(48_000);
    expect((await query(sim, key)).status).toBe(200);
    expect((await query(sim, key)).status).toBe(429);
    sim.clock.advance(100);
    expect((await query(sim, key)).status).toBe(200);
  });

  it('gives anonymous callers 60 queries a minute, counted per client address', async () => {
    const sim = freshSimulator();
    const from = (ip: string) => () => query(sim, undefined, 'web_acme_blog', { 'x-forwarded-for': ip });
    const first = await burst(60, from('203.0.113.7'));
    expect(first.every((a) => a.status === 200)).toBe(true);
    const refused = await from('203.0.113.7')();
    expect(refused.status).toBe(429);
    expect(refused.json.limit).toBe(60);
    expect((await from('198.51.100.2')()).status).toBe(200);
  });

  it('counts a signed-in dashboard user as its own identity with the authenticated limit', async () => {
    const sim = freshSimulator();
    const fixtures = sim.fixtures() as { users: { id: string; sessionToken: string }[] };
    const alice = fixtures.users.find((u) => u.id === 'user_alice')!;
    const cookie = { cookie: `databuddy.session_token=${alice.sessionToken}` };
    const answers = await burst(121, () => query(sim, undefined, 'web_acme_www', cookie));
    expect(answers.slice(0, 120).every((a) => a.status === 200)).toBe(true);
    expect(answers[120]?.status).toBe(429);
    expect(sim.journal.list({ outcome: 'endpoint_limit' })[0]?.identity).toBe('user:user_alice');
  });

  it('checks the limit before access: a refused anonymous caller gets 429, not 401', async () => {
    const sim = freshSimulator();
    const statuses = (await burst(61, () => query(sim, undefined, 'web_acme_store'))).map((a) => a.status);
    expect(statuses.slice(0, 60).every((s) => s === 401)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it('keeps separate windows for separate keys and for /v1/query and /v1/query/compile', async () => {
    const sim = freshSimulator();
    const acme = secretOf(sim, 'key_acme_read');
    const all = secretOf(sim, 'key_acme_all');
    await burst(120, () => query(sim, acme));
    expect((await query(sim, acme)).status).toBe(429);
    expect((await query(sim, all)).status).toBe(200);
    const compile = await call(sim, 'POST', '/v1/query/compile', {
      key: acme,
      query: { website_id: 'web_acme_www' },
      body: { projectId: 'web_acme_www', type: 'top_pages', from: '2025-05-01', to: '2025-05-31' },
    });
    expect(compile.status).toBe(200);
  });

  it('allows 300 compiles a minute to a key and refuses the 301st', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_read');
    const compile = () =>
      call(sim, 'POST', '/v1/query/compile', {
        key,
        body: { projectId: 'web_acme_www', type: 'top_pages', from: '2025-05-01', to: '2025-05-31' },
      });
    const answers = await burst(300, compile);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const refused = await compile();
    expect(refused.status).toBe(429);
    expect(refused.json.limit).toBe(300);
  });

  it('does not limit the website list or the type list per endpoint', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_read');
    const answers = await burst(150, () => call(sim, 'GET', '/v1/query/websites', { key }));
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });

  it('forgets every window on POST /__sim/reset', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_read');
    await burst(121, () => query(sim, key));
    expect((await call(sim, 'POST', '/__sim/reset')).status).toBe(200);
    expect((await query(sim, key)).status).toBe(200);
  });

  it('moves the windows with POST /__sim/clock', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_read');
    await burst(121, () => query(sim, key));
    expect((await call(sim, 'POST', '/__sim/clock', { body: { advanceMs: 60_000 } })).status).toBe(200);
    expect((await query(sim, key)).status).toBe(200);
  });
});

describe('limits switched off', () => {
  it('admits past every limit with { limits: "off" } while scenarios still apply', async () => {
    const { createSimulator } = await import('../../../src/index.js');
    const sim = createSimulator({ seed: 42, limits: 'off' });
    const quota = secretOf(sim, 'key_acme_quota');
    const answers = await burst(150, () => query(sim, quota));
    expect(answers.every((a) => a.status === 200 && a.headers['X-RateLimit-Limit'] === undefined)).toBe(true);
    sim.scenarios.start('outage-window');
    sim.clock.advance(30_000);
    expect((await query(sim, quota)).status).toBe(503);
  });
});
