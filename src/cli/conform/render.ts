import type { CheckResult, ConformReport, Outcome } from './report.js';

const MARK: Readonly<Record<Outcome, string>> = { pass: '✓', fail: '✗', skip: 'skipped' };

/** Widest cell of each column; longer text is cut with an ellipsis (`--json` keeps it whole). */
const WIDTH = { check: 38, expected: 42, observed: 60 } as const;

function cell(text: string, width: number): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ');
  const cut = flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
  return cut.padEnd(width);
}

/** Removes every occurrence of `secret` (the key) from `text`. */
export function scrub(text: string, secret: string): string {
  return secret.length > 0 ? text.split(secret).join('<key>') : text;
}

/** "162 checks: 150 match, 10 differ, 2 skipped (catalogue 7 ✓ 2 ✗, …)". */
export function summaryLine(report: ConformReport): string {
  const { summary } = report;
  const groups = report.groups
    .map((group) => {
      const t = summary.byGroup[group];
      if (!t) return group;
      return `${group} ${t.passed} ✓${t.failed > 0 ? ` ${t.failed} ✗` : ''}${t.skipped > 0 ? ` ${t.skipped} skipped` : ''}`;
    })
    .join(', ');
  const verdict =
    summary.failed > 0
      ? `${summary.failed} differ${summary.failed === 1 ? 's' : ''} from the live service`
      : summary.passed === 0
        ? 'nothing was checked (every check was skipped)'
        : 'everything checked matches the live service';
  return `${summary.checks} checks: ${summary.passed} match, ${summary.failed} differ, ${summary.skipped} skipped (${groups}): ${verdict}`;
}

/** The table: one block per group, a row per check, the notes of the run, then the summary line. */
export function renderTable(report: ConformReport, secret: string): string {
  const widths = {
    check: Math.min(WIDTH.check, Math.max(5, ...report.checks.map((c) => c.check.length + 2))),
    expected: Math.min(WIDTH.expected, Math.max(8, ...report.checks.map((c) => c.expected.length))),
    observed: Math.min(WIDTH.observed, Math.max(8, ...report.checks.map((c) => c.observed.length))),
  };
  const row = (check: string, expected: string, observed: string, result: string): string =>
    `${cell(check, widths.check)}  ${cell(expected, widths.expected)}  ${cell(observed, widths.observed)}  ${result}`.trimEnd();
  const lines = [`analytics-sim conform: ${report.target} against the live Query API contract`, '', row('check', 'expected', 'observed', 'result')];
  lines.push('─'.repeat(widths.check + widths.expected + widths.observed + 6 + 'result'.length));
  for (const group of report.groups) {
    const rows: readonly CheckResult[] = report.checks.filter((c) => c.group === group);
    lines.push(group);
    for (const c of rows) lines.push(row(`  ${c.check}`, c.expected, c.observed, MARK[c.result]));
  }
  if (report.notes.length > 0) lines.push('', ...report.notes.map((n) => `note: ${n}`));
  lines.push('', summaryLine(report), '');
  return scrub(lines.join('\n'), secret);
}

/** The report as JSON (the key never in it). */
export function renderJson(report: ConformReport, secret: string): string {
  return `${scrub(JSON.stringify(report, null, 2), secret)}\n`;
}
