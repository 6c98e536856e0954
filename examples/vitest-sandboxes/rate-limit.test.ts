import { describe, expect } from 'vitest';
import { test } from './sandbox-fixture.js';

const summary = JSON.stringify({ parameters: ['summary_metrics'], preset: 'last_7d' });

describe('my client against its own sandbox', () => {
  test('gets 120 queries a minute, the 121st refused with 429, and in again once its clock moved on', async ({ fresh: sandbox }) => {
    const key = sandbox.secretOf('key_acme_read');
    const query = () =>
      fetch(`${sandbox.baseUrl}/v1/query?website_id=web_acme_store`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: summary });
    for (let i = 1; i <= 120; i++) expect((await query()).status).toBe(200);
    const refused = await query();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');

    await sandbox.advance(60_000); // this worker's clock only
    const clock = (await (await fetch(`${sandbox.baseUrl}/__sim/clock`)).json()) as { now: number };
    expect(clock.now).toBe(Date.UTC(2025, 5, 2, 12, 1));
    expect((await query()).status).toBe(200);
  });

  test('sees only its own requests in its journal', async ({ fresh: sandbox }) => {
    const key = sandbox.secretOf('key_acme_read');
    for (let i = 0; i < 3; i++) await fetch(`${sandbox.baseUrl}/v1/query/websites`, { headers: { 'x-api-key': key } });
    const journal = (await (await fetch(`${sandbox.baseUrl}/__sim/journal`)).json()) as { entries: unknown[] };
    expect(journal.entries).toHaveLength(3);
  });
});
