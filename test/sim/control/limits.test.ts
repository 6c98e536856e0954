import { describe, expect, it } from 'vitest';
import { limitsReportSchema, type KeyLimits, type LimitsReport } from '../../../src/contract/limits.js';
import { createMemoryStore, type AdmissionStore } from '../../../src/sim/admission/store.js';
import { INSPECTOR_SCRIPT } from '../../../src/sim/control/inspector-bundle.js';
import type { Simulator } from '../../../src/sim/simulator.js';
import { SUMMARY_QUERY } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const START = Date.UTC(2025, 5, 2, 12, 0, 0);

async function limitsOf(sim: Simulator): Promise<LimitsReport> {
  const answer = await call(sim, 'GET', '/__sim/limits');
  expect(answer.status).toBe(200);
  return limitsReportSchema.parse(answer.json);
}

function keyOf(report: LimitsReport, id: string): KeyLimits {
  const key = report.keys.find((k) => k.id === id);
  if (!key) throw new Error(`no key ${id} in the report`);
  return key;
}

const query = (sim: Simulator, key: string) => call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_store' }, body: SUMMARY_QUERY });

const advance = (sim: Simulator, advanceMs: number) => call(sim, 'POST', '/__sim/clock', { body: { advanceMs } });

describe('GET /__sim/limits', () => {
  it('lists every fixture key with a full quota and empty windows before any request', async () => {
    const sim = freshSimulator();
    const report = await limitsOf(sim);
    expect(report.now).toBe(START);
    expect(report.storeReadable).toBe(true);
    expect(report.inFlight).toEqual({ total: 0, cap: 20 });
    expect(report.omittedKeys).toBe(0);
    expect(report.keys.map((k) => k.id)).toEqual(expect.arrayContaining(['key_acme_read', 'key_acme_quota', 'key_acme_revoked']));
    expect(keyOf(report, 'key_acme_quota').quota).toEqual({
      rule: 'key_quota',
      name: 'quota',
      id: 'api-key:key_acme_quota',
      limit: 10,
      windowMs: 60_000,
      used: 0,
      remaining: 10,
      reset: null,
    });
    expect(keyOf(report, 'key_acme_read').quota).toBeNull();
    expect(keyOf(report, 'key_acme_read').windows.map((w) => [w.name, w.limit, w.used])).toEqual([
      ['query:execute', 120, 0],
      ['query:compile', 300, 0],
      ['track', 600, 0],
    ]);
    expect(keyOf(report, 'key_acme_revoked').status).toBe('revoked');
    expect(keyOf(report, 'key_acme_disabled').status).toBe('disabled');
    expect(keyOf(report, 'key_acme_expired').status).toBe('expired');
  });

  it('counts what the quota holds at the current instant and frees it as the window slides', async () => {
    const sim = freshSimulator();
    const secret = secretOf(sim, 'key_acme_quota');
    for (let i = 0; i < 4; i++) expect((await query(sim, secret)).status).toBe(200);
    await advance(sim, 30_000);
    for (let i = 0; i < 2; i++) expect((await query(sim, secret)).status).toBe(200);

    const quota = keyOf(await limitsOf(sim), 'key_acme_quota');
    expect(quota.quota).toMatchObject({ used: 6, remaining: 4, reset: START + 60_000 });
    expect(quota.windows.find((w) => w.name === 'query:execute')).toMatchObject({ id: 'query:execute:apikey:key_acme_quota', used: 6, remaining: 114 });

    await advance(sim, 30_000);
    expect(keyOf(await limitsOf(sim), 'key_acme_quota').quota).toMatchObject({ used: 2, remaining: 8, reset: START + 90_000 });
    await advance(sim, 30_000);
    expect(keyOf(await limitsOf(sim), 'key_acme_quota').quota).toMatchObject({ used: 0, remaining: 10, reset: null });
  });

  it('agrees with the X-RateLimit headers of the last admitted request and with the next refusal', async () => {
    const sim = freshSimulator();
    const secret = secretOf(sim, 'key_acme_quota');
    let last;
    for (let i = 0; i < 10; i++) last = await query(sim, secret);
    const quota = keyOf(await limitsOf(sim), 'key_acme_quota').quota;
    expect(quota?.remaining).toBe(Number(last?.headers['X-RateLimit-Remaining']));
    expect(quota?.remaining).toBe(0);
    const refused = await query(sim, secret);
    expect(refused.status).toBe(429);
    expect(quota?.reset).toBe(Number(refused.headers['X-RateLimit-Reset']));
  });

  it('reads without recording: asking many times admits exactly as many requests afterwards', async () => {
    const sim = freshSimulator();
    const secret = secretOf(sim, 'key_acme_quota');
    for (let i = 0; i < 5; i++) await limitsOf(sim);
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await query(sim, secret)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.at(-1)).toBe(429);
  });

  it('counts the requests a key has in flight until the adapter releases them', async () => {
    const sim = freshSimulator();
    const secret = secretOf(sim, 'key_acme_read');
    const held = await Promise.all(
      [0, 1, 2].map(() => sim.handle({ method: 'GET', path: '/v1/query/types', query: {}, headers: { 'x-api-key': secret } }, { holdSlot: true })),
    );
    const during = await limitsOf(sim);
    expect(keyOf(during, 'key_acme_read').inFlight).toBe(3);
    expect(during.inFlight.total).toBe(3);
    expect(keyOf(during, 'key_acme_quota').inFlight).toBe(0);
    for (const response of held) response.release?.();
    expect(keyOf(await limitsOf(sim), 'key_acme_read').inFlight).toBe(0);
  });

  it('never shows a secret', async () => {
    const sim = freshSimulator();
    const answer = await call(sim, 'GET', '/__sim/limits');
    const secrets = (sim.fixtures() as { apiKeys: { secret: string | null }[] }).apiKeys.flatMap((k) => (k.secret ? [k.secret] : []));
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(answer.text).not.toContain(secret);
    expect(answer.text).not.toContain('keyHash');
  });

  it('starts over after a reset', async () => {
    const sim = freshSimulator();
    const secret = secretOf(sim, 'key_acme_quota');
    await query(sim, secret);
    await call(sim, 'POST', '/__sim/reset');
    expect(keyOf(await limitsOf(sim), 'key_acme_quota').quota).toMatchObject({ used: 0, remaining: 10 });
  });

  it('says the store cannot be read, with null figures, when the store has no read operation', async () => {
    const inner = createMemoryStore();
    const opaque: AdmissionStore = { consume: (...args) => inner.consume(...args), clear: () => inner.clear(), size: () => inner.size() };
    const report = await limitsOf(freshSimulator({ store: opaque }));
    expect(report.storeReadable).toBe(false);
    expect(keyOf(report, 'key_acme_quota').quota).toMatchObject({ limit: 10, used: null, remaining: null, reset: null });
  });

  it('says the store cannot be read when it fails, instead of guessing', async () => {
    const failing: AdmissionStore = { ...createMemoryStore(), peek: () => Promise.reject(new Error('store down')) };
    const report = await limitsOf(freshSimulator({ store: failing }));
    expect(report.storeReadable).toBe(false);
    expect(keyOf(report, 'key_acme_read').windows.every((w) => w.used === null && w.remaining === null)).toBe(true);
  });
});

describe('GET /__sim/ui', () => {
  it('answers the inspector page as HTML that cannot be framed and runs no inline script', async () => {
    const answer = await call(freshSimulator(), 'GET', '/__sim/ui');
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['Content-Security-Policy']).toContain("script-src 'self'");
    expect(answer.headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(answer.text).toContain('<script src="ui/inspector.js" defer></script>');
    expect(answer.text).toContain('ui/assets/uPlot.iife.min.js');
    expect(answer.text).not.toMatch(/<script>(?!<\/script>)/);
  });

  it('redirects a trailing slash, so that the relative references resolve', async () => {
    const answer = await call(freshSimulator(), 'GET', '/__sim/ui/');
    expect(answer.status).toBe(308);
    expect(answer.headers.Location).toBe('../ui');
  });

  it('serves its script, the bundle of src/inspector with the shared charts', async () => {
    const answer = await call(freshSimulator(), 'GET', '/__sim/ui/inspector.js');
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect(answer.text).toBe(INSPECTOR_SCRIPT);
    expect(answer.text).toContain('Chart unavailable: uPlot was not loaded');
    expect(answer.text).toContain('/__sim/limits');
    expect(answer.text).not.toContain('innerHTML');
  });

  it('leaves the chart library to the HTTP adapters: the core answers 404 for it', async () => {
    expect((await call(freshSimulator(), 'GET', '/__sim/ui/assets/uPlot.iife.min.js')).status).toBe(404);
  });
});
