import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WindowDecision } from '../../../src/sim/admission/sliding-log.js';
import { createMemoryStore, type AdmissionStore } from '../../../src/sim/admission/store.js';
import { createSimulator } from '../../../src/index.js';

/** The in-memory store answers at once. */
const consume = (store: AdmissionStore, ...args: Parameters<AdmissionStore['consume']>): WindowDecision => store.consume(...args) as WindowDecision;

describe('the in-memory admission store with a capped identity table', () => {
  it('keeps at most the cap of identities, whatever arrives', () => {
    const store = createMemoryStore({ maxIdentities: 50 });
    for (let i = 0; i < 10_000; i++) consume(store, `anon:198.51.${i >> 8}.${i & 255}`, i, 60, 60_000);
    expect(store.size()).toBe(50);
  });

  it('cannot judge a new identity while every window in the table is in use, and says when one empties', () => {
    const store = createMemoryStore({ maxIdentities: 2 });
    expect(consume(store, 'a', 0, 10, 1_000).allowed).toBe(true);
    expect(consume(store, 'b', 500, 10, 1_000).allowed).toBe(true);
    const refused = consume(store, 'c', 600, 10, 1_000);
    // Not before a's window empties (1000), nor within a second of this sweep (1600).
    expect(refused).toEqual({ allowed: false, limit: 10, remaining: 0, reset: 1_600, unavailable: true });
    // Identities already in the table go on as before.
    expect(consume(store, 'a', 700, 10, 1_000).allowed).toBe(true);
  });

  it('sweeps a full table at most once a second, however many new identities arrive', () => {
    const store = createMemoryStore({ maxIdentities: 2 });
    consume(store, 'a', 0, 10, 100);
    consume(store, 'b', 10, 10, 100);
    // At 200 both windows are empty: the sweep frees both, c and d enter.
    expect(consume(store, 'c', 200, 10, 100).allowed).toBe(true);
    expect(consume(store, 'd', 300, 10, 100).allowed).toBe(true);
    // At 400 c's window is empty, but the last sweep of a full table was at 200: e waits until 1200.
    expect(consume(store, 'e', 400, 10, 100)).toMatchObject({ allowed: false, unavailable: true, reset: 1_200 });
    expect(consume(store, 'e', 1_200, 10, 100).allowed).toBe(true);
  });

  it('forgets only windows with no entry left inside them, so a returning identity finds its entries', () => {
    const store = createMemoryStore({ maxIdentities: 2 });
    consume(store, 'a', 0, 2, 1_000);
    consume(store, 'b', 900, 2, 1_000);
    consume(store, 'b', 950, 2, 1_000);
    // At 1000 the window of a is empty: c takes its place; b keeps its two entries.
    expect(consume(store, 'c', 1_000, 2, 1_000).allowed).toBe(true);
    expect(consume(store, 'b', 1_001, 2, 1_000).allowed).toBe(false);
  });

  it('answers a new client 503 with Retry-After 5 while the table is full, and the oracle finds no wrong refusal in the journal', async () => {
    const sim = createSimulator({ seed: 42, store: createMemoryStore({ maxIdentities: 2 }) });
    const track = (ip: string) =>
      sim.handle({ method: 'POST', path: '/track', query: { website_id: 'web_acme_www' }, headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, host: 'analytics.test' }, body: JSON.stringify({ name: 'signup' }) });
    const statuses = [];
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) statuses.push((await track(ip)).status);
    const fourth = await track('10.0.0.4');
    expect(statuses).toEqual([200, 200, 503]);
    expect(fourth.headers['Retry-After']).toBe('5');
    expect(JSON.parse(fourth.body)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const oracle = await sim.control.journal.oracle();
    expect(oracle).toMatchObject({ overAdmissions: 0, underAdmissions: 0, accuracy: 100 });
  });

  it('never admits more than the limit in any window of one identity, however many others come and go', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.record({ who: fc.integer({ min: 0, max: 5 }), gap: fc.integer({ min: 0, max: 40 }) }), { maxLength: 200 }),
        (cap, limit, arrivals) => {
          const windowMs = 100;
          const store = createMemoryStore({ maxIdentities: cap });
          const admitted = new Map<number, number[]>();
          let now = 0;
          for (const { who, gap } of arrivals) {
            now += gap;
            if (!consume(store, `id${who}`, now, limit, windowMs).allowed) continue;
            const times = admitted.get(who) ?? [];
            times.push(now);
            admitted.set(who, times);
            expect(times.filter((t) => t > now - windowMs).length).toBeLessThanOrEqual(limit);
            expect(store.size()).toBeLessThanOrEqual(cap);
          }
        },
      ),
    );
  });
});
