import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/index.js';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import { advanceClock } from '../query/support.js';
import { CHROME_MAC } from './span-support.js';
import { NOW, queryRows } from './support.js';

/** Half an hour before the clock, on the clock's day. */
const EARLIER = NOW - 30 * 60_000;

/** A page view of web_acme_www, as the tracker sends it. */
function pageView(eventId: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { eventId, name: 'screen_view', path: `https://acme.io/schema/${eventId}`, anonymousId: 'anon_schema', sessionId: 'sess_schema', timestamp: EARLIER, ...fields };
}

/** An outgoing-link click of web_acme_www. */
function linkClick(eventId: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'outgoing_link', eventId, href: 'https://elsewhere.example/x', timestamp: EARLIER, ...fields };
}

function batch(sim: Simulator, body: unknown[]): Promise<Answer> {
  return call(sim, 'POST', '/batch', { query: { client_id: 'web_acme_www' }, headers: { 'user-agent': CHROME_MAC }, body });
}

/** Each item's outcome of a `/batch` answer: 'success', or the fields its errors name. */
async function outcomes(items: unknown[]): Promise<(string | string[])[]> {
  const answer = await batch(freshSimulator(), items);
  expect(answer.status).toBe(200);
  return (answer.json.results as { status: string; errors?: { field: string }[] }[]).map((r) => (r.status === 'success' ? 'success' : (r.errors ?? []).map((e) => e.field)));
}

/** The rows of a query type on web_acme_www today. */
async function todayRows(sim: Simulator, type: string): Promise<Record<string, unknown>[]> {
  const answer = await call(sim, 'POST', '/v1/query', {
    key: secretOf(sim, 'key_acme_read'),
    query: { website_id: 'web_acme_www' },
    body: { parameters: [type], startDate: '2025-06-02', endDate: '2025-06-02', limit: 1000 },
  });
  expect(answer.status).toBe(200);
  return answer.json.data[0].data;
}

describe('analyticsEventSchema (POST /batch and POST /) as the service declares it', () => {
  it('takes a path and a referrer longer than 2,048 characters: the service caps neither', async () => {
    const long = `https://acme.io/${'a'.repeat(3000)}`;
    expect(await outcomes([pageView('pv_long_path', { path: long }), pageView('pv_long_ref', { referrer: long })])).toEqual(['success', 'success']);
  });

  it('takes a path on a domain or on localhost with a port, and refuses an IP address or a bare host name, naming path', async () => {
    expect(
      await outcomes([
        pageView('pv_domain', { path: 'https://shop.acme.io/a?b=1#c' }),
        pageView('pv_localhost', { path: 'http://localhost:3000/dev' }),
        pageView('pv_ipv4', { path: 'http://192.168.1.10/a' }),
        pageView('pv_ipv6', { path: 'http://[::1]:8080/a' }),
        pageView('pv_bare', { path: 'https://intranet/a' }),
      ]),
    ).toEqual(['success', 'success', ['path'], ['path'], ['path']]);
  });

  it('takes an anonymous id and a session id of any length (the service caps neither in the schema)', async () => {
    expect(await outcomes([pageView('pv_long_ids', { anonymousId: `anon_${'a'.repeat(300)}`, sessionId: `sess_${'s'.repeat(300)}` })])).toEqual(['success']);
  });

  it('takes negative counts and timings: the schema sets only upper bounds', async () => {
    const negative = { rtt: -1, downlink: -1, time_on_page: -5, scroll_depth: -1, interaction_count: -2, page_count: -1, load_time: -10, ttfb: -3 };
    expect(await outcomes([pageView('pv_negative', negative)])).toEqual(['success']);
  });

  it('still refuses values over the upper bounds, naming each field', async () => {
    const over = { rtt: 10_001, time_on_page: 86_401, scroll_depth: 101, interaction_count: 10_001, page_count: 1001, load_time: 60_001 };
    const [fields] = await outcomes([pageView('pv_over', over)]);
    expect([...(fields as string[])].sort()).toEqual(Object.keys(over).sort());
  });

  it('takes a language tag of many subtags (no length cap) and refuses one that is not a tag', async () => {
    expect(await outcomes([pageView('pv_lang', { language: 'en-aaaaaaaa-bbbbbbbb-cccccccc-dddddddd' }), pageView('pv_nolang', { language: 'English (US)' })])).toEqual([
      'success',
      ['language'],
    ]);
  });

  it('refuses a timestamp and a session start before 2000 with too_small, as the schema bounds them', async () => {
    const answer = await batch(freshSimulator(), [pageView('pv_old', { timestamp: Date.UTC(1999, 11, 31), sessionStartTime: Date.UTC(1999, 0, 1) })]);
    expect(answer.json.results[0].errors).toEqual([
      { code: 'too_small', field: 'timestamp', message: 'Too small: expected number to be >=946684800000' },
      { code: 'too_small', field: 'sessionStartTime', message: 'Too small: expected number to be >=946684800000' },
    ]);
  });

  it('refuses a session start more than an hour ahead of the clock, as it refuses such a timestamp', async () => {
    const answer = await batch(freshSimulator(), [pageView('pv_start', { sessionStartTime: NOW + 3_600_001 })]);
    expect(answer.json.results[0]).toMatchObject({
      status: 'error',
      code: 'INVALID_EVENT_SCHEMA',
      errors: [{ code: 'custom', field: 'sessionStartTime', message: 'Timestamp too far in the future (max 1 hour ahead)' }],
    });
  });

  it('keeps a session id longer than 128 characters cut to 128, as the service stores it', async () => {
    const sim = freshSimulator();
    const sessionId = `sess_${'s'.repeat(200)}`;
    expect((await batch(sim, [pageView('pv_cut', { sessionId })])).status).toBe(200);
    const sessions = await todayRows(sim, 'session_list');
    expect(sessions.some((s) => s.session_id === sessionId.slice(0, 128))).toBe(true);
  });
});

describe('outgoingLinkSchema (type outgoing_link) as the service declares it', () => {
  it('takes an empty href, and ids of any length', async () => {
    expect(await outcomes([linkClick('ol_empty', { href: '' }), linkClick('ol_ids', { anonymousId: 'a'.repeat(300), sessionId: 's'.repeat(300) })])).toEqual(['success', 'success']);
  });

  it('refuses an href over 2,048 characters and a timestamp before 2000, naming each', async () => {
    expect(await outcomes([linkClick('ol_long', { href: `https://x.example/${'h'.repeat(2048)}` }), linkClick('ol_old', { timestamp: 0 })])).toEqual([['href'], ['timestamp']]);
  });
});

describe('trackEventSchema (POST /track) as the service declares it', () => {
  it('takes a null timestamp as the arrival instant, as it takes a missing one', async () => {
    const sim = freshSimulator();
    const answer = await call(sim, 'POST', '/track', { query: { website_id: 'web_acme_store' }, body: { name: 'schema_null_time', timestamp: null } });
    expect(answer.status).toBe(200);
    await advanceClock(sim, 60_000);
    const rows = await queryRows(sim, secretOf(sim, 'key_acme_read'), { website_id: 'web_acme_store' }, { startDate: '2025-06-02', endDate: '2025-06-02' }, 'custom_events_recent');
    const row = rows.find((r) => (r as unknown as Record<string, unknown>).event_name === 'schema_null_time') as unknown as Record<string, unknown> | undefined;
    expect(row?.timestamp).toBe('2025-06-02 12:00:00.000');
  });
});
