import { scrub } from './render.js';
import type { ConformReport } from './report.js';

/** Text as XML character data or an attribute value: markup escaped, characters XML 1.0 cannot hold removed. */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/**
 * The report as JUnit XML, the form CI systems (GitHub Actions reporters, GitLab, Jenkins)
 * show test by test: a `<testsuite>` per group, a `<testcase>` per check (class
 * `conform.<group>`, named as the table names it), a `<failure>` saying what the live service
 * does and what the target did (the full list behind an aggregated row in its text), a
 * `<skipped>` with the reason. No times: a run's XML depends on the target only. The key never
 * appears.
 */
export function renderJunit(report: ConformReport, secret: string): string {
  const { summary } = report;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="analytics-sim conform ${xml(report.target)}" tests="${summary.checks}" failures="${summary.failed}" skipped="${summary.skipped}" errors="0">`,
  ];
  for (const group of report.groups) {
    const tally = summary.byGroup[group];
    const checks = report.checks.filter((c) => c.group === group);
    lines.push(`  <testsuite name="${group}" tests="${tally?.checks ?? 0}" failures="${tally?.failed ?? 0}" skipped="${tally?.skipped ?? 0}" errors="0">`);
    for (const c of checks) {
      const open = `    <testcase classname="conform.${group}" name="${xml(c.check)}"`;
      if (c.result === 'pass') lines.push(`${open}/>`);
      else if (c.result === 'skip') lines.push(`${open}>`, `      <skipped message="${xml(c.observed)}"/>`, '    </testcase>');
      else {
        const details = c.details && c.details.length > 0 ? `\n${c.details.join('\n')}` : '';
        lines.push(
          `${open}>`,
          `      <failure message="expected: ${xml(c.expected)}; observed: ${xml(c.observed)}" type="drift">${xml(`expected: ${c.expected}\nobserved: ${c.observed}${details}`)}</failure>`,
          '    </testcase>',
        );
      }
    }
    lines.push('  </testsuite>');
  }
  if (report.notes.length > 0) lines.push(`  <!-- ${xml(report.notes.join(' | ')).replace(/--/g, '- -')} -->`);
  lines.push('</testsuites>', '');
  return scrub(lines.join('\n'), secret);
}
