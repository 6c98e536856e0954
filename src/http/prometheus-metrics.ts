import type { Metric } from 'prom-client';
import { CONTROL_ROUTES } from '../sim/control/control-table.js';
import { PROMETHEUS_CONTENT_TYPE } from '../sim/control/metrics-route.js';
import { isControlPath } from '../sim/handle-request.js';
import type { MetricsSnapshot, MetricsText } from '../sim/metrics/request-counters.js';
import { UNMATCHED_ROUTE_LABEL } from '../sim/metrics/request-counters.js';
import { PUBLIC_ROUTES } from '../sim/routing/public-routes.js';
import { createRouter } from '../sim/routing/router.js';
import type { Simulator } from '../sim/simulator.js';

/** Every metric name starts with this. */
export const METRIC_PREFIX = 'analytics_sim_';

/** Buckets of the latency histogram, in seconds (1 ms to 10 s). */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** The Prometheus side of one simulator served over HTTP: its latency histogram and its renderer. */
export interface PrometheusMetrics {
  /**
   * Records the server-side handling time of one answered request (from reading its body to
   * writing its last byte, injected latency included), labelled with the route pattern (never
   * the raw path) and the status.
   */
  observe(request: { readonly method: string; readonly path: string }, status: number, seconds: number): void;
  /** Renders a snapshot and the latency histogram in the Prometheus text format. */
  render(snapshot: MetricsSnapshot): Promise<MetricsText>;
}

const matchPublic = createRouter(PUBLIC_ROUTES);
const matchControl = createRouter(CONTROL_ROUTES);

/** The route pattern of a request line, for a bounded `route` label. */
function routeLabel(method: string, path: string): string {
  const match = (isControlPath(path) ? matchControl : matchPublic)(method, path);
  return match.kind === 'found' ? match.route.path : UNMATCHED_ROUTE_LABEL;
}

const bySimulator = new WeakMap<Simulator, PrometheusMetrics>();

/**
 * The Prometheus metrics of a simulator, made once per simulator and installed as the renderer
 * of its `GET /__sim/metrics`. The HTTP adapters call it; every server over the same simulator
 * shares one latency histogram.
 */
export function prometheusMetricsOf(simulator: Simulator): PrometheusMetrics {
  const existing = bySimulator.get(simulator);
  if (existing) return existing;
  const metrics = createPrometheusMetrics();
  bySimulator.set(simulator, metrics);
  simulator.metrics.useRenderer((snapshot) => metrics.render(snapshot));
  return metrics;
}

/** One route pattern and status of the latency histogram: its observations per bucket. */
interface LatencySeries {
  readonly route: string;
  readonly status: string;
  /** Observations per bucket of {@link LATENCY_BUCKETS} (not cumulative), then those over the last bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

const LATENCY_NAME = `${METRIC_PREFIX}request_duration_seconds`;
const LATENCY_HELP =
  'Server-side handling time of a request, from reading its body to writing its last byte (injected latency included), by route pattern and status. Per process.';

/**
 * The latency histogram as prom-client renders a histogram (`get()` of its metric contract): the
 * cumulative `_bucket` samples with `le`, `+Inf`, `_sum` and `_count` of each series.
 */
function latencyMetric(series: ReadonlyMap<string, LatencySeries>): Metric {
  const collector = {
    name: LATENCY_NAME,
    help: LATENCY_HELP,
    type: 'histogram',
    aggregator: 'sum',
    get: () => {
      const values: { value: number; labels: Record<string, string | number>; metricName: string }[] = [];
      for (const { route, status, counts, sum, count } of series.values()) {
        let cumulative = 0;
        for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
          cumulative += counts[i] as number;
          values.push({ value: cumulative, labels: { le: LATENCY_BUCKETS[i] as number, route, status }, metricName: `${LATENCY_NAME}_bucket` });
        }
        values.push({ value: count, labels: { le: '+Inf', route, status }, metricName: `${LATENCY_NAME}_bucket` });
        values.push({ value: sum, labels: { route, status }, metricName: `${LATENCY_NAME}_sum` });
        values.push({ value: count, labels: { route, status }, metricName: `${LATENCY_NAME}_count` });
      }
      return Promise.resolve({ name: LATENCY_NAME, help: LATENCY_HELP, type: 'histogram', aggregator: 'sum', values });
    },
  };
  // prom-client renders any registered object with this contract; its own Histogram validates and
  // hashes the labels of every observation, which cost a cheap answer more than its own work.
  return collector as unknown as Metric;
}

/**
 * Creates a latency histogram and a renderer. Each scrape builds a fresh
 * prom-client `Registry` from the snapshot (no default metrics, no timers: the numbers are the
 * simulator's), then adds the histogram, which lives as long as the server. An observation
 * costs a map lookup and a few additions: its series is found by route pattern and status
 * (bounded by the routes and the statuses), its bucket by a walk of 13 bounds.
 */
export function createPrometheusMetrics(): PrometheusMetrics {
  const series = new Map<string, LatencySeries>();
  const latency = latencyMetric(series);
  return {
    observe(request, status, seconds) {
      const route = routeLabel(request.method, request.path);
      const name = `${status} ${route}`;
      let child = series.get(name);
      if (child === undefined) {
        child = { route, status: String(status), counts: new Float64Array(LATENCY_BUCKETS.length + 1), sum: 0, count: 0 };
        series.set(name, child);
      }
      const value = seconds > 0 ? seconds : 0;
      let bucket = 0;
      while (bucket < LATENCY_BUCKETS.length && value > (LATENCY_BUCKETS[bucket] as number)) bucket++;
      child.counts[bucket] = (child.counts[bucket] as number) + 1;
      child.sum += value;
      child.count++;
    },
    async render(snapshot) {
      // prom-client is loaded at the first scrape: a server that is never scraped never loads it.
      const { Counter, Gauge, Registry } = await import('prom-client');
      const registry = new Registry();
      const registers = [registry];
      const requests = new Counter({
        name: `${METRIC_PREFIX}requests_total`,
        help:
          'Requests to the simulated service decided by this process (with a shared store, each process counts its own; sum them), by outcome (admitted, or the rule that refused: key_quota, endpoint_limit, concurrency, ingest_limit, degraded, scenario), route pattern and API key id (none without a key; other beyond 1000 keys). Back to zero on reset; equals the journal counts until the journal drops entries.',
        labelNames: ['outcome', 'route', 'key'] as const,
        registers,
      });
      for (const row of snapshot.requests) requests.inc({ outcome: row.outcome, route: row.route, key: row.key }, row.count);
      const inFlight = new Gauge({
        name: `${METRIC_PREFIX}in_flight`,
        help: 'Requests of each API key in flight now (by key id; with a shared store, across every process), to compare with analytics_sim_in_flight_cap.',
        labelNames: ['key'] as const,
        registers,
      });
      for (const key of snapshot.inFlight) inFlight.set({ key: key.key }, key.inFlight);
      const gauge = (name: string, help: string, value: number): void => {
        new Gauge({ name: `${METRIC_PREFIX}${name}`, help, registers }).set(value);
      };
      gauge('in_flight_cap', 'Requests one API key may have in flight (SPEC 8.2.2); one more is refused with the concurrency rule.', snapshot.inFlightCap);
      gauge('journal_entries', 'Decisions the journal holds now (the shared journal with a shared store).', snapshot.journal.size);
      gauge('journal_dropped', 'Decisions dropped from the journal since the last reset or clear, the oldest first, once it held its capacity.', snapshot.journal.dropped);
      gauge('journal_capacity', 'Decisions the journal keeps at most.', snapshot.journal.capacity);
      gauge('journal_complete', '1 while the journal holds every decision since the admission state was empty, else 0.', snapshot.journal.complete ? 1 : 0);
      gauge('clock_ms', "The simulator's clock, epoch milliseconds (virtual unless analytics_sim_clock_virtual is 0).", snapshot.clockMs);
      gauge('clock_virtual', '1 when the clock is virtual (moves only when told), 0 when it follows real time.', snapshot.clockMode === 'virtual' ? 1 : 0);
      gauge('shared_store', '1 when several processes serve this simulator through a shared store (the counters are then per process), else 0.', snapshot.shared ? 1 : 0);
      registry.registerMetric(latency);
      return { text: await registry.metrics(), contentType: PROMETHEUS_CONTENT_TYPE };
    },
  };
}
