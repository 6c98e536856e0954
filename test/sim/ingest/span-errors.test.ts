import { describe, expect, it } from 'vitest';
import { call, freshSimulator } from '../../helpers/sim.js';
import { rowsFor, sumOf, WWW } from '../query/support.js';
import { EARLIER, errorSpan, NOW, postSpans, spanSimulator, TODAY, todayRows, vital } from './span-support.js';

const MESSAGE = 'Span test: checkout button exploded';
const ONLY_MESSAGE = { filters: [{ field: 'message', op: 'eq', value: MESSAGE }] };

describe('errors posted to POST /errors in the errors query types', () => {
  it('shows a posted error in recent_errors with its message, path, time, ids, place and the browser its User-Agent names', async () => {
    const sim = spanSimulator();
    // Sent with anonymizeVisitorIds: false, the raw anonymous id is stored, as the service stores it.
    expect((await postSpans(sim, '/errors', [errorSpan({ anonymizeVisitorIds: false })])).status).toBe(200);
    const rows = await todayRows(sim, 'recent_errors', ONLY_MESSAGE);
    expect(rows).toEqual([
      {
        message: MESSAGE,
        stack: 'TypeError: Span test: checkout button exploded\n    at onClick (https://store.acme.io/static/app.js:12:34)',
        path: '/checkout',
        anonymous_id: 'anon_span_1',
        session_id: 'sess_span_1',
        timestamp: new Date(EARLIER).toISOString().replace('T', ' ').replace('Z', ''),
        filename: 'https://store.acme.io/static/app.js',
        lineno: 12,
        colno: 34,
        error_type: 'TypeError',
        browser_name: 'Chrome',
        browser_version: '136.0.0.0',
        os_name: 'macOS',
        os_version: '10.15.7',
        device_type: 'desktop',
        country: '',
        region: '',
        country_code: '',
        country_name: '',
      },
    ]);
  });

  it('stores the anonymous id hashed with the day’s salt by default, the same id a page view of that visitor gets', async () => {
    const sim = spanSimulator();
    await postSpans(sim, '/errors', [errorSpan()]);
    const [row] = await todayRows(sim, 'recent_errors', ONLY_MESSAGE);
    expect(row?.anonymous_id).toMatch(/^[0-9a-f]{64}$/);
    await call(sim, 'POST', '/batch', {
      query: { client_id: 'web_acme_store' },
      headers: { 'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36' },
      body: [{ eventId: 'pv_salt', name: 'screen_view', path: 'https://store.acme.io/salted', anonymousId: 'anon_span_1', sessionId: 'sess_salt', timestamp: EARLIER }],
    });
    const sessions = await todayRows(sim, 'session_list', { limit: 1000 });
    expect(sessions.find((s) => s.session_id === 'sess_salt')?.visitor_id).toBe(row?.anonymous_id);
  });

  it('puts the newest errors first in recent_errors, the posted one among the generated ones', async () => {
    const sim = spanSimulator();
    await postSpans(sim, '/errors', [errorSpan({ timestamp: NOW - 60_001 })]);
    const [newest] = await todayRows(sim, 'recent_errors', { limit: 5 });
    expect(newest?.message).toBe(MESSAGE);
  });

  it('raises error_summary’s count, users and sessions by one, and error_types, errors_by_type, errors_by_page and the daily series with it', async () => {
    const sim = spanSimulator();
    const types = ['error_summary', 'error_types', 'errors_by_type', 'errors_by_page', 'error_trends', 'error_chart_data', 'error_frequency'];
    const before = Object.fromEntries(await Promise.all(types.map(async (t) => [t, await todayRows(sim, t)] as const)));
    expect((await postSpans(sim, '/errors', [errorSpan({ path: '/spans/broken', errorType: 'SpanTestError' })])).status).toBe(200);
    const after = Object.fromEntries(await Promise.all(types.map(async (t) => [t, await todayRows(sim, t)] as const)));
    const [summaryBefore] = before.error_summary as Record<string, number>[];
    const [summaryAfter] = after.error_summary as Record<string, number>[];
    expect(summaryAfter?.totalErrors).toBe((summaryBefore?.totalErrors ?? 0) + 1);
    expect(summaryAfter?.affectedUsers).toBe((summaryBefore?.affectedUsers ?? 0) + 1);
    expect(summaryAfter?.affectedSessions).toBe((summaryBefore?.affectedSessions ?? 0) + 1);
    expect(summaryAfter?.uniqueErrorTypes).toBe((summaryBefore?.uniqueErrorTypes ?? 0) + 1);
    expect(after.error_types?.find((r) => r.name === MESSAGE)).toMatchObject({ count: 1, users: 1 });
    expect(after.errors_by_type?.find((r) => r.name === 'SpanTestError')).toEqual({ name: 'SpanTestError', count: 1, users: 1, sessions: 1 });
    expect(after.errors_by_page?.find((r) => r.name === '/spans/broken')).toEqual({ name: '/spans/broken', errors: 1, users: 1 });
    expect(sumOf(after.error_trends ?? [], 'errors')).toBe(sumOf(before.error_trends ?? [], 'errors') + 1);
    expect(sumOf(after.error_chart_data ?? [], 'totalErrors')).toBe(summaryAfter?.totalErrors);
    expect(sumOf(after.error_frequency ?? [], 'count')).toBe(summaryAfter?.totalErrors);
  });

  it.each([
    ['an iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1', ['Safari', '18.4', 'iOS', '18.4', 'mobile']],
    ['an iPad', 'Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1', ['Safari', '17.6', 'iOS', '17.7', 'tablet']],
    ['a Samsung phone', 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36', ['Samsung Internet', '28.0', 'Android', '14', 'mobile']],
    ['Edge on Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36 Edg/136.0.0.0', ['Edge', '136.0.0.0', 'Windows', '10', 'desktop']],
    ['Firefox on Linux', 'Mozilla/5.0 (X11; Linux x86_64; rv:138.0) Gecko/20100101 Firefox/138.0', ['Firefox', '138.0', 'Linux', '', 'desktop']],
    ['curl', 'curl/8.5.0', ['', '', '', '', 'desktop']],
  ])('names the browser, OS and device of %s in a posted error’s recent_errors row', async (_client, userAgent, [browser, browserVersion, os, osVersion, device]) => {
    const sim = spanSimulator();
    expect((await postSpans(sim, '/errors', [errorSpan()], { headers: { 'user-agent': userAgent } })).status).toBe(200);
    const [row] = await todayRows(sim, 'recent_errors', ONLY_MESSAGE);
    expect(row).toMatchObject({ browser_name: browser, browser_version: browserVersion, os_name: os, os_version: osVersion, device_type: device });
  });

  it('names no browser, OS or device for an error posted without a User-Agent under spec, and stores none under live, which blocks it', async () => {
    const spec = freshSimulator();
    expect((await postSpans(spec, '/errors', [errorSpan()], { headers: { 'user-agent': '' } })).status).toBe(200);
    const [row] = await todayRows(spec, 'recent_errors', ONLY_MESSAGE);
    expect(row).toMatchObject({ browser_name: '', browser_version: '', os_name: '', os_version: '', device_type: '' });
    const live = spanSimulator();
    expect((await postSpans(live, '/errors', [errorSpan()], { headers: { 'user-agent': '' } })).status).toBe(204);
    expect(await todayRows(live, 'recent_errors', ONLY_MESSAGE)).toEqual([]);
  });

  it('filters posted errors on their own message, type and path, and on the browser their User-Agent names', async () => {
    const sim = spanSimulator();
    await postSpans(sim, '/errors', [errorSpan()]);
    const count = async (filters: unknown[]) => (await todayRows(sim, 'recent_errors', { filters })).filter((r) => r.message === MESSAGE).length;
    expect(await count([{ field: 'error_type', op: 'eq', value: 'TypeError' }])).toBe(1);
    expect(await count([{ field: 'path', op: 'eq', value: '/checkout' }])).toBe(1);
    expect(await count([{ field: 'path', op: 'eq', value: '/cart' }])).toBe(0);
    expect(await count([{ field: 'browser_name', op: 'eq', value: 'Chrome' }])).toBe(1);
    expect(await count([{ field: 'browser_name', op: 'eq', value: 'Firefox' }])).toBe(0);
    expect(await count([{ field: 'country', op: 'eq', value: 'US' }])).toBe(0);
  });

  it('keeps the pathname of a full URL, stores Error for a span without a type and dates a span without a timestamp when it arrives', async () => {
    const sim = spanSimulator();
    await postSpans(sim, '/errors', [errorSpan({ path: 'https://store.acme.io/cart/?step=2#pay', errorType: undefined, timestamp: undefined })]);
    // Data ends at the last whole minute before the clock: move it past the arrival minute.
    expect((await call(sim, 'POST', '/__sim/clock', { body: { advanceMs: 120_000 } })).status).toBe(200);
    const [row] = await todayRows(sim, 'recent_errors', ONLY_MESSAGE);
    expect(row).toMatchObject({ path: '/cart/', error_type: 'Error', timestamp: '2025-06-02 12:00:00.000' });
  });

  it('leaves out a posted error without a message, as the builders’ message != \'\'', async () => {
    const sim = spanSimulator();
    const before = (await todayRows(sim, 'error_summary'))[0]?.totalErrors as number;
    expect((await postSpans(sim, '/errors', [errorSpan({ message: '' })])).status).toBe(200);
    expect((await todayRows(sim, 'error_summary'))[0]?.totalErrors).toBe(before);
  });

  it('counts an error posted twice with one eventId once, and answers both posts with success', async () => {
    const sim = spanSimulator();
    const before = (await todayRows(sim, 'error_summary'))[0]?.totalErrors as number;
    const first = await postSpans(sim, '/errors', [errorSpan({ eventId: 'evt-1' }), errorSpan({ eventId: 'evt-1' })]);
    const again = await postSpans(sim, '/errors', [errorSpan({ eventId: 'evt-1' })]);
    expect(first.json).toEqual({ status: 'success', type: 'error', count: 2 });
    expect(again.json).toEqual({ status: 'success', type: 'error', count: 1 });
    expect((await todayRows(sim, 'error_summary'))[0]?.totalErrors).toBe(before + 1);
  });

  it('does not take the same eventId on another website or of another kind for a duplicate', async () => {
    const sim = spanSimulator();
    const samples = async () => sumOf(await todayRows(sim, 'vitals_overview'), 'samples');
    const vitalsBefore = await samples();
    await postSpans(sim, '/errors', [errorSpan({ eventId: 'evt-shared' })]);
    await postSpans(sim, '/vitals', [vital({ eventId: 'evt-shared' })]);
    await postSpans(sim, '/errors', [errorSpan({ eventId: 'evt-shared' })], { clientId: 'web_acme_www' });
    expect((await todayRows(sim, 'recent_errors', ONLY_MESSAGE)).length).toBe(1);
    expect(await samples()).toBe(vitalsBefore + 1);
    const www = await rowsFor(sim, 'error_types', { ...TODAY, limit: 1000 }, WWW);
    expect(www.find((r) => r.name === MESSAGE)?.count).toBe(1);
  });

  it('forgets posted errors and their eventIds on reset', async () => {
    const sim = spanSimulator();
    const before = (await todayRows(sim, 'error_summary'))[0]?.totalErrors as number;
    await postSpans(sim, '/errors', [errorSpan({ eventId: 'evt-reset' })]);
    expect((await todayRows(sim, 'error_summary'))[0]?.totalErrors).toBe(before + 1);
    expect((await call(sim, 'POST', '/__sim/reset', { body: {} })).status).toBe(200);
    expect((await todayRows(sim, 'error_summary'))[0]?.totalErrors).toBe(before);
    await postSpans(sim, '/errors', [errorSpan({ eventId: 'evt-reset' })]);
    expect((await todayRows(sim, 'error_summary'))[0]?.totalErrors).toBe(before + 1);
  });

  it('adds a posted error to error_fingerprints with its own stack and to error_customer_impact’s occurrences', async () => {
    const sim = spanSimulator();
    await postSpans(sim, '/errors', [errorSpan(), errorSpan({ anonymousId: 'anon_span_2', sessionId: '' })]);
    const [fingerprint] = (await todayRows(sim, 'error_fingerprints', { limit: 50 })).filter((r) => r.name === MESSAGE);
    expect(fingerprint).toMatchObject({ count: 2, users: 2, path: '/checkout', error_type: 'TypeError', line: 12, filename: 'https://store.acme.io/static/app.js' });
    const [impact] = await todayRows(sim, 'error_customer_impact', ONLY_MESSAGE);
    expect(impact).toMatchObject({ error_occurrences: 2, affected_sessions: 1, affected_visitor_identifiers: 2, linked_visitor_identifiers: 0 });
  });
});

describe('a full ingest ledger', () => {
  it('refuses spans it cannot keep with 503 basket.DELIVERY_UNAVAILABLE, all or none, and takes their eventIds back for a retry', async () => {
    const sim = freshSimulator({ profile: 'live', eventStorage: { maxEvents: 3 } });
    const total = async () => (await todayRows(sim, 'error_summary'))[0]?.totalErrors as number;
    const before = await total();
    expect((await postSpans(sim, '/errors', [errorSpan(), errorSpan()])).status).toBe(200);
    const full = await postSpans(sim, '/errors', [errorSpan({ eventId: 'evt-a' }), errorSpan({ eventId: 'evt-b' })]);
    expect(full.status).toBe(503);
    expect(full.json).toMatchObject({ code: 'basket.DELIVERY_UNAVAILABLE', retryable: true });
    expect(await total()).toBe(before + 2);
    expect((await postSpans(sim, '/errors', [errorSpan({ eventId: 'evt-a' })])).status).toBe(200);
    expect(await total()).toBe(before + 3);
  });
});
