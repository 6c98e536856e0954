import { describe, expect, it } from 'vitest';
import { basketErrorBodySchema, errorBodySchema } from '../../../src/contract/errors.js';
import type { Simulator } from '../../../src/index.js';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import { CHROME_MAC, errorSpan, postSpans, spanSimulator } from './span-support.js';

/** Malformed JSON (an object left open) padded to `chars` characters. */
function malformed(chars: number): string {
  const head = '[{"path": "';
  return head + 'x'.repeat(chars - head.length);
}

/** Every ingestion route with a JSON body, and how to send it a body as a browser or server would. */
const BODY_ROUTES: readonly { readonly path: string; readonly tooLarge: string; readonly send: (sim: Simulator, body: string) => Promise<Answer> }[] = [
  { path: '/batch', tooLarge: 'basket.INGEST_PAYLOAD_TOO_LARGE', send: (sim, body) => postSpans(sim, '/batch', body) },
  { path: '/', tooLarge: 'basket.INGEST_PAYLOAD_TOO_LARGE', send: (sim, body) => postSpans(sim, '/', body) },
  { path: '/vitals', tooLarge: 'basket.INGEST_PAYLOAD_TOO_LARGE', send: (sim, body) => postSpans(sim, '/vitals', body) },
  { path: '/errors', tooLarge: 'basket.INGEST_ERRORS_BODY_TOO_LARGE', send: (sim, body) => postSpans(sim, '/errors', body) },
  { path: '/engagement', tooLarge: 'basket.INGEST_PAYLOAD_TOO_LARGE', send: (sim, body) => postSpans(sim, '/engagement', body) },
  { path: '/events', tooLarge: 'basket.INGEST_PAYLOAD_TOO_LARGE', send: (sim, body) => postSpans(sim, '/events', body) },
  { path: '/identify', tooLarge: 'basket.INGEST_PAYLOAD_TOO_LARGE', send: (sim, body) => postSpans(sim, '/identify', body) },
  { path: '/ai-traffic', tooLarge: 'basket.INGEST_PAYLOAD_TOO_LARGE', send: (sim, body) => call(sim, 'POST', '/ai-traffic', { body }) },
  { path: '/mcp', tooLarge: 'basket.INGEST_PAYLOAD_TOO_LARGE', send: (sim, body) => call(sim, 'POST', '/mcp', { body, key: secretOf(sim, 'key_acme_track') }) },
  { path: '/track (live)', tooLarge: 'basket.TRACK_PAYLOAD_TOO_LARGE', send: (sim, body) => call(sim, 'POST', '/track', { body, query: { website_id: 'web_acme_store' } }) },
];

describe.each(BODY_ROUTES)('POST $path in the ingestion envelope', ({ tooLarge, send }) => {
  it('carries the request id in the error body, the same id as the X-Request-ID header', async () => {
    const answer = await send(spanSimulator(), '{"not json');
    expect(answer.status).toBe(400);
    const body = basketErrorBodySchema.strict().parse(answer.json);
    expect(body.requestId).toMatch(/^req_[A-Za-z0-9]{16}$/);
    expect(body.requestId).toBe(answer.headers['X-Request-ID']);
  });

  it('refuses a body over 1 MB with 413 before parsing it, even when it is not JSON', async () => {
    const answer = await send(spanSimulator(), malformed(1_000_001));
    expect(answer.status).toBe(413);
    expect(basketErrorBodySchema.strict().parse(answer.json)).toMatchObject({ code: tooLarge, retryable: false, requestId: answer.headers['X-Request-ID'] });
  });
});

describe('the request id of other ingestion refusals', () => {
  it('is in the body of a client-id refusal, a catalogue refusal and a webhook refusal', async () => {
    const sim = spanSimulator();
    const answers = [
      await postSpans(sim, '/vitals', [], { clientId: null }),
      await postSpans(sim, '/batch', Array.from({ length: 101 }, () => ({}))),
      await call(sim, 'POST', '/webhooks/stripe/no-such-hash', { body: '{}', headers: { 'stripe-signature': 't=1,v1=00' } }),
    ];
    expect(answers.map((a) => [a.status, a.json.code])).toEqual([
      [400, 'basket.INGEST_MISSING_CLIENT_ID'],
      [400, 'basket.INGEST_BATCH_TOO_LARGE'],
      [404, 'basket.WEBHOOK_ENDPOINT_NOT_FOUND'],
    ]);
    for (const answer of answers) expect(answer.json.requestId).toBe(answer.headers['X-Request-ID']);
  });

  it('is in the SPEC error body of /track under the spec profile, as before', async () => {
    const answer = await call(freshSimulator(), 'POST', '/track', { body: '{"not json', query: { website_id: 'web_acme_store' } });
    expect(answer.status).toBe(400);
    expect(errorBodySchema.parse(answer.json).requestId).toBe(answer.headers['X-Request-ID']);
  });
});

describe('POST /errors body size, checked before parsing', () => {
  it('refuses 131,073 bytes of malformed JSON with 413 basket.INGEST_ERRORS_BODY_TOO_LARGE, not a parse error, before the client id', async () => {
    const answer = await postSpans(spanSimulator(), '/errors', malformed(131_073), { clientId: null });
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ code: 'basket.INGEST_ERRORS_BODY_TOO_LARGE', message: 'Error batch too large' });
  });

  it('reads the malformed JSON of 131,072 bytes and refuses it as a parse error', async () => {
    const answer = await postSpans(spanSimulator(), '/errors', malformed(131_072));
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('PARSE');
  });

  it('believes a Content-Length over 131,072 bytes, as the service does, whatever the body holds', async () => {
    const answer = await postSpans(spanSimulator(), '/errors', [errorSpan()], { headers: { 'content-length': '131073', 'user-agent': CHROME_MAC } });
    expect(answer.status).toBe(413);
    expect(answer.json.code).toBe('basket.INGEST_ERRORS_BODY_TOO_LARGE');
  });
});
