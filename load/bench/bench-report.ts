/**
 * The HTML report of `npm run bench -- --report FILE`, rendered from the run's results
 * (bench-results.ts), the same the console table is: the charts first (a parameter's cost
 * against its range in days, first requests against warm ones, the stores side by side), then
 * every table and list of lines of the run, figure for figure. The page is the one the load
 * report uses (load/html-document.ts: uPlot inlined, nothing loaded from elsewhere), and the
 * charts are the inspector's (src/inspector/charts.ts, drawn by
 * src/inspector/bench-report-main.ts, bundled into bench-report-script.ts).
 */
import type { BarChartData, BenchChart, LineChartData, ValueSeries } from '../../src/inspector/chart-data.js';
import { escapeHtml, readChartAssets, renderHtmlDocument, type ChartAssets } from '../html-document.js';
import { BENCH_REPORT_SCRIPT } from './bench-report-script.js';
import { formatCell, type BenchCell, type BenchChartSpec, type BenchResults, type BenchSection, type BenchTable } from './bench-results.js';

const STYLE = `
  table.bench td, table.bench thead th { text-align: right; }
  table.bench th[scope="row"], table.bench thead th:first-child { text-align: left; }
  table.bench td.note { text-align: left; color: #6c757d; }
  p.note { margin: 6px 0 0; }
`;

const numberOf = (cell: BenchCell | undefined): number | null => (typeof cell === 'number' && Number.isFinite(cell) ? cell : null);

/** The data of one chart, from the cells of its table; undefined when the run has no such table or nothing to draw. */
export function collectChartData(spec: BenchChartSpec, sections: readonly BenchSection[]): BenchChart | undefined {
  const table = sections.find((s): s is BenchTable => s.kind === 'table' && s.id === spec.table);
  if (!table) return undefined;
  if (spec.kind === 'lines') {
    const columns = table.columns.filter((c) => Number.isFinite(Number(c.key)));
    const series: ValueSeries[] = table.rows.map((row) => ({
      label: row.name,
      values: columns.map((c) => numberOf(row.cells[c.key])),
      ...(row.series ? { group: row.series.group, ...(row.series.dashed ? { dashed: true } : {}) } : {}),
    }));
    const lines: LineChartData = { kind: 'lines', x: columns.map((c) => Number(c.key)), xLabel: spec.xLabel, yLabel: spec.yLabel, log: spec.log ?? false, series };
    return series.length > 0 ? { id: spec.id, ...lines } : undefined;
  }
  const rows = table.rows.filter((row) => spec.columns.some((key) => numberOf(row.cells[key]) !== null));
  const bars: BarChartData = {
    kind: 'bars',
    categories: rows.map((row) => row.name),
    yLabel: spec.yLabel,
    log: spec.log ?? false,
    series: spec.columns.map((key) => ({ label: table.columns.find((c) => c.key === key)?.label ?? key, values: rows.map((row) => numberOf(row.cells[key])) })),
  };
  return rows.length > 0 ? { id: spec.id, ...bars } : undefined;
}

function renderTableHtml(table: BenchTable): string {
  const head = `<tr><th scope="col">${escapeHtml(table.nameLabel)}</th>${table.columns.map((c) => `<th scope="col">${escapeHtml(c.label)}</th>`).join('')}</tr>`;
  const body = table.rows.map((row) => {
    const measured = table.columns.some((c) => row.cells[c.key] !== undefined);
    const cells = measured ? table.columns.map((c) => `<td>${escapeHtml(formatCell(c, row.cells[c.key]))}</td>`).join('') : '';
    const note = row.note ? `<td class="note"${measured ? '' : ` colspan="${table.columns.length}"`}>${escapeHtml(row.note)}</td>` : '';
    return `<tr><th scope="row">${escapeHtml(row.name)}</th>${cells}${note}</tr>`;
  });
  return `<table class="bench"><thead>${head}</thead><tbody>
${body.join('\n')}
</tbody></table>`;
}

function renderSectionHtml(section: BenchSection): string {
  const content =
    section.kind === 'table'
      ? `${renderTableHtml(section)}${(section.notes ?? []).map((n) => `\n<p class="muted note">${escapeHtml(n)}</p>`).join('')}`
      : `<table class="lines"><tbody>
${section.lines.map((l) => `<tr><th scope="row">${escapeHtml(l.label)}</th><td>${escapeHtml(l.value)}</td></tr>`).join('\n')}
</tbody></table>`;
  return `<section id="section-${escapeHtml(section.id)}" data-section="${escapeHtml(section.id)}">
<h2>${escapeHtml(section.title)}</h2>
${content}
</section>`;
}

/**
 * The run as one HTML document: every text escaped, the charts' data as JSON in a
 * non-executable script element. `assets` defaults to the installed uPlot.
 */
export function renderBenchReport(results: BenchResults, assets: ChartAssets = readChartAssets()): string {
  const charts = results.charts.flatMap((spec) => {
    const data = collectChartData(spec, results.sections);
    return data ? [{ spec, data }] : [];
  });
  const figures = charts.map(
    ({ spec }) => `<section class="figure" data-chart="${escapeHtml(spec.id)}">
<h2>${escapeHtml(spec.title)}</h2>
<p class="muted">Drawn from the table “${escapeHtml(results.sections.find((s) => s.id === spec.table)?.title ?? spec.table)}” below${spec.log ? ', on a logarithmic scale' : ''}.</p>
<div class="chart" id="${escapeHtml(spec.id)}"></div>
</section>`,
  );
  return renderHtmlDocument(
    {
      title: 'benchmark',
      summary: `<p class="muted">${escapeHtml(results.title)}</p>`,
      main: [...figures, ...results.sections.map(renderSectionHtml)].join('\n'),
      style: STYLE,
      data: charts.map((c) => c.data),
      script: BENCH_REPORT_SCRIPT,
    },
    assets,
  );
}
