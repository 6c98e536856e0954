/**
 * The HTML report of `npm run load -- PLAN --report FILE`: one self-contained file (uPlot's
 * script and style sheet inlined from the installed package when the report is written) with,
 * per plan, the accuracy table the text report prints, decisions per second admitted and
 * refused by rule, and latency percentiles. The charts are the inspector's
 * (src/inspector/charts.ts, drawn by src/inspector/load-report-main.ts and bundled into
 * html-report-script.ts by `npm run build:inspector`), so the two never drift apart; the page
 * around them is the one every report shares (html-document.ts).
 */
import type { ReportCharts } from '../src/inspector/chart-data.js';
import { escapeHtml, readChartAssets, renderHtmlDocument, type ChartAssets } from './html-document.js';
import { HTML_REPORT_SCRIPT } from './html-report-script.js';
import { PLANS, reportLines, type Report } from './runner.js';

/** The rows of the text report's table (label, value), as `reportLines` prints them. */
export function accuracyRows(report: Report): [string, string][] {
  return reportLines(report)
    .slice(1)
    .filter((line) => !line.startsWith('  FAIL: '))
    .flatMap((line): [string, string][] => {
      const match = /^ {2}(.+?) {2,}(.*)$/.exec(line);
      return match ? [[match[1] as string, match[2] as string]] : [];
    });
}

/** The load report's own style, after the shared page's (html-document.ts). */
const STYLE = `
  .verdict { font-size: 12px; padding: 1px 8px; border-radius: 3px; }
  .verdict.exact { background: #d3f9d8; color: #2b8a3e; }
  .verdict.not-exact { background: #ffe3e3; color: #c92a2a; }
  dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0 0; }
  dl.meta dt { color: #6c757d; }
  dl.meta dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
  ul.problems { color: #c92a2a; }
`;

function planSection(report: Report, index: number): string {
  const { driven, options } = report;
  const ms = (n: number): string => `${n.toFixed(1)} ms`;
  const step = report.timeline.decisions.step;
  const rows = accuracyRows(report)
    .map(([label, value]) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('\n');
  const problems = report.problems.length
    ? `<h3>Problems</h3>\n<ul class="problems">${report.problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul>`
    : '';
  return `<section class="plan" id="plan-${escapeHtml(report.plan)}" data-plan="${escapeHtml(report.plan)}">
<h2>plan ${escapeHtml(report.plan)} <span class="verdict ${report.exact ? 'exact' : 'not-exact'}">${report.exact ? 'EXACT' : 'NOT EXACT'}</span></h2>
<p class="muted">${escapeHtml(PLANS[report.plan].description)}</p>
<dl class="meta">
<dt>target</dt><dd>${escapeHtml(report.target)}</dd>
<dt>started</dt><dd>${escapeHtml(report.startedAt)}</dd>
<dt>load</dt><dd>${options.duration} s, ${options.rate > 0 ? `${options.rate}/s offered` : 'closed loop'}, ${options.connections} connections</dd>
</dl>
<h3 id="accuracy-${index}">Accuracy</h3>
<table class="accuracy"><tbody>
${rows}
</tbody></table>
${problems}
<h3 id="decisions-title-${index}">Admitted and refused per second</h3>
<p class="muted">Simulator clock (UTC), from the journal${step > 1 ? `; ${step} s per point, averaged` : ''}.</p>
<div class="chart" id="decisions-${index}"></div>
<h3 id="latency-title-${index}">Latency percentiles</h3>
<table class="latency"><tbody>
<tr><th scope="row">p50 / p90 / p99</th><td>${ms(driven.p50)} / ${ms(driven.p90)} / ${ms(driven.p99)}</td></tr>
<tr><th scope="row">requests/s</th><td>${driven.rps.toFixed(0)}</td></tr>
</tbody></table>
<p class="muted">Per second of the load tool's clock (UTC), as the load tool measured the answers.</p>
<div class="chart" id="latency-${index}"></div>
</section>`;
}

/**
 * The report as one HTML document: no external reference, every text escaped, the data as
 * JSON in a non-executable script element. `assets` defaults to the installed uPlot.
 */
export function renderHtmlReport(reports: readonly Report[], assets: ChartAssets = readChartAssets()): string {
  const exact = reports.every((r) => r.exact);
  const title = reports.length === 1 ? `load report: ${reports[0]?.plan}` : `load report: ${reports.length} plans`;
  const data: ReportCharts[] = reports.map((r) => ({ plan: r.plan, decisions: r.timeline.decisions, latency: r.timeline.latency }));
  return renderHtmlDocument(
    {
      title,
      summary: `<p class="muted">${reports.length} plan${reports.length === 1 ? '' : 's'}: ${exact ? 'all EXACT' : 'NOT EXACT'} (100% admission accuracy and no over-admission).</p>`,
      main: reports.map(planSection).join('\n'),
      style: STYLE,
      data,
      script: HTML_REPORT_SCRIPT,
    },
    assets,
  );
}
