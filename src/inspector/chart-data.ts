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

/** One line, or one bar of each category: its label and a value per point (null: none). */
export interface ValueSeries {
  readonly label: string;
  readonly values: readonly (number | null)[];
  /** Series of one group share a colour (a query type's cold and warm lines). */
  readonly group?: string;
  readonly dashed?: boolean;
}

/** Values against a numeric x, one line per series: the bench's cost against days of range. */
export interface LineChartData {
  readonly kind: 'lines';
  readonly x: readonly number[];
  readonly xLabel: string;
  readonly yLabel: string;
  /** Both scales logarithmic (no value may be 0: the charts leave such a point out). */
  readonly log: boolean;
  readonly series: readonly ValueSeries[];
}

/** Values by category, each series one bar of each category's group: the bench's bar charts. */
export interface BarChartData {
  readonly kind: 'bars';
  readonly categories: readonly string[];
  readonly yLabel: string;
  /** The value scale logarithmic. */
  readonly log: boolean;
  readonly series: readonly ValueSeries[];
}

/** One chart of the bench's HTML report, as its `#report-data` element holds it (JSON), drawn in `#<id>`. */
export type BenchChart = (LineChartData | BarChartData) & { readonly id: string };
