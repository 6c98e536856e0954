import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/index.js';
import { call, freshSimulator, type Answer } from '../../helpers/sim.js';
import { rowsFor, STORE, sumOf, type Row } from '../query/support.js';
import { CHROME_MAC, errorSpan, postSpans, vital } from './span-support.js';
import { NOW } from './support.js';

/** One minute before midnight UTC, three days before the clock's day (2025-06-02). */
const PAST = Date.UTC(2025, 4, 30, 23, 59);
const PAST_DAY = '2025-05-30';
const NEXT_DAY = '2025-05-31';
/** The latest instant the service takes: one hour after its clock. */
const LATEST = NOW + 3_600_000;

/** Rows of a query type for web_acme_store on one UTC day. */
function dayRows(sim: Simulator, type: string, day: string, body: Record<string, unknown> = {}): Promise<Row[]> {
  return rowsFor(sim, type, { startDate: day, endDate: day, timezone: 'UTC', limit: 10_000, ...body }, STORE);
}

/** `POST /track` as the browser tracker sends it: ?website_id= and a browser's User-Agent. */
function track(sim: Simulator, body: unknown): Promise<Answer> {
  return call(sim, 'POST', '/track', { query: { website_id: 'web_acme_store' }, headers: { 'user-agent': CHROME_MAC }, body });
}

function batch(sim: Simulator, body: unknown[]): Promise<Answer> {
  return postSpans(sim, '/batch', body);
}

function pageView(eventId: string, timestamp: number): Record<string, unknown> {
  return { eventId, name: 'screen_view', path: `https://store.acme.io/stamped/${eventId}`, anonymousId: `anon_${eventId}`, sessionId: `sess_${eventId}`, timestamp };
}

const pageRow = (rows: readonly Row[], eventId: string) => rows.find((r) => (r.path ?? r.name) === `/stamped/${eventId}`);

describe('POST /track timestamps', () => {
  it('refuses an event stamped more than an hour ahead with 400 basket.INVALID_EVENT_SCHEMA under live, naming 0.timestamp, and takes one exactly an hour ahead', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const late = await track(sim, { name: 'stamp_late', timestamp: LATEST + 1 });
    expect(late.status).toBe(400);
    expect(late.json).toMatchObject({ code: 'basket.INVALID_EVENT_SCHEMA', errors: [{ field: '0.timestamp' }] });
    expect((await track(sim, { name: 'stamp_edge', timestamp: LATEST })).status).toBe(200);
  });

  it('refuses an event stamped more than an hour ahead with 400 INVALID_EVENT_SCHEMA under spec, naming body.timestamp', async () => {
    const late = await track(freshSimulator(), { name: 'stamp_late', timestamp: new Date(LATEST + 1).toISOString() });
    expect(late.status).toBe(400);
    expect(late.json).toMatchObject({ code: 'INVALID_EVENT_SCHEMA', details: [{ field: 'body.timestamp' }] });
  });

  it('accepts an event stamped days ago and counts it on its own UTC day, not the next', async () => {
    const sim = freshSimulator();
    expect((await track(sim, { name: 'stamp_past', timestamp: PAST })).status).toBe(200);
    const on = (await dayRows(sim, 'custom_events', PAST_DAY)).find((r) => r.name === 'stamp_past');
    expect(on?.total_events).toBe(1);
    expect((await dayRows(sim, 'custom_events', NEXT_DAY)).find((r) => r.name === 'stamp_past')).toBeUndefined();
  });
});

describe('POST /batch timestamps', () => {
  it('refuses an item stamped more than an hour ahead in its result, in the service’s words, and stores the others', async () => {
    const answer = await batch(freshSimulator(), [pageView('pv_late', LATEST + 1), pageView('pv_edge', LATEST)]);
    expect(answer.status).toBe(200);
    expect(answer.json.status).toBe('partial');
    expect(answer.json.results[0]).toEqual({
      status: 'error',
      message: 'Invalid event schema',
      code: 'INVALID_EVENT_SCHEMA',
      errors: [{ code: 'custom', field: 'timestamp', message: 'Timestamp too far in the future (max 1 hour ahead)' }],
      eventType: 'track',
      eventId: 'pv_late',
    });
    expect(answer.json.results[1]).toEqual({ status: 'success', type: 'track', eventId: 'pv_edge' });
  });

  it('accepts a page view stamped days ago and counts it on its own UTC day, not the next', async () => {
    const sim = freshSimulator();
    expect((await batch(sim, [pageView('pv_past', PAST)])).json.status).toBe('success');
    expect(pageRow(await dayRows(sim, 'top_pages', PAST_DAY), 'pv_past')).toMatchObject({ pageviews: 1 });
    expect(pageRow(await dayRows(sim, 'top_pages', NEXT_DAY), 'pv_past')).toBeUndefined();
  });
});

describe('POST /vitals and POST /errors timestamps', () => {
  it('refuses a vital stamped more than an hour ahead with 400 basket.INVALID_EVENT_SCHEMA naming 0.timestamp, and takes one an hour ahead', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const late = await postSpans(sim, '/vitals', [vital({ timestamp: LATEST + 1 })]);
    expect(late.status).toBe(400);
    expect(late.json).toMatchObject({
      code: 'basket.INVALID_EVENT_SCHEMA',
      errors: [{ code: 'custom', field: '0.timestamp', message: 'Timestamp too far in the future (max 1 hour ahead)' }],
    });
    expect((await postSpans(sim, '/vitals', [vital({ timestamp: LATEST })])).status).toBe(200);
  });

  it('refuses an error stamped more than an hour ahead with 400 basket.INVALID_EVENT_SCHEMA naming 0.timestamp', async () => {
    const late = await postSpans(freshSimulator({ profile: 'live' }), '/errors', [errorSpan({ timestamp: LATEST + 1 })]);
    expect(late.status).toBe(400);
    expect(late.json).toMatchObject({ code: 'basket.INVALID_EVENT_SCHEMA', errors: [{ code: 'custom', field: '0.timestamp' }] });
  });

  it('accepts a vital stamped days ago and counts it on its own UTC day, not the next', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const samples = async (day: string) => sumOf(await dayRows(sim, 'vitals_overview', day), 'samples');
    const [onBefore, nextBefore] = [await samples(PAST_DAY), await samples(NEXT_DAY)];
    expect((await postSpans(sim, '/vitals', [vital({ timestamp: PAST })])).status).toBe(200);
    expect(await samples(PAST_DAY)).toBe(onBefore + 1);
    expect(await samples(NEXT_DAY)).toBe(nextBefore);
  });

  it('accepts an error stamped days ago and lists it on its own UTC day, not the next', async () => {
    const sim = freshSimulator({ profile: 'live' });
    const message = 'Stamped in the past';
    const only = { filters: [{ field: 'message', op: 'eq', value: message }] };
    expect((await postSpans(sim, '/errors', [errorSpan({ message, timestamp: PAST })], { headers: { 'user-agent': CHROME_MAC } })).status).toBe(200);
    const [row] = await dayRows(sim, 'recent_errors', PAST_DAY, only);
    expect(row).toMatchObject({ message, timestamp: '2025-05-30 23:59:00.000' });
    expect(await dayRows(sim, 'recent_errors', NEXT_DAY, only)).toEqual([]);
  });
});

