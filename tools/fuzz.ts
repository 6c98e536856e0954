/**
 * `npm run fuzz -- [--runs N] [--seed S] [--target URL]`: property-based hostile requests over
 * every route of the tables (test/fuzz/hostile-requests.ts), in process by default or against a
 * running server. Prints what it counted; exits 1 on any 5xx, non-JSON error answer, leaked
 * fixture secret, exception out of the handler or prototype pollution.
 */
import { parseArgs } from 'node:util';
import { FAILURE_KINDS, formatReport, inProcessTarget, runFuzz, serverTarget } from '../test/fuzz/fuzz-run.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '1' },
    target: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  process.stdout.write('usage: npm run fuzz -- [--runs N] [--seed S] [--target http://127.0.0.1:8787]\n');
  process.exit(0);
}

const runs = Number(values.runs);
const seed = Number(values.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  process.stderr.write('--runs must be a positive integer and --seed an integer\n');
  process.exit(2);
}

const report = await runFuzz({ runs, seed, target: values.target ? serverTarget(values.target) : inProcessTarget() });
process.stdout.write(`${formatReport(report)}\n`);
process.exit(FAILURE_KINDS.some((kind) => report[kind].count > 0) ? 1 : 0);
