/**
 * `npm run load -- PLAN [--duration s] [--rate n] [--connections n] [--target URL …] [--store URL]
 * [--store-prefix NAME] [--workers n] [--instances n] [--json FILE] [--report FILE]`
 *
 * Runs a load plan (the Node twin of load/k6/PLAN.js) against a simulator: its own
 * `node dist/cli/main.js serve --port 0 --clock real` process (or `--instances` of them,
 * each with `--workers`, sharing `--store`) unless --target is given; several targets share
 * the plan's connections and rate (load/runner.ts `spreadLoad`), and the journal is judged
 * once, from the first. Prints
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
import { describeReportPathProblem, REPORTS_DIR, reportPath } from './report-path.js';
import {
  describeSimulatorProblem,
  PLAN_NAMES,
  planOptions,
  PLANS,
  reportLines,
  runPlan,
  spreadLoad,
  startSimulators,
  type PlanName,
  type Server,
  type SimulatorOptions,
} from './runner.js';
import { usageExit } from './usage-exit.js';

const usage = `Usage: npm run load -- PLAN [options]

Plans:
${PLAN_NAMES.map((p) => `  ${p.padEnd(15)} ${PLANS[p].description} (default ${PLANS[p].defaults.duration} s, ${PLANS[p].defaults.rate || 'closed-loop'} req/s, ${PLANS[p].defaults.connections} connections)`).join('\n')}
  all             every plan in turn, each against fresh simulators (or the targets, reset)

Options:
  --duration <s>       seconds of load (plan default)
  --rate <n>           requests per second offered in all; 0 = as fast as the connections go
  --connections <n>    connections (autocannon) or clients (outage); at least one per target
  --target <url>       an already running simulator; repeatable or comma-separated: the plan's
                       connections and rate are spread over the targets (connection i to target
                       i mod n). Before each plan the first target is reset (POST /__sim/reset)
                       and after it its journal is judged: give targets that share one store
                       (serve --store redis://…), whose journal holds every process's decisions.
                       Default: start a simulator
  --store <url>        the store of the simulators the runner starts (memory or redis://HOST:PORT[/DB])
  --store-prefix <s>   their --store-prefix (needs --store redis://…)
  --workers <n>        start each simulator with serve --workers n (node:cluster; needs --store redis://…)
  --instances <n>      start n separate simulators on their own ports sharing --store (needs
                       --store redis://… when n > 1) and spread the load over them
  --json <file>        where to write the JSON report (default ${REPORTS_DIR}/<plan>-<time>.json)
  --report <file>      also write a self-contained HTML report: the accuracy table, admitted and
                       refused requests per second by rule, latency percentiles
  -h, --help           this text

A bare file name given to --json or --report (no directory part) is written under ${REPORTS_DIR}/;
a path with a directory (./report.html, out/report.html) is used as given. The paths written are printed.

Environment: KEY overrides the plan's fixture key secret.
Exit status: 0 exact (100% accuracy, no over-admission), 1 not exact, 2 bad arguments.
`;

const fail: (message: string) => never = usageExit(usage);

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      duration: { type: 'string' },
      rate: { type: 'string' },
      connections: { type: 'string' },
      target: { type: 'string', multiple: true },
      store: { type: 'string' },
      'store-prefix': { type: 'string' },
      workers: { type: 'string' },
      instances: { type: 'string' },
      json: { type: 'string' },
      report: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  const flags = ['--duration', '--rate', '--connections', '--target', '--store', '--store-prefix', '--workers', '--instances', '--json', '--report', '--help'];
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
const targets = (values.target ?? []).flatMap((t) => t.split(',')).map((t) => t.trim().replace(/\/+$/, ''));
for (const t of targets) if (!/^https?:\/\/[^/\s]+$/.test(t)) fail(`--target must be a URL such as http://127.0.0.1:8787, got "${t}".`);
const simulators: SimulatorOptions = {
  ...(values.store !== undefined ? { store: values.store } : {}),
  ...(values['store-prefix'] !== undefined ? { storePrefix: values['store-prefix'] } : {}),
  workers: number('workers', values.workers, 1) ?? 1,
  instances: number('instances', values.instances, 1) ?? 1,
};
const starting = ['store', 'store-prefix', 'workers', 'instances'].filter((flag) => values[flag as keyof typeof values] !== undefined);
if (targets.length > 0 && starting.length > 0) {
  fail(`--target names simulators already running; ${starting.map((f) => `--${f}`).join(', ')} only apply to the ones the runner starts: give one or the other.`);
}
const problem = describeSimulatorProblem(simulators);
if (problem) fail(problem);
for (const [flag, file] of [['--json', values.json], ['--report', values.report]] as const) {
  const pathProblem = file === undefined ? undefined : describeReportPathProblem(flag, file);
  if (pathProblem) fail(pathProblem);
}
const count = targets.length || simulators.instances || 1;
for (const plan of plans) {
  const options = planOptions(plan, overrides, count);
  try {
    spreadLoad(options, count);
  } catch (error) {
    fail(`${plan}: ${(error as Error).message}.`);
  }
}
const tty = process.stderr.isTTY;
const progress = (line: string): void => {
  if (tty) process.stderr.write(`\r${line}\x1b[K`);
};

let failed = false;
let aborted = false;
const reports = [];
for (const plan of plans) {
  let servers: Server[] = [];
  try {
    if (targets.length === 0) {
      try {
        servers = await startSimulators(simulators);
      } catch (error) {
        process.stderr.write(`[${plan}] could not start the simulator: ${(error as Error).message.trim()}\n`);
        process.exit(1);
      }
    }
    const urls = targets.length > 0 ? targets : servers.map((s) => s.url);
    const workers = simulators.workers && simulators.workers > 1 ? ` (${simulators.workers} workers each)` : '';
    process.stderr.write(`[${plan}] ${targets.length > 0 ? 'target' : `started ${urls.length === 1 ? 'a simulator' : `${urls.length} simulators`}${workers} at`} ${urls.join(', ')}\n`);
    const report = await runPlan(plan, urls, overrides, progress);
    if (tty) process.stderr.write('\r\x1b[K');
    process.stdout.write(`${reportLines(report).join('\n')}\n\n`);
    failed ||= report.problems.length > 0;
    reports.push(report);
  } catch (error) {
    // A target that does not answer as a simulator: say so, without a stack trace.
    if (tty) process.stderr.write('\r\x1b[K');
    process.stderr.write(`[${plan}] the run stopped: ${(error as Error).message}\n`);
    aborted = true;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  if (aborted) process.exit(1);
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
