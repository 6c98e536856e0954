/**
 * The series the charts draw, as plain data (no DOM here: the load runner, which fills them,
 * imports these types too).
 */

/** Decisions per point by outcome: `t` in epoch seconds, one count per point in each series. */
export interface DecisionSeries {
  readonly t: readonly number[];
  /** By outcome (`admitted`, a rule, `scenario`); an outcome absent from it counts 0. */
  readonly series: Readonly<Record<string, readonly number[]>>;
}

/** Latency percentiles per point, ms; null for a point without answers. */
export interface LatencySeries {
  readonly t: readonly number[];
  readonly p50: readonly (number | null)[];
  readonly p90: readonly (number | null)[];
  readonly p99: readonly (number | null)[];
}

/** One plan of the load runner's HTML report, as its `#report-data` element holds it (JSON). */
export interface ReportCharts {
  readonly plan: string;
  readonly decisions: DecisionSeries;
  readonly latency: LatencySeries;
}
