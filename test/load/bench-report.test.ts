import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../../load/bench/bench-args.js';
import { collectChartData, renderBenchReport } from '../../load/bench/bench-report.js';
import { BENCH_REPORT_SCRIPT } from '../../load/bench/bench-report-script.js';
import { addSection, formatCell, type BenchResults, type BenchTable } from '../../load/bench/bench-results.js';
import { renderBenchText } from '../../load/bench/bench-text.js';
import { firstVsWarmRow, firstVsWarmTable } from '../../load/bench/first-vs-warm.js';
import { runMeasurement } from '../../load/bench/section-channel.js';
import { shownRatio } from '../../load/bench/store-rows.js';
import { escapeHtml } from '../../load/html-document.js';
import type { BarChartData, BenchChart, LineChartData } from '../../src/inspector/chart-data.js';
import { CHROMIUM, CHROMIUM_FLAGS, SKIP_BROWSER } from '../browser/chromium.js';
import { REPO_ROOT } from '../helpers/cli.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ranges: BenchTable = {
  kind: 'table',
  id: 'range-costs',
  title: 'one parameter against its range in days (ms)',
  nameLabel: 'type',
  columns: ['1', '30', '365'].map((key) => ({ key, label: `${key} d`, digits: 2 })),
  rows: [
    { name: 'top_pages, cold', cells: { 1: 4.25, 30: 19.1, 365: 156.2 }, series: { group: 'top_pages', dashed: true } },
    { name: 'top_pages, warm', cells: { 1: 0.04, 30: 0.02, 365: 0.03 }, series: { group: 'top_pages' } },
    { name: 'interesting_sessions, cold', cells: { 1: 10.4, 30: 77.3, 365: 'refused' }, series: { group: 'interesting_sessions', dashed: true } },
  ],
  notes: ['refused: over the work budget'],
};

const stores: BenchTable = {
  kind: 'table',
  id: 'stores',
  title: 'the quota-key work on each store',
  nameLabel: 'store',
  columns: [
    { key: 'rps', label: 'req/s' },
    { key: 'accuracy', label: 'accuracy', digits: 2, suffix: '%' },
  ],
  rows: [
    { name: 'memory store, 1 process', cells: { rps: 6915.4, accuracy: 100 } },
    { name: 'redis store, 1 process', cells: { rps: 3517.9, accuracy: 100 } },
    { name: 'redis store, --workers 2', cells: {}, note: 'skipped: no redis-server to measure with' },
  ],
};

const results: BenchResults = {
  title: 'analytics-sim benchmark: 1s per row, 32 connections',
  sections: [
    firstVsWarmTable([firstVsWarmRow('HTTP summary_metrics last_30d', 426.04, 1.5)]),
    ranges,
    stores,
    { kind: 'lines', id: 'start-up', title: 'start-up', lines: [{ label: 'start-up to listening', value: '530 ms (bare server: 90 ms, via tsx)' }] },
  ],
  charts: [
    { kind: 'lines', id: 'range-chart', title: 'One parameter against its range in days', table: 'range-costs', xLabel: 'days of range', yLabel: 'ms', log: true },
    { kind: 'bars', id: 'first-chart', title: 'First request against warm', table: 'first-vs-warm', columns: ['cold', 'warm'], yLabel: 'ms', log: true },
    { kind: 'bars', id: 'stores-chart', title: 'The stores side by side', table: 'stores', columns: ['rps'], yLabel: 'requests / s' },
  ],
};

/** The charts' data the page embeds. */
function embeddedCharts(html: string): BenchChart[] {
  const json = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)?.[1];
  return JSON.parse(json ?? 'null') as BenchChart[];
}

describe('the results of a bench run', () => {
  it('gather rows sent for a table already there under it, and add any other section after the rest', () => {
    const more: BenchTable = { ...stores, rows: [{ name: 'redis store, 4 processes', cells: { rps: 9000 } }], notes: ['one more'] };
    const merged = addSection(results.sections, more);
    expect(merged).toHaveLength(results.sections.length);
    expect((merged.find((s) => s.id === 'stores') as BenchTable).rows.map((r) => r.name)).toEqual([...stores.rows.map((r) => r.name), 'redis store, 4 processes']);
    expect(addSection(results.sections, { ...more, id: 'other' }).at(-1)?.id).toBe('other');
  });

  it('print every row with the cells its columns format, and a skipped row with its reason', () => {
    const text = renderBenchText(results);
    expect(text).toContain(results.title);
    expect(text).toMatch(/top_pages, warm +0\.04 +0\.02 +0\.03\n/);
    expect(text).toMatch(/interesting_sessions, cold +10\.40 +77\.30 +refused\n/);
    expect(text).toMatch(/memory store, 1 process +6915 +100\.00%\n/);
    expect(text).toContain('redis store, --workers 2 skipped: no redis-server to measure with\n');
    expect(text).toMatch(/start-up to listening: 530 ms/);
  });
});

describe("the store table's target line", () => {
  it('prints the ratio with two decimals, and more where two would round it onto the other side of the target', () => {
    expect(shownRatio(0.4712)).toBe('0.47');
    expect(shownRatio(0.5312)).toBe('0.53');
    expect(shownRatio(0.498)).toBe('0.498');
    expect(shownRatio(0.5)).toBe('0.50');
    expect(shownRatio(0.4951)).toBe('0.495');
    expect(shownRatio(0.4949)).toBe('0.49');
    expect(shownRatio(0.4996)).toBe('0.4996');
    expect(shownRatio(0.49999)).toBe('0.4999');
  });
});

describe('npm run bench -- --report FILE', () => {
  const html = renderBenchReport(results, { script: '/* uPlot */', style: '/* uPlot style */' });

  it('holds every row of every table, figure for figure as the console prints them', () => {
    for (const table of results.sections.filter((s): s is BenchTable => s.kind === 'table')) {
      for (const row of table.rows) {
        const measured = table.columns.some((c) => row.cells[c.key] !== undefined);
        const cells = measured ? table.columns.map((c) => `<td>${escapeHtml(formatCell(c, row.cells[c.key]))}</td>`).join('') : '';
        expect(html).toContain(`<tr><th scope="row">${escapeHtml(row.name)}</th>${cells}`);
      }
    }
    expect(html).toContain('<td>refused</td>');
    expect(html).toContain('skipped: no redis-server to measure with</td>');
    expect(html).toContain('<tr><th scope="row">start-up to listening</th><td>530 ms (bare server: 90 ms, via tsx)</td></tr>');
  });

  it("embeds each chart's data from its table: refused ranges and unmeasured rows left out", () => {
    const [lines, first, bars] = embeddedCharts(html) as [LineChartData & { id: string }, BarChartData & { id: string }, BarChartData & { id: string }];
    expect(lines).toMatchObject({ id: 'range-chart', kind: 'lines', x: [1, 30, 365], log: true });
    expect(lines.series).toEqual([
      { label: 'top_pages, cold', values: [4.25, 19.1, 156.2], group: 'top_pages', dashed: true },
      { label: 'top_pages, warm', values: [0.04, 0.02, 0.03], group: 'top_pages' },
      { label: 'interesting_sessions, cold', values: [10.4, 77.3, null], group: 'interesting_sessions', dashed: true },
    ]);
    expect(first).toMatchObject({ id: 'first-chart', kind: 'bars', categories: ['HTTP summary_metrics last_30d'], series: [{ label: 'first', values: [426.04] }, { label: 'warm p50', values: [1.5] }] });
    expect(bars).toMatchObject({ id: 'stores-chart', categories: ['memory store, 1 process', 'redis store, 1 process'], series: [{ label: 'req/s', values: [6915.4, 3517.9] }] });
    for (const id of ['range-chart', 'first-chart', 'stores-chart']) expect(html).toContain(`<div class="chart" id="${id}"></div>`);
  });

  it('draws no chart for a table the run does not have', () => {
    expect(collectChartData({ kind: 'bars', id: 'x', title: 'x', table: 'absent', columns: ['rps'], yLabel: '' }, results.sections)).toBeUndefined();
  });

  it('is self-contained: uPlot and the shared chart code inline, no URL anywhere', () => {
    expect(html).not.toMatch(/https?:\/\/|<script[^>]+src=|<link/);
    expect(html).toContain(`<script>${BENCH_REPORT_SCRIPT}</script>`);
    expect(html).toContain('<script>/* uPlot */</script>');
    expect(BENCH_REPORT_SCRIPT).toContain('Chart unavailable: uPlot was not loaded');
  });

  it('writes every text escaped and keeps the embedded data from closing its script element', () => {
    const hostile: BenchResults = {
      title: '<img src=x onerror=alert(1)>',
      sections: [{ ...stores, rows: [{ name: '</script><b>', cells: { rps: 1 } }] }],
      charts: [{ kind: 'bars', id: 'stores-chart', title: 'stores', table: 'stores', columns: ['rps'], yLabel: 'requests / s' }],
    };
    const page = renderBenchReport(hostile, { script: '', style: '' });
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;/script&gt;&lt;b&gt;');
    expect(page.match(/<\/script>/g)).toHaveLength(3);
  });

  it.skipIf(SKIP_BROWSER)('draws the three charts in Chromium with the installed uPlot, without an error', async () => {
    const file = join(dir, 'bench.html');
    writeFileSync(file, renderBenchReport(results));
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.goto(pathToFileURL(file).href);
      await page.locator('canvas').nth(2).waitFor({ timeout: 10_000 });
      for (const id of ['range-chart', 'first-chart', 'stores-chart']) expect(await page.locator(`#${id} canvas`).count(), id).toBe(1);
      expect(await page.locator('#range-chart .u-legend').textContent()).toContain('interesting_sessions, cold');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 20_000);
});

describe('the flags of npm run bench', () => {
  it('default to 5 s and 32 connections, and place a bare report name under .load-reports/', () => {
    expect(parseBenchArgs([])).toEqual({ help: false, duration: 5, connections: 32, report: undefined });
    expect(parseBenchArgs(['--duration', '1', '--report', 'bench.html'])).toMatchObject({ duration: 1, report: join('.load-reports', 'bench.html') });
    expect(parseBenchArgs(['-h'])).toEqual({ help: true });
  });

  it('refuse a report path that cannot be written, naming why and what to give', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    expect(() => parseBenchArgs(['--report', join(file, 'bench.html')])).toThrow(`${file} is a file, not a directory`);
    expect(() => parseBenchArgs(['--report', dir])).toThrow(`${dir} is a directory; give a file name`);
    expect(() => parseBenchArgs(['--report', ''])).toThrow('--report needs a file name');
  });

  it('take --only stores for the store table alone, and refuse any other part', () => {
    expect(parseBenchArgs(['--only', 'stores'])).toMatchObject({ only: 'stores' });
    expect(parseBenchArgs([])).toMatchObject({ only: undefined });
    expect(() => parseBenchArgs(['--only', 'http'])).toThrow('--only takes stores, got "http".');
  });

  it('refuse a bad number and an unknown flag', () => {
    expect(() => parseBenchArgs(['--duration', '0'])).toThrow('--duration must be a whole number ≥ 1, got "0".');
    expect(() => parseBenchArgs(['--reprot', 'x.html'])).toThrow("unknown option '--reprot'. Did you mean --report?");
  });

  it('exit with status 2 and the reason before measuring anything when --report cannot be written', async () => {
    const file = join(dir, 'not-a-dir');
    writeFileSync(file, '');
    const failed = await run(process.execPath, ['--import', 'tsx', 'load/bench/run.ts', '--report', join(file, 'bench.html')], { cwd: REPO_ROOT }).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain(`--report ${join(file, 'bench.html')}: ${file} is a file, not a directory`);
    expect(failed?.stderr).toContain('Usage: npm run bench -- [options]');
    expect(failed?.stdout).toBe('');
  }, 20_000);
});

describe('a measurement in a process of its own', () => {
  it('hands the bench its sections as data, in order', async () => {
    const script = join(dir, 'measurement.mts');
    const channel = pathToFileURL(join(REPO_ROOT, 'load/bench/section-channel.ts')).href;
    writeFileSync(
      script,
      `import { emitSection } from ${JSON.stringify(channel)};
await emitSection({ kind: 'lines', id: 'a', title: 'A', lines: [{ label: 'x', value: '1 ms' }] });
await emitSection({ kind: 'table', id: 'b', title: 'B', nameLabel: 'n', columns: [{ key: 'v', label: 'v' }], rows: [{ name: 'r', cells: { v: 2 } }] });
`,
    );
    const sections = await runMeasurement(script);
    expect(sections.map((s) => s.id)).toEqual(['a', 'b']);
    expect(sections[1]).toMatchObject({ rows: [{ name: 'r', cells: { v: 2 } }] });
  }, 20_000);

  it('is reported as failed when its process fails, and the run goes on', async () => {
    const script = join(dir, 'failing.mts');
    writeFileSync(script, 'process.exit(3);\n');
    expect(await runMeasurement(script)).toEqual([{ kind: 'lines', id: `failed:${script}`, title: `${script} failed`, lines: [{ label: 'exit', value: 'status 3' }] }]);
  }, 20_000);
});
