/**
 * `npm run load -- PLAN [--duration s] [--rate n] [--connections n] [--target URL] [--json FILE] [--report FILE]`
 *
 * Runs a load plan (the Node twin of load/k6/PLAN.js) against a simulator: its own
 * `node dist/cli/main.js serve --port 0 --clock real` process unless --target is given. Prints
 * the admission-accuracy report and writes it as JSON (default .load-reports/PLAN-<time>.json),
 * and with --report as a self-contained HTML page with charts (load/html-report.ts). A bare
 * file name given to --json or --report goes under .load-reports/; a path with a directory is
 * used as given. Exit status 1 when accuracy is below 100%, a request was over-admitted, or the
 * plan did not provoke the refusals it is for; 2 on bad arguments.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { describeArgumentError } from '../src/cli/args.js';
import { renderHtmlReport } from './html-report.js';
import { REPORTS_DIR, reportPath } from './report-path.js';
import { PLAN_NAMES, PLANS, reportLines, runPlan, startServer, type PlanName, type Server } from './runner.js';

const usage = `Usage: npm run load -- PLAN [options]

Plans:
${PLAN_NAMES.map((p) => `  ${p.padEnd(15)} ${PLANS[p].description} (default ${PLANS[p].defaults.duration} s, ${PLANS[p].defaults.rate || 'closed-loop'} req/s, ${PLANS[p].defaults.connections} connections)`).join('\n')}
  all             every plan in turn, each against a fresh simulator

Options:
  --duration <s>       seconds of load (plan default)
  --rate <n>           requests per second offered in all; 0 = as fast as the connections go
  --connections <n>    connections (autocannon) or clients (outage)
  --target <url>       an already running simulator (its whole journal is judged); default: start one
  --json <file>        where to write the JSON report (default ${REPORTS_DIR}/<plan>-<time>.json)
  --report <file>      also write a self-contained HTML report: the accuracy table, admitted and
                       refused requests per second by rule, latency percentiles
  -h, --help           this text

A bare file name given to --json or --report (no directory part) is written under ${REPORTS_DIR}/;
a path with a directory (./report.html, out/report.html) is used as given. The paths written are printed.

Environment: KEY overrides the plan's fixture key secret.
Exit status: 0 exact (100% accuracy, no over-admission), 1 not exact, 2 bad arguments.
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${usage}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      duration: { type: 'string' },
      rate: { type: 'string' },
      connections: { type: 'string' },
      target: { type: 'string' },
      json: { type: 'string' },
      report: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  const flags = ['--duration', '--rate', '--connections', '--target', '--json', '--report', '--help'];
  fail(describeArgumentError(error as Error & { code?: string }, flags, 'Usage below.'));
}
const { values, positionals } = parsed;
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
const name = positionals[0];
if (positionals.length !== 1 || name === undefined) fail('Name one plan.');
if (name !== 'all' && !(PLAN_NAMES as readonly string[]).includes(name)) fail(`Unknown plan "${name}".`);
const number = (flag: string, raw: string | undefined, min: number): number | undefined => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) fail(`--${flag} must be a number ≥ ${min}, got "${raw}".`);
  return n;
};
const overrides = {
  duration: number('duration', values.duration, 1),
  rate: number('rate', values.rate, 0),
  connections: number('connections', values.connections, 1),
};
const plans = name === 'all' ? [...PLAN_NAMES] : [name as PlanName];
const tty = process.stderr.isTTY;
const progress = (line: string): void => {
  if (tty) process.stderr.write(`\r${line}\x1b[K`);
};

let failed = false;
const reports = [];
for (const plan of plans) {
  let server: Server | undefined;
  try {
    const url = values.target ?? (server = await startServer()).url;
    process.stderr.write(`[${plan}] ${values.target ? 'target' : 'started a simulator at'} ${url}\n`);
    const report = await runPlan(plan, url, overrides, progress);
    if (tty) process.stderr.write('\r\x1b[K');
    process.stdout.write(`${reportLines(report).join('\n')}\n\n`);
    failed ||= report.problems.length > 0;
    reports.push(report);
  } finally {
    await server?.stop();
  }
}
const write = (file: string, text: string): void => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};
const file = reportPath(values.json ?? `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
write(file, `${JSON.stringify(plans.length === 1 ? reports[0] : reports, null, 2)}\n`);
process.stdout.write(`report written to ${file}\n`);
if (values.report !== undefined) {
  const html = reportPath(values.report);
  write(html, renderHtmlReport(reports));
  process.stdout.write(`HTML report written to ${html}\n`);
}
process.exit(failed ? 1 : 0);
