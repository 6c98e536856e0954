import { describe, expect, it } from 'vitest';
import { SUMMARY_QUERY } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT}-01`;
const RESPONSE = /^00-4bf92f3577b34da6a3ce929d0e0e4736-([0-9a-f]{16})-01$/;

function query(traceparent?: string, keyId = 'key_acme_read') {
  const sim = freshSimulator();
  const headers: Record<string, string> = traceparent === undefined ? {} : { traceparent };
  return { sim, send: () => call(sim, 'POST', '/v1/query', { query: { website_id: 'web_acme_store' }, key: secretOf(sim, keyId), headers, body: SUMMARY_QUERY }) };
}

describe('W3C Trace Context on the service', () => {
  it('continues an incoming traceparent: the answer names the same trace and the simulator’s own span, in traceresponse and Server-Timing', async () => {
    const answer = await query(TRACEPARENT).send();
    expect(answer.status).toBe(200);
    const span = RESPONSE.exec(answer.headers.traceresponse ?? '')?.[1];
    expect(span).toBeDefined();
    expect(span).not.toBe(PARENT);
    expect(answer.headers['Server-Timing']).toBe(`traceparent;desc="${answer.headers.traceresponse}"`);
    expect(answer.headers.Warning).toBeUndefined();
  });

  it('gives the same span id for the same seed and the same requests, and another one to the next request', async () => {
    const first = query(TRACEPARENT);
    const second = query(TRACEPARENT);
    const [a1, a2] = [await first.send(), await first.send()];
    const [b1, b2] = [await second.send(), await second.send()];
    expect(a1.headers.traceresponse).toBe(b1.headers.traceresponse);
    expect(a2.headers.traceresponse).toBe(b2.headers.traceresponse);
    expect(a1.headers.traceresponse).not.toBe(a2.headers.traceresponse);
  });

  it('answers a refused request as a span of the trace too', async () => {
    const answer = await query(TRACEPARENT, 'key_globex_read').send();
    expect(answer.status).toBe(403);
    expect(answer.headers.traceresponse).toMatch(RESPONSE);
  });

  it('adds no trace header to a request without traceparent: answers stay byte for byte as they were', async () => {
    const answer = await query().send();
    expect(answer.headers.traceresponse).toBeUndefined();
    expect(answer.headers['Server-Timing']).toBeUndefined();
  });

  it.each([
    ['a trace id of zeros', `00-${'0'.repeat(32)}-${PARENT}-01`],
    ['a parent span of zeros', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['upper-case hex', `00-${TRACE_ID.toUpperCase()}-${PARENT}-01`],
    ['version ff', `ff-${TRACE_ID}-${PARENT}-01`],
    ['a short trace id', `00-${TRACE_ID.slice(2)}-${PARENT}-01`],
    ['extra fields on version 00', `${TRACEPARENT}-extra`],
  ])('ignores a traceparent with %s, as the specification asks, and says so in a Warning', async (_what, value) => {
    const answer = await query(value).send();
    expect(answer.status).toBe(200);
    expect(answer.headers.traceresponse).toBeUndefined();
    expect(answer.headers.Warning).toContain('traceparent was ignored');
  });

  it('accepts a later version with more fields, reading the fields it knows', async () => {
    const answer = await query(`01-${TRACE_ID}-${PARENT}-01-future`).send();
    expect(answer.headers.traceresponse).toMatch(RESPONSE);
  });

  it('refuses a malformed traceparent with 400 under --strict, as every ignored input', async () => {
    const sim = freshSimulator({ strict: true });
    const answer = await call(sim, 'POST', '/v1/query', { query: { website_id: 'web_acme_store' }, key: secretOf(sim, 'key_acme_read'), headers: { traceparent: 'not-a-trace' }, body: SUMMARY_QUERY });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('traceparent');
  });

  it('describes the request as a span when the adapter asks: route, outcome, the refusing rule and stage timings', async () => {
    const sim = freshSimulator({ limits: 'enforce' });
    const key = secretOf(sim, 'key_acme_read');
    let tick = 0;
    const timer = () => (tick += 0.5);
    const request = { method: 'POST', path: '/v1/query', query: { website_id: 'web_acme_store' }, headers: { 'x-api-key': key, 'content-type': 'application/json', traceparent: TRACEPARENT }, body: JSON.stringify(SUMMARY_QUERY) };
    const admitted = await sim.handle(request, { trace: true, timer });
    expect(admitted.trace).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT, sampled: true, route: '/v1/query', status: 200, outcome: 'admitted', errorCode: null, method: 'POST', path: '/v1/query' });
    expect(admitted.trace?.spanId).toBe(RESPONSE.exec(admitted.headers.traceresponse ?? '')?.[1]);
    expect(admitted.trace?.stages.map((s) => s.stage)).toContain('authenticateRequest');
    expect(admitted.trace?.stages.every((s) => s.ms === 0.5)).toBe(true);
    // /v1/query admits 120 a minute (SPEC 8.2.1); the clock is frozen, so the 121st is refused.
    for (let i = 2; i <= 120; i++) expect((await sim.handle(request)).status).toBe(200);
    const refused = await sim.handle(request, { trace: true });
    expect(refused.trace).toMatchObject({ status: 429, outcome: 'endpoint_limit', errorCode: 'RATE_LIMITED', stages: [] });
  });

  it('starts a trace of its own for a span of a request without traceparent, sampled, with no parent', async () => {
    const sim = freshSimulator();
    const answer = await sim.handle({ method: 'GET', path: '/health', query: {}, headers: {} }, { trace: true });
    expect(answer.trace?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(answer.trace?.parentSpanId).toBeNull();
    expect(answer.trace?.sampled).toBe(true);
    expect(answer.headers.traceresponse).toBeUndefined();
  });

  it('leaves the control plane out of traces', async () => {
    const sim = freshSimulator();
    const answer = await sim.handle({ method: 'GET', path: '/__sim/clock', query: {}, headers: { traceparent: TRACEPARENT } }, { trace: true });
    expect(answer.headers.traceresponse).toBeUndefined();
    expect(answer.trace).toBeUndefined();
  });
});
