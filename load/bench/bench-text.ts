/**
 * The bench's console output, rendered from its results (bench-results.ts): each table with
 * its columns aligned, each list of lines with its values aligned.
 */
import { formatCell, type BenchResults, type BenchSection } from './bench-results.js';

/** The lines of one section: its title, then its rows or lines. */
export function formatSectionText(section: BenchSection): string[] {
  if (section.kind === 'lines') {
    const width = Math.max(0, ...section.lines.map((l) => l.label.length + 1));
    return [`${section.title}:`, ...section.lines.map((l) => `  ${`${l.label}:`.padEnd(width)} ${l.value}`)];
  }
  const nameWidth = Math.max(section.nameLabel.length, ...section.rows.map((r) => r.name.length));
  const cells = section.rows.map((row) => section.columns.map((column) => formatCell(column, row.cells[column.key])));
  const widths = section.columns.map((column, i) => Math.max(column.label.length, ...cells.map((rowCells) => (rowCells[i] as string).length)));
  const measured = (i: number): boolean => section.columns.some((column) => section.rows[i]?.cells[column.key] !== undefined);
  return [
    `${section.title}:`,
    `${section.nameLabel.padEnd(nameWidth)} ${section.columns.map((column, i) => column.label.padStart(widths[i] ?? 0)).join(' ')}`.trimEnd(),
    ...section.rows.map((row, r) => {
      const values = measured(r) ? ` ${(cells[r] ?? []).map((text, i) => text.padStart(widths[i] ?? 0)).join(' ')}` : '';
      return `${row.name.padEnd(nameWidth)}${values}${row.note ? ` ${row.note}` : ''}`.trimEnd();
    }),
    ...(section.notes ?? []),
  ];
}

/** The whole run as the console shows it. */
export function renderBenchText(results: BenchResults): string {
  return `\n${[results.title, ...results.sections.map((s) => formatSectionText(s).join('\n'))].join('\n\n')}\n`;
}
