import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../load/html-document.js';
import { accuracyRows, renderHtmlReport } from '../../load/html-report.js';
import { HTML_REPORT_SCRIPT } from '../../load/html-report-script.js';
import { reportPath } from '../../load/report-path.js';
import type { Report } from '../../load/runner.js';
import { createLatencyRecorder, decisionTimeline } from '../../load/timeline.js';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { createSimulator } from '../../src/index.js';
import { CHROMIUM, CHROMIUM_FLAGS, SKIP_BROWSER } from '../browser/chromium.js';
import { REPO_ROOT } from '../helpers/cli.js';

const run = promisify(execFile);

describe('where --json and --report write', () => {
  it('puts a bare file name under .load-reports/', () => {
    expect(reportPath('report.html')).toBe(join('.load-reports', 'report.html'));
  });

  it('uses a path with a directory as given', () => {
    for (const path of ['./report.html', 'out/report.html', '/tmp/report.json']) expect(reportPath(path)).toBe(path);
  });
});

describe('the time series of a load run', () => {
  it('counts decisions per second by outcome, with the empty seconds as zero', () => {
    const timeline = decisionTimeline([
      { at: 10_100, outcome: 'admitted' },
      { at: 10_900, outcome: 'admitted' },
      { at: 12_000, outcome: 'key_quota' },
      { at: 12_999, outcome: 'admitted' },
    ]);
    expect(timeline).toEqual({ t: [10, 11, 12], series: { admitted: [2, 0, 1], key_quota: [0, 0, 1] }, step: 1 });
  });

  it('gives latency percentiles per second and leaves a second without answers empty', () => {
    const recorder = createLatencyRecorder();
    for (let i = 1; i <= 100; i++) recorder.record(5_000 + i, i);
    recorder.record(7_500, 42);
    expect(recorder.timeline()).toEqual({ t: [5, 6, 7], p50: [50, null, 42], p90: [90, null, 42], p99: [99, null, 42] });
  });
});

describe('npm run load -- PLAN --report FILE', () => {
  let server: RunningServer;
  const dir = mkdtempSync(join(tmpdir(), 'load-report-'));
  // A bare name: written under the git-ignored .load-reports/ of the working directory.
  const bare = `html-report-test-${process.pid}.html`;
  const written = join(REPO_ROOT, '.load-reports', bare);
  const json = join(dir, 'smoke.json');
  let stdout = '';
  let html = '';
  let report: Report;

  beforeAll(async () => {
    server = await startServer(createSimulator({ seed: 42, clock: 'real', realNow: Date.now }), { port: 0 });
    // In its own process, as `npm run load` runs it (autocannon needs a main thread).
    ({ stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'load/run.ts', 'smoke', '--duration', '1', '--rate', '10', '--connections', '2', '--target', server.url, '--json', json, '--report', bare],
      { cwd: REPO_ROOT },
    ));
    html = readFileSync(written, 'utf8');
    report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  }, 30_000);

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(written, { force: true });
  });

  it('writes a bare report name under .load-reports/ and a path with a directory as given, and prints both', () => {
    expect(existsSync(written)).toBe(true);
    expect(stdout).toContain(`HTML report written to ${join('.load-reports', bare)}\n`);
    expect(stdout).toContain(`report written to ${json}\n`);
  });

  it('holds the accuracy table the text report prints, figure for figure', () => {
    expect(report.exact).toBe(true);
    const rows = accuracyRows(report);
    expect(rows.map(([label]) => label)).toEqual(expect.arrayContaining(['offered (journaled)', 'admitted', 'accuracy', 'over-admissions', 'latency p50 / p99']));
    for (const [label, value] of rows) expect(html).toContain(`<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`);
    expect(html).toContain(`<td>${report.summary.accuracy.toFixed(2)} %</td>`);
    expect(html).toContain(`<td>${report.summary.offered}</td>`);
  });

  it('is self-contained: uPlot and the shared chart code inline, nothing loaded from elsewhere', () => {
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+stylesheet/);
    expect(html).toContain(`<script>${HTML_REPORT_SCRIPT}</script>`);
    expect(HTML_REPORT_SCRIPT).toContain('Chart unavailable: uPlot was not loaded');
    expect(html).toContain('.uplot');
    expect(html.length).toBeGreaterThan(50_000);
  });

  it.skipIf(SKIP_BROWSER)('parses in Chromium into one section per plan with its table and two drawn charts', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`file://${written}`);
      await page.locator('canvas').nth(1).waitFor({ timeout: 10_000 });
      const section = page.locator('section.plan[data-plan="smoke"]');
      expect(await section.count()).toBe(1);
      expect(await section.locator('h3').allTextContents()).toEqual(['Accuracy', 'Admitted and refused per second', 'Latency percentiles']);
      expect(await section.locator('table.accuracy tr').count()).toBe(accuracyRows(report).length);
      expect(await section.locator('canvas').count()).toBe(2);
      expect(await section.locator('.u-legend').first().textContent()).toContain('admitted');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 20_000);
});

describe('the HTML report of a hostile run', () => {
  it('writes every text escaped and keeps the embedded data from closing its script element', () => {
    const base = {
      plan: 'smoke',
      options: { duration: 1, rate: 1, connections: 1 },
      target: 'http://x/"><script>alert(1)</script>',
      startedAt: '2025-06-02T12:00:00.000Z',
      driven: { sent: 1, statuses: { 200: 1 }, errors: 0, p50: 1, p90: 1, p99: 1, rps: 1, seconds: 1 },
      summary: { offered: 1, admitted: 1, refusedByRule: {}, expectedByRule: {}, checked: 0, skipped: 0, overAdmissions: 0, underAdmissions: 0, accuracy: 100, disagreements: [] },
      oracle: { checked: 0, skipped: 0, overAdmissions: 0, underAdmissions: 0, accuracy: 100 },
      arrivals: {},
      exact: true,
      problems: ['</script><img src=x onerror=alert(1)>'],
      timeline: { decisions: { t: [1], series: { admitted: [1], '</script><b>': [0] }, step: 1 }, latency: { t: [], p50: [], p90: [], p99: [] } },
    } as unknown as Report;
    const html = renderHtmlReport([base], { script: '/* uPlot */', style: '/* css */' });
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    // The data, uPlot, and the report's script: no element closed early.
    expect(html.match(/<\/script>/g)).toHaveLength(3);
  });
});
