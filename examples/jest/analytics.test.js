// jest against analytics-sim in an ESM project (package.json "type": "module", jest.config.mjs beside it).
// Run: NODE_OPTIONS=--experimental-vm-modules npx jest
// describe, it, expect, beforeAll and afterAll are jest's globals, in ES modules too.
import { createSimulator } from 'analytics-sim';
import { createExpressApp } from 'analytics-sim/express';

const sim = createSimulator({ seed: 42 }); // the seeded world, a virtual clock at 2025-06-02T12:00:00Z
const key = sim.fixtures().apiKeys.find((k) => k.id === 'key_acme_read').secret;
const summary = JSON.stringify({ parameters: ['summary_metrics'], preset: 'last_7d' });

describe('analytics-sim under jest', () => {
  it('answers a query in process with sim.fetch', async () => {
    const res = await sim.fetch('/v1/query?website_id=web_acme_store', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: summary,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.data[0].parameter).toBe('summary_metrics');
  });

  describe('over HTTP on a free port', () => {
    let server;
    let baseUrl;
    beforeAll(async () => {
      server = createExpressApp(sim).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      baseUrl = `http://127.0.0.1:${server.address().port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('lists the websites of a fixture key, and refuses a request without one', async () => {
      const res = await fetch(`${baseUrl}/v1/query/websites`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.websites.map((w) => w.id)).toContain('web_acme_store');
      expect((await fetch(`${baseUrl}/v1/query?website_id=web_acme_store`, { method: 'POST', body: summary })).status).toBe(401);
    });
  });
});
