import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/index.js';
import { call, freshSimulator } from '../../helpers/sim.js';

describe('the control plane against web pages', () => {
  it('refuses a cross-site page with 403 and leaves the clock alone', async () => {
    const sim = freshSimulator();
    const before = sim.clock.now();
    const answer = await call(sim, 'POST', '/__sim/clock', { body: { advanceMs: 60_000 }, headers: { origin: 'https://evil.example' } });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: 'FORBIDDEN', error: 'Forbidden origin' });
    expect(sim.clock.now()).toBe(before);
    expect((await call(sim, 'GET', '/__sim/fixtures', { headers: { origin: 'null' } })).status).toBe(403);
  });

  it('answers pages served from this machine', async () => {
    const sim = freshSimulator();
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8787', 'http://[::1]:3000']) {
      expect((await call(sim, 'GET', '/__sim/health', { headers: { origin } })).status).toBe(200);
    }
  });

  it('refuses a form-encoded or text/plain body, which a page could send without a preflight', async () => {
    const sim = freshSimulator();
    const answer = await call(sim, 'POST', '/__sim/clock', { body: '{"advanceMs":1000}', headers: { 'content-type': 'text/plain' } });
    expect(answer.status).toBe(415);
    expect((await call(sim, 'POST', '/__sim/reset', { body: 'seed=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
  });

  it('refuses a foreign Host name when the host guard is on (DNS rebinding)', async () => {
    const sim = createSimulator({ seed: 42, guardControlHost: true });
    expect((await call(sim, 'GET', '/__sim/fixtures', { headers: { host: 'attacker.example:8787' } })).status).toBe(403);
    expect((await call(sim, 'GET', '/__sim/fixtures', { headers: { host: '127.0.0.1:8787' } })).status).toBe(200);
    expect((await call(sim, 'GET', '/__sim/fixtures', { headers: { host: 'localhost:8787' } })).status).toBe(200);
  });

  it('leaves the simulated API open to any origin', async () => {
    const sim = freshSimulator();
    expect((await call(sim, 'GET', '/v1/query/types', { headers: { origin: 'https://app.example' } })).status).toBe(200);
  });
});
