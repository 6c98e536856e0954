import { describe, expect, it } from 'vitest';
import { basketErrorBodySchema, type BasketErrorBody } from '../../../src/contract/errors.js';
import { sumOf } from '../query/support.js';
import { BLOCKED_BOT, postSpans, SPAN_ROUTES, spanSimulator, todayRows, vital, errorSpan, engagementSpan } from './span-support.js';

/** What the query types count of a route's spans today on web_acme_store (engagement: the views of the test page). */
async function storedCount(sim: ReturnType<typeof spanSimulator>, path: string): Promise<number> {
  if (path === '/errors') return (await todayRows(sim, 'error_summary'))[0]?.totalErrors as number;
  if (path === '/vitals') return sumOf(await todayRows(sim, 'vitals_overview'), 'samples');
  const page = (await todayRows(sim, 'engagement_quality_by_page')).find((row) => row.name === '/spans/engaged');
  return (page?.page_views as number | undefined) ?? 0;
}

/** The body of a refusal, checked against the documented envelope. */
function envelope(text: string): BasketErrorBody {
  return basketErrorBodySchema.strict().parse(JSON.parse(text));
}

describe.each(SPAN_ROUTES)('POST $path', ({ path, type, max, span }) => {
  it('accepts a batch of spans and says how many', async () => {
    const sim = spanSimulator();
    const answer = await postSpans(sim, path, [span(), span()]);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 'success', type, count: 2 });
  });

  it('reads the client id from the databuddy-client-id header when the query string has none', async () => {
    const sim = spanSimulator();
    const answer = await postSpans(sim, path, [span()], { clientId: null, headers: { 'databuddy-client-id': 'web_acme_store' } });
    expect(answer.status).toBe(200);
  });

  it('accepts a text/plain body, as a beacon sends it', async () => {
    const sim = spanSimulator();
    const answer = await postSpans(sim, path, JSON.stringify([span()]), { headers: { 'content-type': 'text/plain;charset=UTF-8' } });
    expect(answer.status).toBe(200);
  });

  it('refuses a request without a client id with 400 basket.INGEST_MISSING_CLIENT_ID', async () => {
    const answer = await postSpans(spanSimulator(), path, [span()], { clientId: null });
    expect(answer.status).toBe(400);
    expect(envelope(answer.text)).toMatchObject({ success: false, status: 'error', code: 'basket.INGEST_MISSING_CLIENT_ID', retryable: false });
  });

  it('refuses an unknown client id with 400 basket.INGEST_INVALID_CLIENT_ID, not 404', async () => {
    const answer = await postSpans(spanSimulator(), path, [span()], { clientId: 'web_nobody' });
    expect(answer.status).toBe(400);
    expect(envelope(answer.text).code).toBe('basket.INGEST_INVALID_CLIENT_ID');
  });

  it('refuses a foreign Origin with 403 basket.INGEST_ORIGIN_NOT_AUTHORIZED and accepts the website’s own', async () => {
    const sim = spanSimulator();
    const foreign = await postSpans(sim, path, [span()], { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(envelope(foreign.text).code).toBe('basket.INGEST_ORIGIN_NOT_AUTHORIZED');
    const own = await postSpans(sim, path, [span()], { headers: { origin: 'https://store.acme.io' } });
    expect(own.status).toBe(200);
    expect(own.headers['Access-Control-Allow-Origin']).toBe('https://store.acme.io');
  });

  it(`refuses more than ${max} spans with 400 basket.INVALID_EVENT_SCHEMA naming the cap`, async () => {
    const answer = await postSpans(spanSimulator(), path, Array.from({ length: max + 1 }, () => span()));
    expect(answer.status).toBe(400);
    expect(envelope(answer.text)).toMatchObject({
      code: 'basket.INVALID_EVENT_SCHEMA',
      errors: [{ code: 'too_big', field: '', message: `Too big: expected array to have <=${max} items` }],
    });
  });

  it('refuses malformed JSON with 400 in the service’s envelope', async () => {
    const answer = await postSpans(spanSimulator(), path, '[{"path": ');
    expect(answer.status).toBe(400);
    expect(envelope(answer.text)).toMatchObject({ success: false, status: 'error', code: 'PARSE', retryable: false });
  });

  it('refuses a body that is not an array, after the client id was checked', async () => {
    const sim = spanSimulator();
    expect(envelope((await postSpans(sim, path, { path: '/' }, { clientId: null })).text).code).toBe('basket.INGEST_MISSING_CLIENT_ID');
    const answer = await postSpans(sim, path, { path: '/' });
    expect(envelope(answer.text)).toMatchObject({
      code: 'basket.INVALID_EVENT_SCHEMA',
      errors: [{ code: 'invalid_type', field: '', message: 'Invalid input: expected array, received object' }],
    });
  });

  it('refuses timestamps before 2000 and more than an hour ahead, naming each', async () => {
    const answer = await postSpans(spanSimulator(), path, [span(), { ...span(), timestamp: Date.UTC(1999, 11, 31) }, { ...span(), timestamp: Date.UTC(2025, 5, 2, 13, 0, 1) }]);
    expect(answer.status).toBe(400);
    const errors = envelope(answer.text).errors ?? [];
    expect(errors.map((e) => e.field)).toEqual(['1.timestamp', '2.timestamp']);
    expect(errors[1]?.message).toBe('Timestamp too far in the future (max 1 hour ahead)');
  });

  it('answers a bot 204 with an empty body and stores nothing', async () => {
    const sim = spanSimulator();
    const before = await storedCount(sim, path);
    const answer = await postSpans(sim, path, Array.from({ length: 5 }, () => span()), { headers: { 'user-agent': BLOCKED_BOT } });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(await storedCount(sim, path)).toBe(before);
    expect((await postSpans(sim, path, Array.from({ length: 5 }, () => span()))).status).toBe(200);
    expect(await storedCount(sim, path)).toBe(before + 5);
  });

  it('refuses a body over 1 MB with 413 in the service’s envelope', async () => {
    const big = JSON.stringify([{ ...span(), path: 'x'.repeat(1_100_000) }]);
    const answer = await postSpans(spanSimulator(), path, big);
    expect(answer.status).toBe(413);
    expect(envelope(answer.text).code).toBe(path === '/errors' ? 'basket.INGEST_ERRORS_BODY_TOO_LARGE' : 'basket.INGEST_PAYLOAD_TOO_LARGE');
  });
});

describe('span schema errors', () => {
  it('lists every bad field of a vital with zod’s code and message', async () => {
    const answer = await postSpans(spanSimulator(), '/vitals', [vital(), vital({ metricName: 'FID', metricValue: 'fast', path: 7 })]);
    expect(answer.status).toBe(400);
    expect(envelope(answer.text).errors).toEqual([
      { code: 'invalid_type', field: '1.path', message: 'Invalid input: expected string, received number' },
      { code: 'invalid_value', field: '1.metricName', message: 'Invalid option: expected one of "FCP"|"LCP"|"CLS"|"INP"|"TTFB"|"FPS"' },
      { code: 'invalid_type', field: '1.metricValue', message: 'Invalid input: expected number, received string' },
    ]);
  });

  it('lists an error span without its required message and with a stack over 4,096 characters', async () => {
    const answer = await postSpans(spanSimulator(), '/errors', [{ ...errorSpan(), message: undefined, stack: 's'.repeat(4097) }]);
    expect(envelope(answer.text).errors?.map((e) => [e.code, e.field])).toEqual([
      ['invalid_type', '0.message'],
      ['too_big', '0.stack'],
    ]);
  });

  it('lists an engagement span’s missing counters and a scroll depth over 100', async () => {
    const { clickCount: _dropped, ...withoutClicks } = engagementSpan();
    const answer = await postSpans(spanSimulator(), '/engagement', [{ ...withoutClicks, maxScrollDepth: 101, exitType: 'closed' }]);
    expect(envelope(answer.text).errors?.map((e) => [e.code, e.field])).toEqual([
      ['invalid_value', '0.exitType'],
      ['too_big', '0.maxScrollDepth'],
      ['invalid_type', '0.clickCount'],
    ]);
  });

  it('lists a timestamp too far ahead in its place among the other problems of its span', async () => {
    const ahead = Date.UTC(2025, 5, 2, 14);
    const answer = await postSpans(spanSimulator(), '/vitals', [vital({ metricValue: 'slow' }), vital({ timestamp: ahead, metricName: 'XYZ' })]);
    expect(envelope(answer.text).errors?.map((e) => [e.code, e.field])).toEqual([
      ['invalid_type', '0.metricValue'],
      ['custom', '1.timestamp'],
      ['invalid_value', '1.metricName'],
    ]);
  });

  it('names a field it does not know in a Warning and accepts the span', async () => {
    const answer = await postSpans(spanSimulator(), '/vitals', [vital({ metricUnit: 'ms' })]);
    expect(answer.status).toBe(200);
    expect(answer.headers.Warning).toContain('metricUnit');
  });
});

describe('POST /errors size limit', () => {
  it('refuses a body over 131,072 bytes with 413 basket.INGEST_ERRORS_BODY_TOO_LARGE before the client id is checked', async () => {
    const sim = spanSimulator();
    const body = JSON.stringify([errorSpan({ stack: 'x'.repeat(4000) })].concat(Array.from({ length: 40 }, () => errorSpan({ stack: 'y'.repeat(4000) }))));
    expect(body.length).toBeGreaterThan(131_072);
    const answer = await postSpans(sim, '/errors', body, { clientId: null });
    expect(answer.status).toBe(413);
    expect(envelope(answer.text)).toMatchObject({ code: 'basket.INGEST_ERRORS_BODY_TOO_LARGE', retryable: false });
    const summary = await todayRows(sim, 'error_summary');
    const accepted = await postSpans(sim, '/errors', [errorSpan()]);
    expect(accepted.status).toBe(200);
    expect((await todayRows(sim, 'error_summary'))[0]?.totalErrors).toBe((summary[0]?.totalErrors as number) + 1);
  });

  it('measures the body in bytes, not characters', async () => {
    // 40 errors of about 1,100 three-byte characters: under 131,072 characters, over 131,072 bytes.
    const body = JSON.stringify(Array.from({ length: 40 }, () => errorSpan({ message: '€'.repeat(1100) })));
    expect(body.length).toBeLessThan(131_072);
    const answer = await postSpans(spanSimulator(), '/errors', body);
    expect(answer.status).toBe(413);
  });
});
