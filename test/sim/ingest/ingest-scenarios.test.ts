import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const VIEW = { eventId: 'ev_1', name: 'screen_view', path: 'https://acme.io/a', timestamp: Date.UTC(2025, 5, 2, 10) };

describe('scenarios on ingestion routes', () => {
  it('answers an outage on /batch with 503 in the ingestion envelope, retryable true and Retry-After, and stores nothing', async () => {
    const sim = freshSimulator();
    const scenario = { name: 'ingest-outage', steps: [{ name: 'down', match: { route: '/batch' }, effect: { type: 'outage' } }] };
    expect((await call(sim, 'POST', '/__sim/scenarios', { body: { scenario } })).status).toBe(201);
    const answer = await call(sim, 'POST', '/batch', { query: { client_id: 'web_acme_www' }, headers: { 'user-agent': CHROME }, body: [VIEW] });
    expect(answer.status).toBe(503);
    expect(answer.json).toMatchObject({ success: false, status: 'error', retryable: true });
    expect(answer.headers['Retry-After']).toBe('5');
    const pages = await call(sim, 'POST', '/v1/query', {
      key: secretOf(sim, 'key_acme_read'),
      query: { website_id: 'web_acme_www' },
      body: { parameters: ['top_pages'], startDate: '2025-06-02', endDate: '2025-06-02', limit: 1000 },
    });
    expect(pages.json.data[0].data.find((r: { path?: string }) => r.path === '/a')).toBeUndefined();
  });

  it("answers an injected 429 on POST / with retryable true, as the tracker's retry queue expects", async () => {
    const sim = freshSimulator();
    const scenario = {
      name: 'ingest-errors',
      steps: [{ name: 'limited', match: { route: '/', method: 'POST' }, effect: { type: 'error', status: 429, code: 'RATE_LIMITED', message: 'Slow down' } }],
    };
    expect((await call(sim, 'POST', '/__sim/scenarios', { body: { scenario } })).status).toBe(201);
    const limited = await call(sim, 'POST', '/', { query: { client_id: 'web_acme_www' }, headers: { 'user-agent': CHROME }, body: VIEW });
    expect(limited.status).toBe(429);
    expect(limited.json.retryable).toBe(true);
  });
});
