/**
 * The bench's table of first requests against warm ones: the same query's first answer (its
 * data made for it) and its warm median, in ms. The bench fills it over HTTP and the range
 * measurement (range-costs.ts) in process; both send rows to this one table.
 */
import type { BenchRow, BenchTable } from './bench-results.js';

/** A row: `cold` and `warm` ms of one query, and their ratio. */
export function firstVsWarmRow(name: string, coldMs: number, warmMs: number): BenchRow {
  return { name, cells: { cold: coldMs, warm: warmMs, ratio: warmMs > 0 ? coldMs / warmMs : null } };
}

/** The table with `rows`. */
export function firstVsWarmTable(rows: readonly BenchRow[]): BenchTable {
  return {
    kind: 'table',
    id: 'first-vs-warm',
    title: 'first request against warm (ms)',
    nameLabel: 'query',
    columns: [
      { key: 'cold', label: 'first', digits: 1 },
      { key: 'warm', label: 'warm p50', digits: 2 },
      { key: 'ratio', label: 'first / warm', digits: 0, suffix: 'x' },
    ],
    rows,
  };
}
