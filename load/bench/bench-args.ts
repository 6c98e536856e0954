/**
 * The flags of `npm run bench`: parsed and checked before anything is started, so a bad flag
 * or a report path that cannot be written fails at once, not after minutes of measuring.
 */
import { parseArgs } from 'node:util';
import { describeArgumentError } from '../../src/cli/args.js';
import { describeReportPathProblem, REPORTS_DIR, reportPath } from '../report-path.js';

/** The text of `npm run bench -- --help`, also printed under a usage error. */
export const BENCH_USAGE = `Usage: npm run bench -- [options]

Measures the simulator against a bare node:http server in the same run (docs/benchmarks.md)
and prints its tables; not a test, it asserts nothing.

Options:
  --duration <s>      seconds of load per HTTP row, after 1 s of warm-up (default 5)
  --connections <n>   autocannon connections (default 32)
  --only stores       measure only the store table: the quota-key work on the memory store,
                      then on Redis (1 process, --workers 2, and both again with Redis on
                      CPU 0 and the simulator on CPU 1), with round trips per request
  --report <file>     also write a self-contained HTML report (uPlot inlined, nothing loaded
                      from the network): every table of the run, and charts of a parameter's
                      cost against its range in days, first requests against warm ones, and the
                      stores side by side. A bare file name goes under ${REPORTS_DIR}/; a path with
                      a directory (./bench.html, /tmp/bench.html) is used as given
  -h, --help          this text

Exit status: 0 when the run was measured, 2 on bad arguments.
`;

/** What the flags ask for. */
export type BenchArgs =
  | { readonly help: true }
  | {
      readonly help: false;
      readonly duration: number;
      readonly connections: number;
      /** Where to write the HTML report (as {@link reportPath} places it), or undefined. */
      readonly report: string | undefined;
      /** Only this part of the bench (`stores`: the store table), or undefined for all of it. */
      readonly only: 'stores' | undefined;
    };

const FLAGS = ['--duration', '--connections', '--only', '--report', '--help'];

/**
 * The bench's flags from `argv` (without node and the script). Throws an Error whose message
 * names the bad flag and what to give instead.
 */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        duration: { type: 'string', default: '5' },
        connections: { type: 'string', default: '32' },
        report: { type: 'string' },
        only: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new Error(describeArgumentError(error as Error & { code?: string }, FLAGS, 'Usage below.'));
  }
  if (values.help) return { help: true };
  const whole = (flag: string, raw: string): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${flag} must be a whole number ≥ 1, got "${raw}".`);
    return n;
  };
  const duration = whole('duration', values.duration);
  const connections = whole('connections', values.connections);
  if (values.only !== undefined && values.only !== 'stores') throw new Error(`--only takes stores, got "${values.only}".`);
  if (values.report === '') throw new Error('--report needs a file name, such as bench.html.');
  const problem = values.report === undefined ? undefined : describeReportPathProblem('--report', values.report);
  if (problem) throw new Error(problem);
  return { help: false, duration, connections, report: values.report === undefined ? undefined : reportPath(values.report), only: values.only === 'stores' ? 'stores' : undefined };
}
