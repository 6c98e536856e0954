import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { createSpanSink, tracesUrl, type SpanSink } from '../../src/http/otlp-spans.js';
import { startCli } from '../helpers/cli.js';
import { SUMMARY_QUERY } from '../helpers/credentials.js';
import { freshSimulator, secretOf } from '../helpers/sim.js';

/** An OTLP/HTTP JSON span as the exporter sends it (the fields read here). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
  events?: { name: string }[];
}

/** A local OTLP receiver: keeps every span posted to /v1/traces. */
function startReceiver(): Promise<{ server: Server; url: string; spans: OtlpSpan[]; paths: string[] }> {
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(req.url ?? '');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, paths })));
}

const attribute = (span: OtlpSpan | undefined, key: string) => {
  const value = span?.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : undefined);
};

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT = 'b7ad6b7169203331';

/**
 * The sink the server gets: the exporter, and a promise per request id that settles once the
 * server recorded that request's span (it does after the last byte is sent, which may be after
 * the client read the answer), so a test flushes exactly what it waits for.
 */
function observedSink(inner: SpanSink): SpanSink & { recorded(requestId: string): Promise<void> } {
  const waiting = new Map<string, () => void>();
  const done = new Set<string>();
  return {
    record(trace, startedMs, endedMs) {
      inner.record(trace, startedMs, endedMs);
      done.add(trace.requestId);
      waiting.get(trace.requestId)?.();
    },
    flush: () => inner.flush(),
    shutdown: () => inner.shutdown(),
    recorded: (requestId) => (done.has(requestId) ? Promise.resolve() : new Promise((resolve) => waiting.set(requestId, resolve))),
  };
}

describe('--otlp-endpoint: one span per request over OTLP/HTTP', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let sink: ReturnType<typeof observedSink>;
  let server: RunningServer;
  const sim = freshSimulator({ limits: 'enforce' });
  const key = secretOf(sim, 'key_acme_read');

  beforeAll(async () => {
    receiver = await startReceiver();
    sink = observedSink(await createSpanSink(new URL(receiver.url)));
    server = await startServer(sim, { port: 0, spans: sink });
  });
  afterAll(async () => {
    await server.close();
    await sink.shutdown();
    receiver.server.close();
  });

  const send = (traceparent?: string) =>
    fetch(`${server.url}/v1/query?website_id=web_acme_store`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, ...(traceparent ? { traceparent } : {}) },
      body: JSON.stringify(SUMMARY_QUERY),
    });

  it('exports the span the answer named, a child of the caller’s span, with its route, outcome and stage events', async () => {
    const answer = await send(`00-${TRACE_ID}-${PARENT}-01`);
    expect(answer.status).toBe(200);
    const spanId = answer.headers.get('traceresponse')?.split('-')[2];
    await sink.recorded(answer.headers.get('x-request-id') ?? '');
    await sink.flush();
    const span = receiver.spans.find((s) => s.spanId === spanId);
    expect(span).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT, name: 'POST /v1/query', kind: 2 });
    expect(attribute(span, 'http.route')).toBe('/v1/query');
    expect(attribute(span, 'http.response.status_code')).toBe(200);
    expect(attribute(span, 'analytics_sim.outcome')).toBe('admitted');
    expect(attribute(span, 'analytics_sim.request_id')).toBe(answer.headers.get('x-request-id'));
    expect(span?.events?.map((e) => e.name)).toEqual(expect.arrayContaining(['authenticateRequest', 'enforceEndpointLimit', 'operate']));
    expect(receiver.paths.every((p) => p === '/v1/traces')).toBe(true);
  });

  it('names the refusing rule on a 429', async () => {
    // The first test sent one; /v1/query admits 120 a minute (SPEC 8.2.1) and the virtual clock is frozen.
    for (let i = 2; i <= 120; i++) expect((await send()).status).toBe(200);
    const answer = await send();
    expect(answer.status).toBe(429);
    const requestId = answer.headers.get('x-request-id');
    await sink.recorded(requestId ?? '');
    await sink.flush();
    const span = receiver.spans.find((s) => attribute(s, 'analytics_sim.request_id') === requestId);
    expect(attribute(span, 'http.response.status_code')).toBe(429);
    expect(attribute(span, 'analytics_sim.refused_by')).toBe('endpoint_limit');
    expect(attribute(span, 'error.type')).toBe('RATE_LIMITED');
    expect(span?.parentSpanId ?? '').toBe('');
  });

  it('exports nothing for a caller that did not sample its trace', async () => {
    const before = receiver.spans.length;
    const unsampled = await send(`00-${TRACE_ID}-${PARENT}-00`);
    expect(unsampled.headers.get('traceresponse')).toMatch(/-00$/);
    await sink.recorded(unsampled.headers.get('x-request-id') ?? '');
    await sink.flush();
    expect(receiver.spans.slice(before).filter((s) => s.traceId === TRACE_ID)).toEqual([]);
  });

  it('sends to /v1/traces of a base URL, and to a URL with a path as given', () => {
    expect(tracesUrl(new URL('http://collector:4318'))).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl(new URL('http://collector:4318/custom/traces'))).toBe('http://collector:4318/custom/traces');
  });
});

describe('analytics-sim serve --otlp-endpoint', () => {
  it('sends the spans of the requests it served to the collector, and says where at start', async () => {
    const receiver = await startReceiver();
    const cli = startCli(['serve', '--port', '0', '--seed', '42', '--now', '2025-06-02T12:00:00Z', '--otlp-endpoint', receiver.url]);
    try {
      const [, url] = await cli.waitForStdout(/listening on (http:\/\/\S+)/);
      expect(cli.stdout()).toContain(`spans: one per service request over OTLP/HTTP to ${receiver.url}/v1/traces`);
      const answer = await fetch(`${url}/health`, { headers: { traceparent: `00-${TRACE_ID}-${PARENT}-01` } });
      expect(answer.headers.get('traceresponse')).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
      // SIGTERM stops the server, which flushes the spans before it exits.
      cli.child.kill('SIGTERM');
      expect((await cli.exited).code).toBe(0);
      expect(receiver.spans.map((s) => [s.traceId, s.parentSpanId, s.name])).toEqual([[TRACE_ID, PARENT, 'GET /health']]);
    } finally {
      cli.kill();
      receiver.server.close();
    }
  });
});
