/**
 * The time series of a load run, for the HTML report's charts (src/inspector/charts.ts,
 * shared with the inspector): decisions per second by outcome, from the journal's instants, and
 * latency percentiles per second, from what the load tool measured.
 */
import { quantile } from './expectations.js';

/** Decisions per second by outcome: `t` in epoch seconds, one count per second in each series. */
export interface DecisionTimeline {
  readonly t: number[];
  readonly series: Record<string, number[]>;
  /** Seconds per point: 1, or more when the run spans more than {@link MAX_POINTS} seconds (counts are then per second, averaged). */
  readonly step: number;
}

/** Latency percentiles per second of the load tool's clock, ms; null for a second without answers. */
export interface LatencyTimeline {
  readonly t: number[];
  readonly p50: (number | null)[];
  readonly p90: (number | null)[];
  readonly p99: (number | null)[];
}

/** Points a series holds at most: an hour of seconds. */
export const MAX_POINTS = 3600;

function stepFor(first: number, last: number): number {
  return Math.max(1, Math.ceil((last - first + 1) / MAX_POINTS));
}

/** Counts the journal's decisions per second (every second of the run, empty ones as 0). */
export function decisionTimeline(entries: readonly { at: number; outcome: string }[]): DecisionTimeline {
  if (entries.length === 0) return { t: [], series: { admitted: [] }, step: 1 };
  let first = Infinity;
  let last = -Infinity;
  for (const e of entries) {
    const s = Math.floor(e.at / 1000);
    if (s < first) first = s;
    if (s > last) last = s;
  }
  const step = stepFor(first, last);
  const points = Math.floor((last - first) / step) + 1;
  const t = Array.from({ length: points }, (_, i) => first + i * step);
  const series: Record<string, number[]> = { admitted: new Array<number>(points).fill(0) };
  for (const e of entries) {
    const row = (series[e.outcome] ??= new Array<number>(points).fill(0));
    const i = Math.floor((Math.floor(e.at / 1000) - first) / step);
    row[i] = (row[i] as number) + 1;
  }
  if (step > 1) for (const row of Object.values(series)) for (let i = 0; i < row.length; i++) row[i] = (row[i] as number) / step;
  return { t, series, step };
}

/** Collects answer latencies by the second they arrived in, and gives their percentiles. */
export interface LatencyRecorder {
  /** One answer, `atMs` epoch ms when it arrived, `latencyMs` how long it took. */
  record(atMs: number, latencyMs: number): void;
  timeline(): LatencyTimeline;
}

/** Creates an empty recorder. Memory: one number per answer of the run. */
export function createLatencyRecorder(): LatencyRecorder {
  const bySecond = new Map<number, number[]>();
  return {
    record(atMs, latencyMs) {
      const s = Math.floor(atMs / 1000);
      let list = bySecond.get(s);
      if (!list) bySecond.set(s, (list = []));
      list.push(latencyMs);
    },
    timeline() {
      const seconds = [...bySecond.keys()].sort((a, b) => a - b);
      const out: LatencyTimeline = { t: [], p50: [], p90: [], p99: [] };
      if (seconds.length === 0) return out;
      const first = seconds[0] as number;
      const last = seconds.at(-1) as number;
      const step = stepFor(first, last);
      for (let start = first; start <= last; start += step) {
        const values: number[] = [];
        for (let s = start; s < start + step; s++) values.push(...(bySecond.get(s) ?? []));
        values.sort((a, b) => a - b);
        out.t.push(start);
        // A second without answers has no percentile: null leaves a gap in the chart.
        const at = (q: number): number | null => (values.length ? Math.round(quantile(values, q) * 10) / 10 : null);
        out.p50.push(at(0.5));
        out.p90.push(at(0.9));
        out.p99.push(at(0.99));
      }
      return out;
    },
  };
}
