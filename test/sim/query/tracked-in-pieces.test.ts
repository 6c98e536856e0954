import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/index.js';
import { LONG_TRACKED_EVENTS } from '../../../src/sim/query/engine/prefetch-traffic.js';

/**
 * Queries over many events tracked with `POST /track` are answered in pieces, however short
 * their range: other requests run between the pieces of the scan, and the rows are those of one
 * piece. Seeds of their own: the suite's files share a process, and with it the days and seeded
 * results other simulators of a seed computed.
 */

/** Tracked events posted: a few pieces' worth. */
const TRACKED = 3 * LONG_TRACKED_EVENTS;
const NAMES = 7;
const END = Date.UTC(2025, 5, 2, 11, 0);

/** The time of the n-th event posted: a minute apart, back from 11:00 over a week (the first days' outside the range asked). */
const timeOf = (n: number): number => END - (n % (7 * 24 * 60)) * 60_000;
/** Events of one {@link track} within the range asked (from 2025-05-27). */
const IN_RANGE = Array.from({ length: TRACKED }, (_, n) => timeOf(n)).filter((ms) => ms >= Date.UTC(2025, 4, 27)).length;

/** Posts {@link TRACKED} events over the week before the clock's now, 100 a request: `ev_0` … `ev_6` in turn. */
async function track(sim: Simulator): Promise<void> {
  for (let sent = 0; sent < TRACKED; sent += 100) {
    const body = Array.from({ length: 100 }, (_, i) => {
      const n = sent + i;
      return { name: `ev_${n % NAMES}`, timestamp: timeOf(n), anonymousId: `anon_${n % 300}`, sessionId: `sess_${n % 900}`, properties: { plan: `p${n % 5}` } };
    });
    const answer = await call(sim, 'POST', '/track', { key: secretOf(sim, 'key_acme_track'), query: { website_id: 'web_acme_store' }, body });
    expect(answer.status).toBe(200);
  }
}

const ask = (sim: Simulator, type: string, extra: Record<string, unknown> = {}): Promise<Answer> =>
  call(sim, 'POST', '/v1/query', {
    key: secretOf(sim, 'key_acme_read'),
    query: { website_id: 'web_acme_store' },
    body: { parameters: [type], startDate: '2025-05-27', endDate: '2025-06-02', ...extra },
  });

/** What one parameter answered: its rows, or its error. */
const rowsOf = (answer: Answer): unknown => answer.json.data?.[0]?.data ?? answer.json;

describe('tracked events read in pieces', () => {
  it('answers the types that read tracked events in several pieces over a few pieces of events of one week, with the rows of a simulator that never pauses', async () => {
    const seed = 'tracked-in-pieces';
    let yields = 0;
    const paused = freshSimulator({ seed, limits: 'off', yieldToEventLoop: () => Promise.resolve(void yields++) });
    const whole = freshSimulator({ seed, limits: 'off' });
    await track(paused);
    await track(whole);
    const cases: [string, Record<string, unknown>][] = [
      ['custom_events', {}],
      ['custom_events_recent', { limit: 5 }],
      ['custom_event_properties', { filters: [{ field: 'event_name', op: 'eq', value: 'ev_3' }] }],
      ['profile_list', { limit: 5 }],
      ['interesting_sessions', { limit: 5 }],
      ['summary_metrics', { filters: [{ field: 'path', op: 'ne', value: '/nowhere' }] }],
    ];
    for (const [type, extra] of cases) {
      yields = 0;
      const answer = await ask(paused, type, extra);
      expect(answer.status, type).toBe(200);
      expect(yields, type).toBeGreaterThanOrEqual(2);
      expect(rowsOf(answer), type).toEqual(rowsOf(await ask(whole, type, extra)));
    }
  }, 60_000);

  it('counts each tracked event once in two custom_events queries whose pieces interleave over the same kept tally', async () => {
    const seed = 'tracked-in-pieces-interleaved';
    let pauses = 0;
    const sim = freshSimulator({ seed, limits: 'off', yieldToEventLoop: () => new Promise<void>((resolve) => setImmediate(() => resolve(void pauses++))) });
    await track(sim);
    // The tally is kept by the first answer and brought up to date by the next ones: post more
    // events after it, then ask twice at once, so both bring the same tally up to date.
    expect((await ask(sim, 'custom_events')).status).toBe(200);
    await track(sim);
    await track(sim);
    pauses = 0;
    const [a, b] = await Promise.all([ask(sim, 'custom_events'), ask(sim, 'custom_events')]);
    // Each paused between pieces, letting the other go on with the same tally meanwhile.
    expect(pauses).toBeGreaterThanOrEqual(3);
    const single = freshSimulator({ seed, limits: 'off' });
    for (let round = 0; round < 3; round++) await track(single);
    const expected = rowsOf(await ask(single, 'custom_events'));
    expect(rowsOf(a)).toEqual(expected);
    expect(rowsOf(b)).toEqual(expected);
    const tracked = (rowsOf(a) as { name: string; total_events: number }[]).filter((row) => row.name.startsWith('ev_'));
    expect(tracked.reduce((sum, row) => sum + row.total_events, 0)).toBe(3 * IN_RANGE);
  }, 60_000);
});
