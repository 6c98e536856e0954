/**
 * The page the HTML reports share (`npm run load -- --report`, load/html-report.ts, and
 * `npm run bench -- --report`, load/bench/bench-report.ts): one self-contained document with
 * uPlot's script and style sheet inlined from the installed package, the report's data as
 * JSON in a non-executable script element, and the report's script (the inspector's charts,
 * bundled by `npm run build:inspector`) after them. Nothing is loaded from elsewhere.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { INSPECTOR_ASSETS } from '../src/sim/control/inspector-assets.js';

/** uPlot's files as text, inlined into the report. */
export interface ChartAssets {
  readonly script: string;
  readonly style: string;
}

/** Reads uPlot's script and style sheet from the installed `uplot` package. */
export function readChartAssets(): ChartAssets {
  const packages = createRequire(import.meta.url);
  const read = (module: string): string => readFileSync(packages.resolve(module), 'utf8');
  return { script: read(INSPECTOR_ASSETS.script.module), style: read(INSPECTOR_ASSETS.style.module) };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML (element content or a quoted attribute value). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** Script text that cannot close its `<script>` element early. */
function inlineScript(text: string): string {
  return text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/** JSON for a `<script type="application/json">` element: `<` never appears literally. */
function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The style every report starts from: the page, its sections, tables and charts. */
const BASE_STYLE = `
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; color: #212529; background: #f8f9fa; }
  header, main { max-width: 1200px; margin: 0 auto; padding: 16px 24px; }
  header h1 { margin: 0 0 4px; font-size: 20px; }
  .muted { color: #6c757d; }
  main > section { background: #fff; border: 1px solid #dee2e6; border-radius: 6px; padding: 12px 20px 20px; margin-bottom: 20px; }
  h2 { font-size: 17px; margin: 4px 0; display: flex; gap: 10px; align-items: center; }
  h3 { font-size: 14px; margin: 18px 0 6px; }
  table { border-collapse: collapse; }
  th, td { text-align: left; padding: 3px 12px 3px 0; border-bottom: 1px solid #f1f3f5; vertical-align: top; }
  th { font-weight: 400; color: #495057; }
  td { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
  .chart { min-height: 40px; }
  .chart-unavailable { color: #6c757d; font-style: italic; }
`;

/** What a report puts in the shared page. */
export interface HtmlDocument {
  /** The page's title, after `analytics-sim `. */
  readonly title: string;
  /** The header's HTML under its title (escaped by the caller). */
  readonly summary: string;
  /** The main element's HTML (escaped by the caller). */
  readonly main: string;
  /** The report's own style, after the shared one. */
  readonly style: string;
  /** What the report's script reads from `#report-data`. */
  readonly data: unknown;
  /** The report's script (a bundle of src/inspector). */
  readonly script: string;
}

/** The report as one HTML document: no external reference, the title escaped, the data inert. */
export function renderHtmlDocument(page: HtmlDocument, assets: ChartAssets): string {
  const title = `analytics-sim ${escapeHtml(page.title)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${assets.style.replace(/<\/(style)/gi, '<\\/$1')}</style>
<style>${BASE_STYLE}${page.style}</style>
</head>
<body>
<header>
<h1>${title}</h1>
${page.summary}
</header>
<main>
${page.main}
</main>
<script type="application/json" id="report-data">${inlineJson(page.data)}</script>
<script>${inlineScript(assets.script)}</script>
<script>${inlineScript(page.script)}</script>
</body>
</html>
`;
}
