/**
 * What one `npm run bench` measured, as plain data: the console table and the HTML report
 * (`--report FILE`) are both rendered from it (bench-text.ts, bench-report.ts), so they never
 * disagree. A run is a list of sections, each a table of named rows or a list of labelled
 * lines; a measurement that runs in a process of its own sends its sections to the bench
 * (section-channel.ts). A new row, column or section is new data, not new rendering code.
 */

/** One cell of a table: a number (formatted by its column), a text, or nothing measured. */
export type BenchCell = number | string | null;

/** One column of a table, after the column of row names. */
export interface BenchColumn {
  /** The key of the column's cells in each row. */
  readonly key: string;
  readonly label: string;
  /** Digits after the point of a number (default 0). */
  readonly digits?: number;
  /** Written after a number: `x`, `%`. */
  readonly suffix?: string;
}

/** The columns of a measured rate: requests a second and the latency p50 and p99 (cells `rps`, `p50`, `p99`). */
export const RATE_COLUMNS: readonly BenchColumn[] = [
  { key: 'rps', label: 'req/s' },
  { key: 'p50', label: 'p50 ms' },
  { key: 'p99', label: 'p99 ms' },
];

/** How a chart draws a row of a table as a line: rows of one group share a colour. */
export interface RowSeries {
  readonly group: string;
  readonly dashed?: boolean;
}

/** One row of a table: its name and its cells by column key (a key absent is nothing measured). */
export interface BenchRow {
  readonly name: string;
  readonly cells: Readonly<Record<string, BenchCell>>;
  /** Said after the row's cells (the reason a row was skipped). */
  readonly note?: string;
  readonly series?: RowSeries;
}

/** A table of rows, with lines said under it. */
export interface BenchTable {
  readonly kind: 'table';
  /** Stable: charts and merged rows find the table by it. */
  readonly id: string;
  readonly title: string;
  /** The heading of the column of row names. */
  readonly nameLabel: string;
  readonly columns: readonly BenchColumn[];
  readonly rows: readonly BenchRow[];
  readonly notes?: readonly string[];
}

/** Labelled lines (`start-up to listening: 530 ms`). */
export interface BenchLines {
  readonly kind: 'lines';
  readonly id: string;
  readonly title: string;
  readonly lines: readonly { readonly label: string; readonly value: string }[];
}

/** One section of a run. */
export type BenchSection = BenchTable | BenchLines;

/**
 * A chart of the HTML report, drawn from the cells of one table: `lines` draws each row as a
 * line over the columns (whose keys are numbers: days of range), `bars` draws the named columns
 * as bars, grouped by row.
 */
export type BenchChartSpec =
  | { readonly kind: 'lines'; readonly id: string; readonly title: string; readonly table: string; readonly xLabel: string; readonly yLabel: string; readonly log?: boolean }
  | {
      readonly kind: 'bars';
      readonly id: string;
      readonly title: string;
      readonly table: string;
      readonly columns: readonly string[];
      readonly yLabel: string;
      readonly log?: boolean;
    };

/** One run of the bench. */
export interface BenchResults {
  /** The first line: durations, connections, the website, how the CPUs were pinned. */
  readonly title: string;
  readonly sections: readonly BenchSection[];
  readonly charts: readonly BenchChartSpec[];
}

/**
 * `sections` with `incoming` added: a table whose id is already there gets the incoming rows and
 * notes after its own (so several measurements fill one table); anything else is appended.
 */
export function addSection(sections: readonly BenchSection[], incoming: BenchSection): BenchSection[] {
  const index = sections.findIndex((s) => s.id === incoming.id && s.kind === 'table' && incoming.kind === 'table');
  const existing = sections[index];
  if (!existing || existing.kind !== 'table' || incoming.kind !== 'table') return [...sections, incoming];
  const merged: BenchTable = { ...existing, rows: [...existing.rows, ...incoming.rows], notes: [...(existing.notes ?? []), ...(incoming.notes ?? [])] };
  return sections.map((s, i) => (i === index ? merged : s));
}

/** A number cell as its column writes it: `1234`, `0.45x`, `-` for nothing measured. */
export function formatCell(column: BenchColumn, cell: BenchCell | undefined): string {
  if (cell === null || cell === undefined) return '-';
  if (typeof cell === 'string') return cell;
  return `${cell.toFixed(column.digits ?? 0)}${column.suffix ?? ''}`;
}
