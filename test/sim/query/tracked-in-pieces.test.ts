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

/**
 * Posts `count` events over the week before the clock's now, 100 a request: `ev_0` … `ev_6` in
 * turn, from 300 visitors in 900 sessions with 5 plans, or (`unique`) each from a visitor and
 * session of its own with a plan of its own, all within the range asked (its last five days).
 */
async function track(sim: Simulator, count = TRACKED, unique = false): Promise<void> {
  for (let sent = 0; sent < count; sent += 100) {
    const body = Array.from({ length: 100 }, (_, i) => {
      const n = sent + i;
      const who = unique ? { anonymousId: `anon_${n}`, sessionId: `sess_${n}`, properties: { plan: `v${n}` } } : { anonymousId: `anon_${n % 300}`, sessionId: `sess_${n % 900}`, properties: { plan: `p${n % 5}` } };
      return { name: `ev_${n % NAMES}`, timestamp: unique ? END - (n % (5 * 24 * 60)) * 60_000 : timeOf(n), ...who };
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

  it('answers two custom_events queries whose pieces interleave while the first one stops keeping a tally grown past its bound, both right', async () => {
    const seed = 'tracked-in-pieces-dropped-tally';
    const sim = freshSimulator({ seed, limits: 'off', yieldToEventLoop: () => new Promise<void>((resolve) => setImmediate(resolve)) });
    const single = freshSimulator({ seed, limits: 'off' });
    // Over 100,000 distinct visitors and sessions between them: the kept tally is dropped after the pass that grew it.
    await track(sim, 52_000, true);
    await track(single, 52_000, true);
    const [a, b] = await Promise.all([ask(sim, 'custom_events'), ask(sim, 'custom_events')]);
    const expected = rowsOf(await ask(single, 'custom_events'));
    expect(rowsOf(a)).toEqual(expected);
    expect(rowsOf(b)).toEqual(expected);
  }, 60_000);

  it('answers a property query started in the middle of another one right, both of them and the next, when the kept tally of values has grown past its bound', async () => {
    const seed = 'tracked-in-pieces-dropped-values';
    const type = 'custom_events_property_cardinality';
    let pauses = 0;
    let atPause: (() => void) | undefined;
    const paused = (): Simulator =>
      freshSimulator({ seed, limits: 'off', yieldToEventLoop: () => new Promise<void>((resolve) => setImmediate(() => resolve(void (++pauses, atPause?.())))) });
    const sim = paused();
    const twin = paused();
    const single = freshSimulator({ seed, limits: 'off' });
    // 80,000 plans of their own: over 100,000 values and raw texts kept.
    for (const each of [sim, twin, single]) await track(each, 80_000, true);
    const expected = rowsOf(await ask(single, type));
    pauses = 0;
    expect(rowsOf(await ask(twin, type))).toEqual(expected);
    const lone = pauses;
    expect(lone).toBeGreaterThanOrEqual(4);
    // The second query starts three pieces before the first one's end.
    pauses = 0;
    let second: Promise<Answer> | undefined;
    atPause = () => {
      if (second === undefined && pauses === lone - 3) second = ask(sim, type);
    };
    const first = await ask(sim, type);
    expect(second).toBeDefined();
    expect(rowsOf(first)).toEqual(expected);
    expect(rowsOf(await (second as Promise<Answer>))).toEqual(expected);
    atPause = undefined;
    expect(rowsOf(await ask(sim, type))).toEqual(expected);
  }, 60_000);
});
