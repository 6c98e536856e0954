import { describe, expect, it } from 'vitest';
import { replayJournal, type Simulator } from '../../../src/index.js';
import { freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import { event, track, type TrackOptions } from './support.js';

const ip = (address: string) => ({ 'x-forwarded-for': address });

async function burst(sim: Simulator, n: number, options: TrackOptions): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < n; i++) answers.push(await track(sim, event('burst'), options));
  return answers;
}

function expectIngestRefusal(answer: Answer, reset: number, retryAfter: number): void {
  expect(answer.status).toBe(429);
  expect(answer.json).toEqual({
    success: false,
    error: 'Rate limit exceeded',
    code: 'RATE_LIMITED',
    requestId: answer.headers['X-Request-ID'],
    limit: 600,
    remaining: 0,
    reset,
    retryAfter,
  });
  expect(answer.headers['Retry-After']).toBe(String(retryAfter));
  expect(answer.headers['X-RateLimit-Limit']).toBe('600');
  expect(answer.headers['X-RateLimit-Remaining']).toBe('0');
  expect(answer.headers['X-RateLimit-Reset']).toBe(String(reset));
}

describe('the ingestion limit (SPEC 8.3): 600 requests per 60 s', () => {
  it('admits the 600th request of a key in a minute and refuses the 601st with the SPEC 8.4 body and headers', async () => {
    const sim = freshSimulator();
    const options = { key: secretOf(sim, 'key_acme_track'), query: { website_id: 'web_acme_store' } };
    const start = sim.clock.now();
    const answers = await burst(sim, 600, options);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(600);
    expectIngestRefusal(await track(sim, event('burst'), options), start + 60_000, 60);
  });

  it('counts a key across websites and client addresses, and frees slots as the window slides', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    const start = sim.clock.now();
    for (let i = 0; i < 600; i++) {
      const answer = await track(sim, event('slide'), { key, query: { website_id: i % 2 === 0 ? 'web_acme_www' : 'web_acme_docs' }, headers: ip(`10.0.0.${i % 7}`) });
      expect(answer.status).toBe(200);
      if (i === 299) sim.clock.advance(30_000);
    }
    expectIngestRefusal(await track(sim, event('slide'), { key, headers: ip('10.9.9.9') }), start + 60_000, 30);
    sim.clock.advance(29_999);
    expect((await track(sim, event('slide'), { key })).status).toBe(429);
    sim.clock.advance(1);
    // The 300 slots of the first instant are free again; the next 300 free 30 s later.
    expect((await burst(sim, 300, { key })).every((a) => a.status === 200)).toBe(true);
    expect((await track(sim, event('slide'), { key })).status).toBe(429);
  });

  it('counts requests without a key per website and client address, separately from keys', async () => {
    const sim = freshSimulator();
    const start = sim.clock.now();
    const www = { query: { website_id: 'web_acme_www' }, headers: ip('203.0.113.7') };
    expect((await burst(sim, 600, www)).every((a) => a.status === 200)).toBe(true);
    expectIngestRefusal(await track(sim, event('burst'), www), start + 60_000, 60);

    // Another address on the same website, the same address on another website, and a key: each its own window.
    expect((await track(sim, event('burst'), { query: { website_id: 'web_acme_www' }, headers: ip('203.0.113.8') })).status).toBe(200);
    expect((await track(sim, event('burst'), { query: { website_id: 'web_acme_docs' }, headers: ip('203.0.113.7') })).status).toBe(200);
    expect((await track(sim, event('burst'), { ...www, key: secretOf(sim, 'key_acme_track') })).status).toBe(200);
    // The website named by the first event counts like ?website_id=.
    expect((await track(sim, event('burst', { websiteId: 'web_acme_www' }), { headers: ip('203.0.113.7') })).status).toBe(429);
  });

  it('does not let a key’s requests use up the window of a website and address', async () => {
    const sim = freshSimulator();
    const options = { key: secretOf(sim, 'key_acme_track'), query: { website_id: 'web_acme_www' }, headers: ip('198.51.100.1') };
    expect((await burst(sim, 600, options)).every((a) => a.status === 200)).toBe(true);
    expect((await track(sim, event('burst'), options)).status).toBe(429);
    expect((await track(sim, event('burst'), { query: { website_id: 'web_acme_www' }, headers: ip('198.51.100.1') })).status).toBe(200);
  });

  it('journals every decision with its window check, and the oracle agrees with all of them', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    await burst(sim, 601, { key, query: { website_id: 'web_acme_www' } });
    await burst(sim, 2, { query: { website_id: 'web_acme_www' }, headers: ip('192.0.2.1') });
    const entries = sim.journal.list({ route: '/track' });
    expect(entries).toHaveLength(603);
    expect(entries[599]).toMatchObject({ outcome: 'admitted', status: 200, keyId: 'key_acme_track' });
    expect(entries[599]?.checks).toEqual([expect.objectContaining({ rule: 'ingest_limit', id: 'track:apikey:key_acme_track', limit: 600, windowMs: 60_000, allowed: true })]);
    expect(entries[600]).toMatchObject({ outcome: 'ingest_limit', status: 429 });
    expect(entries[600]?.checks).toEqual([expect.objectContaining({ rule: 'ingest_limit', allowed: false })]);
    expect(entries[601]?.checks).toEqual([expect.objectContaining({ id: 'track:website:web_acme_www:192.0.2.1', allowed: true })]);
    const report = replayJournal(sim.journal.list(), sim.journal.info());
    expect(report.disagreements).toEqual([]);
    expect(report.accuracy).toBe(100);
  });

  it('does not count refusals made before the limit, nor bots', async () => {
    const sim = freshSimulator();
    const options = { query: { website_id: 'web_acme_www' }, headers: ip('192.0.2.9') };
    for (let i = 0; i < 50; i++) {
      expect((await track(sim, { name: '' }, options)).status).toBe(400);
      expect((await track(sim, event('bot'), { ...options, headers: { ...options.headers, 'user-agent': 'AhrefsBot/7.0' } })).status).toBe(204);
    }
    expect((await burst(sim, 600, options)).every((a) => a.status === 200)).toBe(true);
    expect(sim.journal.list({ route: '/track', outcome: 'admitted' }).filter((e) => e.checks.length === 0)).toHaveLength(100);
  });

  it('applies no ingestion limit with limits off', async () => {
    const sim = freshSimulator({ limits: 'off' });
    const key = secretOf(sim, 'key_acme_track');
    expect((await burst(sim, 700, { key })).every((a) => a.status === 200)).toBe(true);
    expect(sim.journal.list({ route: '/track' }).every((e) => e.checks.length === 0)).toBe(true);
  });
});
