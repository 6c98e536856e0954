#!/usr/bin/env node
/**
 * `npm run schemathesis`: checks that the served OpenAPI document is true to every answer.
 *
 * Installs Schemathesis (PyPI, pinned to SCHEMATHESIS_VERSION) into a virtual environment under
 * `.tools/schemathesis` (git-ignored) unless it is already there, then runs it with every check
 * (`--checks all`, settings in `schemathesis.toml`) against fresh simulators started from
 * `dist/cli/main.js`, one per part:
 *
 * - **strict**: every operation outside `/__sim`, authenticated with the seeded all-scopes key,
 *   on a `--strict` simulator, which refuses what the service would ignore: there the document's
 *   enums, bounds and closed objects are the whole contract;
 * - **lenient**: the same operations on a default simulator, which answers what the live service
 *   ignores with 200 and a `Warning` header (as the README says), so every check but
 *   `negative_data_rejection`;
 * - **control**: the `/__sim` control plane, strict, on its own simulator, because fuzzing it
 *   resets the world (new keys), moves the clock and starts scenarios, which would change what a
 *   public run sees under it.
 *
 * The parts run side by side, one per CPU, each printed whole when it ends. Its last line is
 * `schemathesis: N passed, N failed`, the test cases of every part added up.
 *
 * Exit status: 0 when both runs pass, 1 when a check fails, 2 with a one-line message when the
 * tool cannot run (no Python, the install failed, the simulator did not start).
 *
 * Options: `--part strict|lenient|control|all` (default all), `--max-examples N` (per operation, default
 * 25), `--seed N` (default 1), `--max-time S` (per part, optional).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { availableParallelism } from 'node:os';

/** The pinned Schemathesis release. */
export const SCHEMATHESIS_VERSION = '4.32.5';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const VENV = join(ROOT, '.tools', 'schemathesis');
const BIN = join(VENV, 'bin', 'schemathesis');
const CONFIG = join(ROOT, 'schemathesis.toml');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');

/** Stops with a one-line message and exit status 2. */
function fail(message) {
  console.error(`schemathesis: ${message}`);
  process.exit(2);
}

/** The version the venv's schemathesis prints, or undefined. */
function installedVersion() {
  if (!existsSync(BIN)) return undefined;
  const out = spawnSync(BIN, ['--version'], { encoding: 'utf8' });
  return out.status === 0 ? /version (\S+)/.exec(out.stdout)?.[1] : undefined;
}

/** Installs the pinned Schemathesis into `.tools/schemathesis` unless it is there. */
function install() {
  if (installedVersion() === SCHEMATHESIS_VERSION) return;
  const python = ['python3', 'python'].find((p) => spawnSync(p, ['--version']).status === 0);
  if (python === undefined) fail('Schemathesis is a Python tool and no python3 is on PATH: install Python 3.10 or newer (apt-get install python3 python3-venv) and run again.');
  mkdirSync(dirname(VENV), { recursive: true });
  console.log(`installing schemathesis ${SCHEMATHESIS_VERSION} into .tools/schemathesis (PyPI)`);
  const venv = spawnSync(python, ['-m', 'venv', VENV], { stdio: 'inherit' });
  if (venv.status !== 0) fail(`\`${python} -m venv\` failed: install the venv module (apt-get install python3-venv) and run again.`);
  const pip = spawnSync(join(VENV, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`], { stdio: 'inherit' });
  if (pip.status !== 0 || installedVersion() !== SCHEMATHESIS_VERSION) fail(`pip could not install schemathesis==${SCHEMATHESIS_VERSION}: check that PyPI is reachable and run again.`);
}

/** Starts `analytics-sim serve --port 0` and resolves with its base URL and a stop function. */
function startSimulator(strict) {
  if (!existsSync(CLI)) fail('dist/cli/main.js is missing: run `npm run build` first (npm run schemathesis does).');
  const flags = ['serve', '--port', '0', '--now', '2025-06-02T12:00:00Z', ...(strict ? ['--strict'] : [])];
  const child = spawn(process.execPath, [CLI, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolveStart, rejectStart) => {
    let out = '';
    const timer = setTimeout(() => rejectStart(new Error(`the simulator did not start within 20 s: ${out.slice(0, 300)}`)), 20_000);
    const onData = (chunk) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolveStart({ url, stop: () => child.kill('SIGTERM') });
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => rejectStart(new Error(`the simulator exited (${code}) before listening: ${out.slice(0, 300)}`)));
  });
}

/** The secret of a seeded key, read from the simulator's fixtures. */
async function secretOf(url, keyId) {
  const fixtures = await (await fetch(`${url}/__sim/fixtures`)).json();
  const key = fixtures.apiKeys.find((k) => k.id === keyId);
  if (key === undefined) fail(`the fixtures have no key ${keyId}`);
  return key.secret;
}

/**
 * Runs one part and resolves with schemathesis's exit status and its test cases passed and
 * failed. Every line the part prints goes to `write` (stdout and stderr, in arrival order).
 */
async function runPart(part, options, write) {
  const { url, stop } = await startSimulator(part !== 'lenient').catch((error) => fail(error.message));
  try {
    const args = ['--config-file', CONFIG, 'run', `${url}/openapi.json`, '--checks', 'all', '--seed', String(options.seed), '--max-examples', String(options.maxExamples), '--workers', '1', '--generation-database', 'none', '--no-color'];
    if (options.maxTime !== undefined) args.push('--max-time', String(options.maxTime));
    if (part === 'control') {
      args.push('--include-path-regex', '^/__sim');
    } else {
      args.push('--exclude-path-regex', '^/__sim', '-H', `x-api-key: ${await secretOf(url, 'key_acme_all')}`);
      if (part === 'lenient') args.push('--exclude-checks', 'negative_data_rejection');
    }
    write(`\n=== schemathesis ${SCHEMATHESIS_VERSION}, ${part}, against ${url} (seed ${options.seed}, ${options.maxExamples} examples per operation)`);
    const child = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
    createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', write);
    const counts = { passed: 0, failed: 0 };
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      // "  1862 generated, 1862 passed, 3 skipped": this part's test cases.
      // or, with failures, "  5114 generated, 2 found 2 unique failures, 156 skipped".
      if (/^\s*\d+ generated\b/.test(line)) {
        const generated = Number(/(\d+) generated/.exec(line)?.[1] ?? 0);
        const skipped = Number(/(\d+) skipped/.exec(line)?.[1] ?? 0);
        counts.failed = Number(/(\d+) failed/.exec(line)?.[1] ?? /(\d+) found \d+ unique failures?/.exec(line)?.[1] ?? 0);
        counts.passed = Number(/(\d+) passed/.exec(line)?.[1] ?? Math.max(0, generated - skipped - counts.failed));
      }
      // Schemathesis closes like pytest ("==== 2 warnings in 10.05s ===="), which a reader of
      // pytest's closing line takes for a run of no test: the same words, without the rules.
      const closing = /^=+ (.* in [\d.]+s) =+$/.exec(line);
      write(closing === null ? line : `schemathesis ${part} closing: ${closing[1]}`);
    });
    const code = await new Promise((resolveRun) => child.on('close', (exitCode) => resolveRun(exitCode ?? 1)));
    if (code !== 0 && counts.failed === 0) counts.failed = 1;
    return { code, ...counts };
  } finally {
    stop();
  }
}

const { values } = parseArgs({
  options: {
    part: { type: 'string', default: 'all' },
    'max-examples': { type: 'string', default: '25' },
    seed: { type: 'string', default: '1' },
    'max-time': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log('usage: npm run schemathesis -- [--part strict|lenient|control|all] [--max-examples N] [--seed N] [--max-time S]');
  process.exit(0);
}
if (!['strict', 'lenient', 'control', 'all'].includes(values.part)) fail(`--part takes strict, lenient, control or all, not ${values.part}`);
const options = { seed: Number(values.seed), maxExamples: Number(values['max-examples']), maxTime: values['max-time'] };
if (!Number.isInteger(options.seed) || !Number.isInteger(options.maxExamples) || options.maxExamples < 1) fail('--seed and --max-examples take whole numbers');

install();
const parts = values.part === 'all' ? ['strict', 'lenient', 'control'] : [values.part];
// Each part has its own simulator and seed, so the parts run side by side, one per CPU: the
// same test cases, in about half the time on two CPUs. A part's lines are printed whole, in the
// parts' order, as soon as it and the parts before it have ended.
const lanes = Math.max(1, Math.min(parts.length, availableParallelism()));
if (parts.length > 1) console.log(`schemathesis: ${parts.length} parts, ${lanes} at a time; each part's output follows when it ends`);
const logs = parts.map(() => []);
const runs = new Array(parts.length);
let printed = 0;
const flush = () => {
  while (printed < parts.length && runs[printed] !== undefined) {
    for (const line of logs[printed]) console.log(line);
    printed++;
  }
};
let next = 0;
await Promise.all(
  Array.from({ length: lanes }, async () => {
    while (next < parts.length) {
      const i = next++;
      runs[i] = await runPart(parts[i], options, parts.length > 1 ? (line) => logs[i].push(line) : (line) => console.log(line));
      flush();
    }
  }),
);
let status = 0;
let passed = 0;
let failed = 0;
for (const run of runs) {
  status = Math.max(status, run.code);
  passed += run.passed;
  failed += run.failed;
}
console.log(status === 0 ? '\nschemathesis: every check passed' : '\nschemathesis: checks failed (see above)');
console.log(`schemathesis: ${passed} passed, ${failed} failed`);
process.exit(status === 0 ? 0 : 1);
