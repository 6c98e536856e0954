import type { LimitsReport } from '../../contract/limits.js';
import type { ClockSnapshot } from '../clock.js';
import type { JournalInfo } from '../journal/journal.js';
import { createRequestCounters, type MetricsRenderer, type MetricsSnapshot, type RequestCounters } from './request-counters.js';

/**
 * A simulator's metrics: the decision counters the run loop feeds, and the renderer of
 * `GET /__sim/metrics`. The core keeps numbers only; the renderer (the Prometheus text format,
 * made with prom-client) is installed by the Node adapters, since prom-client is Node-only and
 * the core also runs in browsers.
 */
export interface SimMetrics extends RequestCounters {
  /** The renderer installed, or null (then `GET /__sim/metrics` says how to get one). */
  renderer(): MetricsRenderer | null;
  /** Installs the renderer (the HTTP adapters do it; the last one installed is used). */
  useRenderer(render: MetricsRenderer): void;
}

/** Creates the metrics of a simulator: counters at zero, no renderer. */
export function createSimMetrics(): SimMetrics {
  const counters = createRequestCounters();
  let render: MetricsRenderer | null = null;
  return {
    record: (entry) => counters.record(entry),
    counts: () => counters.counts(),
    restart: () => counters.restart(),
    renderer: () => render,
    useRenderer(next) {
      render = next;
    },
  };
}

/** What a snapshot is read from, at the instant of the scrape. */
export interface MetricsSources {
  readonly counters: RequestCounters;
  /** The limits report (in-flight counts per key and the cap): `ControlBackend.limits`. */
  limits(): Promise<LimitsReport>;
  /** The journal's info (the shared journal's with a shared store). */
  journal(): Promise<JournalInfo>;
  clock(): ClockSnapshot;
  readonly shared: boolean;
}

/** Reads a {@link MetricsSnapshot}: plain data, no secrets (keys by id). */
export async function readMetrics(sources: MetricsSources): Promise<MetricsSnapshot> {
  const [limits, journal] = await Promise.all([sources.limits(), sources.journal()]);
  const clock = sources.clock();
  return {
    requests: sources.counters.counts(),
    inFlight: limits.keys.map((key) => ({ key: key.id, inFlight: key.inFlight })),
    inFlightCap: limits.inFlight.cap,
    journal,
    clockMs: clock.now,
    clockMode: clock.mode,
    shared: sources.shared,
  };
}
