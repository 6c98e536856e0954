// Each jest worker on its own sandbox: its own rate limit and its own clock.
import { useSandbox } from './sandbox.mjs';

const sandbox = useSandbox();
const summary = JSON.stringify({ parameters: ['summary_metrics'], preset: 'last_7d' });

describe('my client against its own sandbox', () => {
  it('gets 120 queries a minute, the 121st refused with 429, and in again once its clock moved on', async () => {
    const query = () =>
      fetch(`${sandbox.baseUrl}/v1/query?website_id=web_acme_store`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': sandbox.secrets.get('key_acme_read') },
        body: summary,
      });
    for (let i = 1; i <= 120; i++) expect((await query()).status).toBe(200);
    expect((await query()).status).toBe(429);

    const moved = await fetch(`${sandbox.baseUrl}/__sim/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: 60_000 }) });
    expect((await moved.json()).now).toBe(Date.UTC(2025, 5, 2, 12, 1));
    expect((await query()).status).toBe(200);
  });
});
