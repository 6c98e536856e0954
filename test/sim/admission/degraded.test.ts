import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/index.js';
import type { AdmissionStore } from '../../../src/sim/admission/store.js';
import { call, secretOf } from '../../helpers/sim.js';

/** A store whose backend is down: every operation rejects. */
const brokenStore: AdmissionStore = {
  consume: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379 (password hunter2)')),
  clear: () => undefined,
  size: () => 0,
};

describe('degraded admission (SPEC 8.2.3)', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After: 5 when the admission store fails', async () => {
    const sim = createSimulator({ seed: 42, store: brokenStore });
    const key = secretOf(sim, 'key_acme_read');
    const answer = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_www' }, body: { parameters: ['summary_metrics'], preset: 'today' } });
    expect(answer.status).toBe(503);
    expect(answer.headers['Retry-After']).toBe('5');
    expect(answer.json).toEqual({
      success: false,
      error: 'This service is temporarily unavailable. Try again in a moment.',
      code: 'SERVICE_UNAVAILABLE',
      requestId: answer.headers['X-Request-ID'],
    });
  });

  it('leaks neither the key nor the store error in the 503', async () => {
    const sim = createSimulator({ seed: 42, store: brokenStore });
    const key = secretOf(sim, 'key_acme_quota');
    const answer = await call(sim, 'GET', '/v1/query/websites', { key });
    expect(answer.status).toBe(503);
    expect(answer.text).not.toContain(key);
    expect(answer.text).not.toMatch(/ECONNREFUSED|hunter2|6379/);
  });

  it('still answers routes that consult no window, and records the 503 in the journal', async () => {
    const sim = createSimulator({ seed: 42, store: brokenStore });
    const key = secretOf(sim, 'key_acme_read');
    expect((await call(sim, 'GET', '/v1/query/websites', { key })).status).toBe(200);
    await call(sim, 'POST', '/v1/query/compile', { key, body: { projectId: 'web_acme_www', type: 'top_pages', from: '2025-05-01', to: '2025-05-02' } });
    const journal = await call(sim, 'GET', '/__sim/journal', { query: { outcome: 'degraded' } });
    expect(journal.json.entries).toHaveLength(1);
    expect(journal.json.entries[0]).toMatchObject({ outcome: 'degraded', status: 503, route: '/v1/query/compile' });
  });

  it('keeps in the journal why the store failed, by its error code, and the fix, but never the store\u2019s own words', async () => {
    const refusing: AdmissionStore = {
      ...brokenStore,
      consume: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379 (password hunter2)'), { code: 'ECONNREFUSED' })),
    };
    const sim = createSimulator({ seed: 42, store: refusing });
    const key = secretOf(sim, 'key_acme_read');
    const answer = await call(sim, 'POST', '/v1/query/compile', { key, body: { projectId: 'web_acme_www', type: 'top_pages', from: '2025-05-01', to: '2025-05-02' } });
    expect(answer.status).toBe(503);
    expect(answer.text).not.toMatch(/ECONNREFUSED|admission store/);
    const journal = await call(sim, 'GET', '/__sim/journal', { query: { outcome: 'degraded' } });
    expect(journal.json.entries[0].reason).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'This service is temporarily unavailable. Try again in a moment.',
      field: null,
      cause: 'the admission store failed (ECONNREFUSED)',
      fix: expect.stringMatching(/^Bring the admission store back \(with Redis, GET \/__sim\/health shows store.lastError/),
    });
    expect(journal.text).not.toMatch(/hunter2|6379/);
  });

  it('treats a store that throws synchronously the same way', async () => {
    const throwing: AdmissionStore = { ...brokenStore, consume: () => { throw new Error('boom'); } };
    const sim = createSimulator({ seed: 42, store: throwing });
    const answer = await call(sim, 'GET', '/v1/query/websites', { key: secretOf(sim, 'key_acme_quota_default') });
    expect(answer.status).toBe(503);
    const journal = await call(sim, 'GET', '/__sim/journal', { query: { outcome: 'degraded' } });
    expect(journal.json.entries[0].reason.cause).toBe('the admission store failed (Error)');
  });
});
