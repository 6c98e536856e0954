import { describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../../src/index.js';
import { call, secretOf } from '../../helpers/sim.js';

/** The virtual clock's default start: 2025-06-02T12:00:00Z. */
const NOW = Date.UTC(2025, 5, 2, 12, 0, 0);

/** `POST /track` of one event named `name` on web_acme_store, stamped at the clock's now. */
function trackNow(sim: Simulator, name: string) {
  return call(sim, 'POST', '/track', { key: secretOf(sim, 'key_acme_track'), body: { name, websiteId: 'web_acme_store', timestamp: sim.clock.now() } });
}

/** Tracked events named `name` today on web_acme_store, as custom_events counts them (0 when absent). */
async function countOf(sim: Simulator, name: string): Promise<number> {
  const answer = await call(sim, 'POST', '/v1/query', {
    key: secretOf(sim, 'key_acme_read'),
    query: { website_id: 'web_acme_store' },
    body: { parameters: ['custom_events'], startDate: '2025-06-02', endDate: '2025-06-02', filters: [{ field: 'event_name', op: 'eq', value: name }] },
  });
  expect(answer.status).toBe(200);
  return ((answer.json.data[0].data as { total_events: number }[])[0]?.total_events as number | undefined) ?? 0;
}

describe('the ingestion delay', () => {
  it('shows a tracked event at once by default, on a frozen virtual clock', async () => {
    const sim = createSimulator({ seed: 42 });
    expect(sim.clock.now()).toBe(NOW);
    expect((await trackNow(sim, 'delay_none')).status).toBe(200);
    expect(await countOf(sim, 'delay_none')).toBe(1);
  });

  it('with ingestDelayMs, shows an accepted event only once the clock has moved that far past its acceptance', async () => {
    const sim = createSimulator({ seed: 42, ingestDelayMs: 5000 });
    const accepted = await trackNow(sim, 'delay_five');
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ status: 'success' });
    expect(await countOf(sim, 'delay_five')).toBe(0);
    sim.clock.advance(4999);
    expect(await countOf(sim, 'delay_five')).toBe(0);
    sim.clock.advance(1);
    expect(await countOf(sim, 'delay_five')).toBe(1);
  });

  it('is set at run time with PUT /__sim/ingest-delay, reports what it holds, and a reset keeps the setting', async () => {
    const sim = createSimulator({ seed: 42 });
    expect((await call(sim, 'GET', '/__sim/ingest-delay')).json).toEqual({ ms: 0, pending: 0 });
    const set = await call(sim, 'PUT', '/__sim/ingest-delay', { body: { ms: 2000 } });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ ms: 2000, pending: 0 });
    await trackNow(sim, 'delay_put');
    expect((await call(sim, 'GET', '/__sim/ingest-delay')).json).toEqual({ ms: 2000, pending: 1 });
    expect(await countOf(sim, 'delay_put')).toBe(0);
    sim.clock.advance(2000);
    expect(await countOf(sim, 'delay_put')).toBe(1);
    expect((await call(sim, 'GET', '/__sim/ingest-delay')).json).toEqual({ ms: 2000, pending: 0 });

    await sim.reset();
    expect((await call(sim, 'GET', '/__sim/ingest-delay')).json).toEqual({ ms: 2000, pending: 0 });
    expect((await call(sim, 'PUT', '/__sim/ingest-delay', { body: { ms: 0 } })).json).toEqual({ ms: 0, pending: 0 });
    await trackNow(sim, 'delay_back_to_none');
    expect(await countOf(sim, 'delay_back_to_none')).toBe(1);
  });

  it('holds every kind of record: a page view on /batch and an identify wait as long as a tracked event', async () => {
    const sim = createSimulator({ seed: 42, ingestDelayMs: 1000 });
    const now = sim.clock.now();
    const page = await call(sim, 'POST', '/batch', {
      query: { client_id: 'web_acme_www' },
      headers: { 'content-type': 'text/plain', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' },
      body: JSON.stringify([{ eventId: 'delay_pv', name: 'screen_view', path: 'https://acme.io/delayed', anonymousId: 'anon_d', sessionId: 'sess_d', timestamp: now }]),
    });
    expect(page.status).toBe(200);
    const identified = await call(sim, 'POST', '/identify', { key: secretOf(sim, 'key_acme_track'), body: { profileId: 'delayed_user', anonymousId: 'anon_d', websiteId: 'web_acme_store' } });
    expect(identified.status).toBe(200);
    const pages = async () => {
      const answer = await call(sim, 'POST', '/v1/query', {
        key: secretOf(sim, 'key_acme_read'),
        query: { website_id: 'web_acme_www' },
        body: { parameters: ['top_pages'], startDate: '2025-06-02', endDate: '2025-06-02', limit: 1000 },
      });
      return (answer.json.data[0].data as { path: string }[]).filter((r) => r.path === '/delayed').length;
    };
    const profiles = async () => (await call(sim, 'GET', '/__sim/profiles', { query: { website_id: 'web_acme_store' } })).json.total as number;
    expect([await pages(), await profiles()]).toEqual([0, 0]);
    sim.clock.advance(1000);
    expect([await pages(), await profiles()]).toEqual([1, 1]);
  });

  it('counts held events against the storage bound, so what it accepted is never dropped later', async () => {
    const sim = createSimulator({ seed: 42, ingestDelayMs: 1000, eventStorage: { maxEvents: 2 } });
    expect((await trackNow(sim, 'held_1')).status).toBe(200);
    expect((await trackNow(sim, 'held_2')).status).toBe(200);
    const refused = await trackNow(sim, 'held_3');
    expect(refused.status).toBe(503);
    sim.clock.advance(1000);
    expect([await countOf(sim, 'held_1'), await countOf(sim, 'held_2'), await countOf(sim, 'held_3')]).toEqual([1, 1, 0]);
  });

  it('refuses a delay that is not whole milliseconds from 0 to a day with 422 VALIDATION naming ms, and keeps the one in force', async () => {
    const sim = createSimulator({ seed: 42, ingestDelayMs: 10 });
    for (const ms of [-1, 1.5, 86_400_001, 'soon']) {
      const answer = await call(sim, 'PUT', '/__sim/ingest-delay', { body: { ms } });
      expect(answer.status).toBe(422);
      expect(answer.json).toMatchObject({ code: 'VALIDATION', details: [expect.objectContaining({ field: 'body.ms' })] });
    }
    expect((await call(sim, 'GET', '/__sim/ingest-delay')).json.ms).toBe(10);
    expect(() => createSimulator({ seed: 42, ingestDelayMs: -5 })).toThrow(/ingestDelayMs: ms must be 0/);
  });
});
