/**
 * `npm run load:k6 -- --plan NAME | --all [--short] [--duration S] [--segments N] [--target URL] [--json FILE]`
 *
 * Runs load plans with real k6 (built by `npm run k6:install`): starts a simulator per plan
 * (`serve --port 0 --clock real`) unless --target names a running one, resets it, runs
 * `load/k6/PLAN.js` (as N execution segments at once with --segments), and prints one table of
 * k6's summary, the journal and the oracle (load/k6-runner.ts). Writes the reports as JSON
 * (default `.load-reports/k6-<plan|all>-<time>.json`) and k6's web-dashboard HTML export of each
 * plan beside it. Exit status 1 when a plan fails (over-admission, wrong refusal, disagreement,
 * crossed k6 threshold) or cannot run; 2 on bad arguments.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { describeArgumentError } from '../src/cli/args.js';
import { k6ReportLines, k6Version, runK6Plan, SHORT_SECONDS, type K6Report } from './k6-runner.js';
import { reportPath } from './report-path.js';
import { PLAN_NAMES, startServer, type PlanName, type Server } from './runner.js';
import { usageExit } from './usage-exit.js';

const usage = `Usage: npm run load:k6 -- (--plan NAME | --all) [options]

Plans: ${PLAN_NAMES.join(', ')}

Options:
  --plan <name>        one plan
  --all                every plan in turn, each against a fresh simulator (or the target, reset)
  --short              the short form of each plan (CI): ${PLAN_NAMES.map((p) => `${p} ${SHORT_SECONDS[p]} s`).join(', ')}
  --duration <s>       seconds of load in the plan's short shape (default: the script's long shape)
  --segments <n>       run the plan as n k6 processes at once, one execution segment each, and
                       merge their summaries with the journal (default 1)
  --target <url>       an already running simulator (real clock); default: start one per plan
  --json <file>        where to write the JSON report (default .load-reports/k6-<plan>-<time>.json);
                       k6's web-dashboard HTML export of each plan is written beside it
  -h, --help           this text

Build k6 first: npm run k6:install (Go needed; .tools/bin/k6, git-ignored).
Exit status: 0 every plan passed, 1 a plan failed or could not run, 2 bad arguments.
`;

const fail: (message: string) => never = usageExit(usage);

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: false,
    options: {
      plan: { type: 'string' },
      all: { type: 'boolean' },
      short: { type: 'boolean' },
      duration: { type: 'string' },
      segments: { type: 'string' },
      target: { type: 'string' },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  fail(describeArgumentError(error as Error & { code?: string }, ['--plan', '--all', '--short', '--duration', '--segments', '--target', '--json', '--help'], 'Usage below.'));
}
const { values } = parsed;
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
if (values.all === (values.plan !== undefined)) fail('Give --plan NAME or --all.');
if (values.plan !== undefined && !(PLAN_NAMES as readonly string[]).includes(values.plan)) fail(`Unknown plan "${values.plan}": one of ${PLAN_NAMES.join(', ')}.`);
const whole = (flag: string, raw: string | undefined, min: number): number | undefined => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) fail(`--${flag} must be a whole number ≥ ${min}, got "${raw}".`);
  return n;
};
const duration = whole('duration', values.duration, 1);
if (duration !== undefined && values.short) fail('Give --short or --duration, not both.');
const segments = whole('segments', values.segments, 1) ?? 1;
const target = values.target?.replace(/\/+$/, '');
if (target !== undefined && !/^https?:\/\/[^/\s]+$/.test(target)) fail(`--target must be a URL such as http://127.0.0.1:8787, got "${values.target}".`);
const plans: PlanName[] = values.all ? [...PLAN_NAMES] : [values.plan as PlanName];

let version: string;
try {
  version = await k6Version();
} catch (error) {
  process.stderr.write(`load:k6: ${(error as Error).message}\n`);
  process.exit(1);
}
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const json = reportPath(values.json ?? `k6-${values.all ? 'all' : plans[0]}-${stamp}.json`);
const began = performance.now();
process.stderr.write(`k6 ${version}: ${plans.length} plan(s)${values.short ? ', short form' : ''}${segments > 1 ? `, ${segments} segments each` : ''}\n`);

const reports: K6Report[] = [];
let failed = false;
for (const plan of plans) {
  let server: Server | undefined;
  try {
    if (target === undefined) {
      try {
        server = await startServer();
      } catch (error) {
        throw new Error(`could not start the simulator (run \`npm run build\`?): ${(error as Error).message.trim().split('\n')[0]}`);
      }
    }
    const url = target ?? (server as Server).url;
    process.stderr.write(`[${plan}] k6 run load/k6/${plan}.js against ${url}\n`);
    const report = await runK6Plan(plan, url, {
      ...(values.short ? { duration: SHORT_SECONDS[plan] } : duration !== undefined ? { duration } : {}),
      segments,
      dashboard: json.replace(/\.json$/, '') + (plans.length > 1 ? `-${plan}` : '') + '.html',
    });
    process.stdout.write(`${k6ReportLines(report).join('\n')}\n\n`);
    failed ||= report.problems.length > 0;
    reports.push(report);
  } catch (error) {
    process.stderr.write(`[${plan}] the run stopped: ${(error as Error).message}\n`);
    process.exitCode = 1;
    failed = true;
    break;
  } finally {
    await server?.stop();
  }
}
mkdirSync(dirname(json), { recursive: true });
writeFileSync(json, `${JSON.stringify(plans.length === 1 ? reports[0] : reports, null, 2)}\n`);
process.stdout.write(`report written to ${json} (${reports.length} plan(s) in ${((performance.now() - began) / 1000).toFixed(1)} s)\n`);
process.exit(failed ? 1 : 0);
