/**
 * `--otlp-endpoint URL`: one span per service request, exported over OTLP/HTTP (JSON) with the
 * OpenTelemetry SDK, loaded only here, when the flag is set. The span is the one the answer
 * named in `traceresponse` (same trace, same span id: the core's, a function of the request id),
 * a child of the caller's span when the request carried a `traceparent`; it holds the route, the
 * decision (admitted, or the rule or scenario that refused) and, as events, each stage's time.
 * A caller that did not sample its trace (flags 00) gets no span, as its sampler decided.
 */
import type { Context, Span, SpanContext } from '@opentelemetry/api';
import type { ExchangeTrace } from '../sim/trace/trace-context.js';
import { VERSION } from '../version.js';

/** Where an adapter hands each traced request once its answer is sent. */
export interface SpanSink {
  /** Exports `trace` as a span from `startedMs` to `endedMs` (milliseconds since the epoch, the wall clock). */
  record(trace: ExchangeTrace, startedMs: number, endedMs: number): void;
  /** Sends every span recorded so far; resolves once the collector answered (or the export gave up). */
  flush(): Promise<void>;
  /** Flushes, then stops exporting. */
  shutdown(): Promise<void>;
}

/** How many spans wait for an export at most; past it the newest are dropped (the SDK's bound). */
const MAX_QUEUED_SPANS = 8_192;
/** How often queued spans are sent. */
const EXPORT_INTERVAL_MS = 1_000;

/**
 * The OTLP/HTTP traces URL of an endpoint: a base URL (`http://collector:4318`, as
 * OTEL_EXPORTER_OTLP_ENDPOINT is) gets the signal's path `/v1/traces`; a URL with a path is
 * used as given (as OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is).
 */
export function tracesUrl(endpoint: URL): string {
  return endpoint.pathname === '/' || endpoint.pathname === '' ? new URL('/v1/traces', endpoint).toString() : endpoint.toString();
}

/**
 * Creates the span export to `endpoint` (an http(s) URL). Loads the OpenTelemetry packages;
 * nothing is sent until a request is recorded.
 */
export async function createSpanSink(endpoint: URL, serviceName = 'analytics-sim'): Promise<SpanSink> {
  const [api, sdk, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  /** The ids of the span being started: the SDK asks its id generator, and the core already chose them. */
  let ids: { traceId: string; spanId: string } = { traceId: '', spanId: '' };
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'service.version': VERSION }),
    idGenerator: { generateTraceId: () => ids.traceId, generateSpanId: () => ids.spanId },
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: tracesUrl(endpoint) }), maxQueueSize: MAX_QUEUED_SPANS, scheduledDelayMillis: EXPORT_INTERVAL_MS })],
  });
  const tracer = provider.getTracer('analytics-sim', VERSION);
  const parentOf = (trace: ExchangeTrace): Context => {
    if (trace.parentSpanId === null) return api.ROOT_CONTEXT;
    const parent: SpanContext = { traceId: trace.traceId, spanId: trace.parentSpanId, traceFlags: trace.sampled ? api.TraceFlags.SAMPLED : api.TraceFlags.NONE, isRemote: true };
    return api.trace.setSpanContext(api.ROOT_CONTEXT, parent);
  };
  return {
    record(trace, startedMs, endedMs) {
      ids = { traceId: trace.traceId, spanId: trace.spanId };
      const span: Span = tracer.startSpan(
        `${trace.method} ${trace.route ?? trace.path}`,
        {
          kind: api.SpanKind.SERVER,
          startTime: startedMs,
          attributes: {
            'http.request.method': trace.method,
            'url.path': trace.path,
            ...(trace.route !== null ? { 'http.route': trace.route } : {}),
            'http.response.status_code': trace.status,
            'analytics_sim.request_id': trace.requestId,
            'analytics_sim.outcome': trace.outcome,
            ...(trace.outcome !== 'admitted' ? { 'analytics_sim.refused_by': trace.outcome } : {}),
            ...(trace.errorCode !== null ? { 'error.type': trace.errorCode } : {}),
          },
        },
        parentOf(trace),
      );
      let at = startedMs;
      for (const stage of trace.stages) {
        span.addEvent(stage.stage, { 'analytics_sim.stage.ms': stage.ms }, at);
        at += stage.ms;
      }
      if (trace.status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR, message: trace.errorCode ?? String(trace.status) });
      span.end(endedMs);
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
