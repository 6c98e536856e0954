/**
 * `npm run faults [-- --short] [--only ID,…] [--duration s] [--markdown FILE]`
 *
 * The fault table: each row starts a fresh redis-server (Debian's) on free loopback ports,
 * `serve --workers 2 --store …` on it, drives the ingest-burst plan with the load runner and
 * injects one fault mid-run (load/faults/fault-rows.ts); then prints what clients got, the time
 * to recover, the oracle's accuracy, the acknowledged records and journal entries lost.
 * Exit status 1 when a row fails (a 500, a request without an answer, an acknowledged record
 * lost while Redis kept its data, no recovery within 5 s), 2 on bad arguments.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { describeArgumentError } from '../src/cli/args.js';
import { FAULT_ROWS } from './faults/fault-rows.js';
import { formatMarkdown, formatTable, verdictOf } from './faults/fault-table.js';
import { measureRow, type RowLoad, type RowResult } from './faults/measure-row.js';
import { usageExit } from './usage-exit.js';

const usage = `Usage: npm run faults [-- options]

Rows (one fault each, in a fresh Redis and simulator):
${FAULT_ROWS.map((r) => `  ${r.id.padEnd(18)} ${r.name}${r.short ? ' (in --short)' : ''}`).join('\n')}

Options:
  --short            the rows marked (in --short), with 8 s of load each (CI)
  --only <ids>       these rows only (comma-separated ids)
  --duration <s>     seconds of load per row (default 12; the fault starts at a quarter)
  --markdown <file>  also write the table as markdown
  -h, --help         this text

Needs redis-server (Debian: apt-get install redis-server) and a built dist/ (npm run faults builds it).
What each row means: docs/reliability.md.
Exit status: 0 every row passes, 1 a row fails, 2 bad arguments.
`;

const fail: (message: string) => never = usageExit(usage);

let parsed;
try {
  parsed = parseArgs({
    options: {
      short: { type: 'boolean' },
      only: { type: 'string' },
      duration: { type: 'string' },
      markdown: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  fail(describeArgumentError(error as Error & { code?: string }, ['--short', '--only', '--duration', '--markdown', '--help'], 'Usage below.'));
}
const { values } = parsed;
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
const only = values.only?.split(',').map((id) => id.trim());
for (const id of only ?? []) if (!FAULT_ROWS.some((r) => r.id === id)) fail(`Unknown row "${id}": --only takes ${FAULT_ROWS.map((r) => r.id).join(', ')}.`);
const rows = FAULT_ROWS.filter((r) => (only ? only.includes(r.id) : !values.short || r.short));
const duration = values.duration === undefined ? (values.short ? 8 : 12) : Number(values.duration);
if (!Number.isFinite(duration) || duration < 6) fail(`--duration must be a number ≥ 6, got "${values.duration}".`);
const load: RowLoad = { duration, faultAt: Math.round(duration / 4), rate: 60, connections: 8 };

const tty = process.stderr.isTTY;
const results: RowResult[] = [];
for (const row of rows) {
  process.stderr.write(`[${row.id}] ${row.name}: ${load.duration} s of POST /track at ${load.rate}/s, the fault at ${load.faultAt} s\n`);
  const result = await measureRow(row, load, (line) => {
    if (tty) process.stderr.write(`\r${line}\x1b[K`);
  });
  if (tty) process.stderr.write('\r\x1b[K');
  process.stderr.write(`[${row.id}] ${result.injected?.detail ?? 'no fault injected'}; health after: ${result.health}\n`);
  results.push(result);
}
process.stdout.write(`\n${formatTable(results).join('\n')}\n\n`);
// One verdict line per row (CI counts them as tests).
for (const result of results) {
  const problems = verdictOf(result);
  process.stdout.write(`fault ${result.row.id}: ${problems.length === 0 ? 'PASS' : `FAIL (${problems.join('; ')})`}\n`);
}
if (values.markdown !== undefined) {
  mkdirSync(dirname(values.markdown), { recursive: true });
  writeFileSync(values.markdown, `${formatMarkdown(results)}\n`);
  process.stdout.write(`markdown written to ${values.markdown}\n`);
}
process.exit(results.some((r) => verdictOf(r).length > 0) ? 1 : 0);
