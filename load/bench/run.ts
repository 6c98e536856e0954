/**
 * `npm run bench`: measures the simulator server against a bare node:http server in the same
 * run, with autocannon. Prints requests/s, latency p50/p99, the ratio to the bare server,
 * the server's CPU time per answer (Linux: steadier than req/s on a shared machine), start-up
 * time, what importing the library adds to a bare node, first-request latency and RSS; and the throughput of a quota-enabled key
 * (key_acme_quota_default, limits on, real clock) with the oracle's accuracy of that run's
 * journal; and a batch of five types of the catalogue's newer families (errors, vitals, revenue,
 * session lists, engagement); and a fresh simulator's first 30-day query, the first of its seed in
 * the process and the second (load/bench/fresh-simulators.ts). The quota-key work is then measured again on the Redis store,
 * one process and `--workers 2`, unpinned and with Redis on a core of its own, with the round
 * trips a request cost (load/bench/store-rows.ts; the bench starts its own redis-server, and
 * says why when those rows are skipped; `--only stores` measures that table alone). On Linux with taskset, autocannon runs
 * on the first CPU the process may use and each server on the second, as the hot path is measured. Not a test: it asserts nothing.
 *
 * Everything printed is collected into one plain structure (bench-results.ts), from which the
 * console table (bench-text.ts) and, with `--report FILE`, a self-contained HTML report with
 * charts (bench-report.ts) are rendered; the measurements that run in processes of their own
 * send their sections over IPC (section-channel.ts), among them a parameter's cost against its
 * range in days (range-costs.ts) and all-time ranges on the largest website with the longest
 * event-loop hold and a 365-day dashboard (long-ranges.ts).
 *
 *   npm run bench -- [--duration 5] [--connections 32] [--only stores] [--report FILE]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import autocannon from 'autocannon';
import { usageExit } from '../usage-exit.js';
import { measureAdmissionWork, MEASURED_REQUESTS, WARM_UP_REQUESTS } from './admission-work.js';
import { BENCH_USAGE, parseBenchArgs, type BenchArgs } from './bench-args.js';
import { renderBenchReport } from './bench-report.js';
import { addSection, RATE_COLUMNS, type BenchChartSpec, type BenchResults, type BenchSection } from './bench-results.js';
import { renderBenchText } from './bench-text.js';
import { firstVsWarmRow, firstVsWarmTable } from './first-vs-warm.js';
import { findLargestWebsite, type BenchFixtures } from './largest-website.js';
import { runMeasurement } from './section-channel.js';
import { processCpuUs, residentMb } from '../process-usage.js';
import { allowedCpus, cpusOf, pinProcess } from './cpu-pinning.js';
import { measureStoreRows, measureStoreTable, storeTable, storeTableTitle } from './store-rows.js';

const args = ((): BenchArgs => {
  try {
    return parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    return usageExit(BENCH_USAGE)((error as Error).message);
  }
})();
if (args.help) {
  process.stdout.write(BENCH_USAGE);
  process.exit(0);
}
const { duration, connections, report } = args;
/** What the bench is measuring now, on stderr: the results are printed at the end. */
const progress = (what: string): void => {
  process.stderr.write(`bench: ${what}\n`);
};
const STORES_CHART: BenchChartSpec = { kind: 'bars', id: 'stores-chart', title: 'The stores side by side', table: 'stores', columns: ['rps'], yLabel: 'requests / s' };
if (args.only === 'stores') {
  progress('the quota-key work on the memory store, then on the Redis store');
  const results: BenchResults = { title: `analytics-sim benchmark, the store table only: ${connections} connections`, sections: [await measureStoreTable(connections)], charts: [STORES_CHART] };
  process.stdout.write(renderBenchText(results));
  if (report !== undefined) {
    mkdirSync(dirname(report), { recursive: true });
    writeFileSync(report, renderBenchReport(results));
    process.stdout.write(`\nHTML report written to ${report}\n`);
  }
  process.exit(0);
}

interface Started {
  child: ChildProcess;
  url: string;
  startupMs: number;
}

/**
 * Pins the load generator (this process, autocannon runs in it) to the first CPU it may use
 * (CPU 0 on most machines) and returns the command prefix that runs a server on the second, as
 * the hot path is measured (one core each), on
 * Linux with `taskset` and two CPUs or more; otherwise nothing is pinned and the prefix is
 * empty. Unpinned, the scheduler may put the generator and the server on one core for part of
 * a row, which moves a row by half between runs.
 */
function pinCpus(): { readonly prefix: readonly string[]; readonly note: string; unpin(): void } {
  const none = { prefix: [], unpin: () => undefined };
  const allowed = allowedCpus(process.pid);
  if ('problem' in allowed) return { ...none, note: `not pinned (${allowed.problem})` };
  const [load, server] = cpusOf(allowed.list);
  if (server === undefined) return { ...none, note: 'not pinned (needs two CPUs)' };
  try {
    pinProcess(process.pid, String(load));
  } catch {
    return { ...none, note: 'not pinned (taskset failed)' };
  }
  return {
    prefix: ['taskset', '-c', String(server)],
    note: `autocannon on CPU ${load}, each server on CPU ${server}`,
    // The store rows' processes (redis-server, the workers) inherit this process's CPUs: all it had.
    unpin: () => pinProcess(process.pid, allowed.list),
  };
}

const pinned = pinCpus();

function start(command: string, args: string[]): Promise<Started> {
  const began = performance.now();
  const [runner, ...runnerArgs] = [...pinned.prefix, command, ...args] as [string, ...string[]];
  const child = spawn(runner, runnerArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve({ child, url: match[1], startupMs: performance.now() - began });
    });
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}`)));
  });
}

/**
 * What `import 'analytics-sim'` (dist/index.js) adds to a bare node: the median wall time of
 * `node -e "import('./dist/index.js')"` minus that of `node -e 0`, each run `runs` times in
 * turn, on the servers' CPU.
 */
function importCostMs(runs = 11): { readonly importMs: number; readonly bareMs: number } {
  const wall = (args: string[]): number => {
    const [runner, ...runnerArgs] = [...pinned.prefix, process.execPath, ...args] as [string, ...string[]];
    const began = performance.now();
    execFileSync(runner, runnerArgs, { stdio: 'ignore' });
    return performance.now() - began;
  };
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const bare: number[] = [];
  const imported: number[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push(wall(['-e', '0']));
    imported.push(wall(['-e', "import('./dist/index.js')"]));
  }
  return { importMs: median(imported) - median(bare), bareMs: median(bare) };
}

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /**
   * Server CPU time per answer in µs (Linux), over the measured run: steadier than req/s on a
   * shared machine, where the load generator and neighbours move the rate from run to run.
   */
  cpuUs?: number;
}

/**
 * One row: a 1 s warm-up (not counted), then `duration` seconds of load; or, given `amount`,
 * exactly that many requests with no warm-up (a cold first pass).
 */
async function measure(name: string, options: autocannon.Options, server?: Started, amount?: number): Promise<Measured> {
  if (amount === undefined) await autocannon({ duration: 1, connections, ...options }); // warm-up, not counted
  const before = processCpuUs(server?.child.pid);
  const result = await autocannon({ connections, ...options, ...(amount === undefined ? { duration } : { amount }) });
  const after = processCpuUs(server?.child.pid);
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    ...(before !== undefined && after !== undefined && result.requests.total > 0 ? { cpuUs: (after - before) / result.requests.total } : {}),
  };
}

/** Keys the many-keys row rotates over. */
const MANY_KEYS = 8_000;

/** Creates `count` read keys with the default quota (300 per 60 s) on a simulator; their secrets. */
async function createKeys(url: string, count: number): Promise<string[]> {
  const secrets: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/__sim/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `bench ${i}`, organizationId: 'org_acme', userId: 'user_alice', scopes: ['read:data'], quota: { enabled: true } }),
    });
    if (!res.ok) throw new Error(`POST /__sim/keys answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    secrets.push(((await res.json()) as { secret: string }).secret);
  }
  return secrets;
}

async function timed(url: string, init: RequestInit): Promise<number> {
  const began = performance.now();
  const res = await fetch(url, init);
  await res.text();
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - began;
}

const bare = await start(process.execPath, ['--import', 'tsx', 'load/bench/bare-server.ts']);
// Throughput of the engine: limits off, so every request does the full work of an admitted one.
const sim = await start(process.execPath, ['dist/cli/main.js', 'serve', '--port', '0', '--clock', 'virtual', '--seed', '42', '--limits', 'off']);
// The refusal path: limits on; after the first 120 requests of the minute every query is a 429.
const limited = await start(process.execPath, ['dist/cli/main.js', 'serve', '--port', '0', '--clock', 'virtual', '--seed', '42']);
// Many keys, each with a quota, limits on, real clock: almost every request admitted.
const manyKeys = await start(process.execPath, ['dist/cli/main.js', 'serve', '--port', '0', '--clock', 'real', '--seed', '42']);
// A quota-enabled key on the real clock, limits on: the journal of this run is judged by the oracle.
const quota = await start(process.execPath, ['dist/cli/main.js', 'serve', '--port', '0', '--clock', 'real', '--seed', '42']);

let sections: BenchSection[] = [];
let title = '';
try {
  const fixtures = (await (await fetch(`${sim.url}/__sim/fixtures`)).json()) as BenchFixtures;
  const { websiteId: largest, readKey: key } = findLargestWebsite(fixtures);
  const headers = { 'content-type': 'application/json', 'x-api-key': key };
  const summary = JSON.stringify({ parameters: ['summary_metrics'], preset: 'last_30d' });
  const cheap = JSON.stringify({ parameters: ['summary_metrics'], preset: 'today' });
  const batch = JSON.stringify({
    parameters: ['summary_metrics', 'top_pages', 'browser_name', 'country', 'traffic_sources'],
    preset: 'last_90d',
  });
  // One type of each of five families the live catalogue added (ungated, so any plan answers).
  const newFamilies = JSON.stringify({
    parameters: ['error_fingerprints', 'vitals_overview', 'revenue_overview', 'session_list', 'engagement_quality_by_page'],
    preset: 'last_30d',
  });
  const queryUrl = `${sim.url}/v1/query?website_id=${largest}`;

  /** Median and worst of `count` sequential answers of `body`, after its first. */
  const sequential = async (body: string, count: number): Promise<{ p50: number; p99: number }> => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(await timed(queryUrl, { method: 'POST', headers, body }));
    times.sort((a, b) => a - b);
    return { p50: times[Math.floor(count / 2)] ?? 0, p99: times[Math.min(count - 1, Math.floor(count * 0.99))] ?? 0 };
  };
  progress('first requests, then the HTTP rows');
  const firstRequestMs = await timed(queryUrl, { method: 'POST', headers, body: summary });
  const warmSummary = await sequential(summary, 20);
  const coldBatchMs = await timed(queryUrl, { method: 'POST', headers, body: batch });
  const warmBatch = await sequential(batch, 50);

  const rows: Measured[] = [];
  // The baseline is the same request the cheap rows send (POST, its headers and body), which the
  // bare server reads and answers with fixed bytes: the ceiling for that request on this machine.
  rows.push(await measure('bare node:http, POST, fixed JSON', { url: bare.url, method: 'POST', headers, body: cheap }, bare));
  rows.push(await measure('bare node:http, GET, fixed JSON', { url: bare.url }, bare));
  rows.push(await measure('GET /v1/query/types', { url: `${sim.url}/v1/query/types` }, sim));
  rows.push(await measure('POST /v1/query summary_metrics today', { url: queryUrl, method: 'POST', headers, body: cheap }, sim));
  rows.push(await measure('POST /v1/query summary_metrics last_30d', { url: queryUrl, method: 'POST', headers, body: summary }, sim));
  rows.push(await measure('POST /v1/query 5-parameter batch last_90d', { url: queryUrl, method: 'POST', headers, body: batch }, sim));
  rows.push(await measure('POST /v1/query 5 new-family types last_30d', { url: queryUrl, method: 'POST', headers, body: newFamilies }, sim));
  const refused = await measure(
    '429 at the per-endpoint limit (limits on)',
    {
      url: `${limited.url}/v1/query?website_id=${largest}`,
      method: 'POST',
      headers,
      body: cheap,
    },
    limited,
  );
  rows.push({ ...refused, non2xx: 0 });
  // Admitted under enforced limits: the cheap query, rotating over MANY_KEYS keys with quotas
  // (300 per 60 s each), so the per-key and per-endpoint checks run and almost all admit.
  // First one request per key (each key's first sight: its hash, its windows; and the route's
  // first requests on this server), then three runs in a row over keys all seen: the rate
  // should stay flat.
  const manySecrets = await createKeys(manyKeys.url, MANY_KEYS);
  let next = 0;
  const rotating: autocannon.Options = {
    url: `${manyKeys.url}/v1/query?website_id=${largest}`,
    method: 'POST',
    headers,
    body: cheap,
    requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-api-key': manySecrets[next++ % manySecrets.length] ?? '' } }) }],
  };
  const manyRuns: Measured[] = [await measure(`${MANY_KEYS.toLocaleString('en')} keys, first request of each`, rotating, manyKeys, MANY_KEYS)];
  for (let run = 1; run <= 3; run++) manyRuns.push(await measure(`${MANY_KEYS.toLocaleString('en')} keys with quotas, admitted (run ${run})`, rotating, manyKeys));
  rows.push(...manyRuns);
  // The baseline again, after the rows it is compared with: on a shared machine the same bare row
  // moves by a fifth between runs, so every ratio is taken against the mean of the two.
  rows.push(await measure('bare node:http, POST, fixed JSON (again)', { url: bare.url, method: 'POST', headers, body: cheap }, bare));
  const quotaSecret = fixtures.apiKeys.find((k) => k.id === 'key_acme_quota_default')?.secret ?? '';
  // A fixed number of requests, so the whole run fits the journal (100,000 entries) and every
  // decision is judged (load/bench/admission-work.ts); the store rows repeat this work.
  const quotaWork = { path: `/v1/query?website_id=${largest}`, headers: { ...headers, 'x-api-key': quotaSecret }, body: cheap };
  progress('the quota-key work on the memory store');
  const quotaCpuBefore = processCpuUs(quota.child.pid, { children: true });
  const quotaResult = await measureAdmissionWork(quota.url, quotaWork, connections);
  const quotaCpuAfter = processCpuUs(quota.child.pid, { children: true });
  const memorySimCpuUs = quotaCpuBefore !== undefined && quotaCpuAfter !== undefined ? (quotaCpuAfter - quotaCpuBefore) / (WARM_UP_REQUESTS + MEASURED_REQUESTS) : undefined;
  const quotaRow: Measured = { name: 'quota key (300/60 s) 90k requests, limits on', ...quotaResult };
  rows.push(quotaRow);
  const { oracle, journal: journalInfo } = quotaResult;
  // The store rows: the same work on a Redis store, one process and --workers 2.
  // The store rows run several processes of their own (redis-server, workers): not pinned.
  pinned.unpin();
  progress('the quota-key work on the Redis store');
  const storeRows = await measureStoreRows(quotaResult, quotaWork, connections, ['--seed', '42'], { memorySimCpuUs });
  const bareRows = rows.filter((r) => r.name.startsWith('bare node:http, POST'));
  const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
  const baseline = mean(bareRows.map((r) => r.rps)) || 1;
  const bareCpus = bareRows.flatMap((r) => (r.cpuUs === undefined ? [] : [r.cpuUs]));
  const baselineCpu = bareCpus.length === bareRows.length ? mean(bareCpus) : undefined;

  title = `analytics-sim benchmark: ${duration}s per row, ${connections} connections, largest site ${largest}; query rows with --limits off; ${pinned.note}`;
  sections.push({
    kind: 'table',
    id: 'http',
    title: 'over HTTP, against a bare node:http server',
    nameLabel: 'scenario',
    columns: [
      ...RATE_COLUMNS,
      { key: 'vsBare', label: 'vs bare', digits: 2, suffix: 'x' },
      { key: 'non2xx', label: 'non-2xx' },
      { key: 'cpuUs', label: 'cpu µs/answer' },
      { key: 'cpuVsBare', label: 'cpu vs bare', digits: 2, suffix: 'x' },
    ],
    rows: rows.map((r) => ({
      name: r.name,
      cells: {
        rps: r.rps,
        p50: r.p50,
        p99: r.p99,
        vsBare: r.rps / baseline,
        non2xx: r.non2xx + r.errors,
        cpuUs: r.cpuUs ?? null,
        cpuVsBare: r.cpuUs === undefined || baselineCpu === undefined ? null : baselineCpu / r.cpuUs,
      },
    })),
    notes: [
      `vs bare: against the mean of the two bare POST rows (${baseline.toFixed(0)} req/s${baselineCpu === undefined ? '' : `, ${baselineCpu.toFixed(0)} µs`}), measured first and last`,
      "cpu µs/answer: the server process's CPU time (user + system) per answer over the row; cpu vs bare: the bare server's over it (Linux; - elsewhere)",
    ],
  });
  const library = importCostMs();
  sections.push({
    kind: 'lines',
    id: 'start-up',
    title: 'start-up, first requests, memory and accuracy',
    lines: [
      { label: 'start-up to listening', value: `${sim.startupMs.toFixed(0)} ms (bare server: ${bare.startupMs.toFixed(0)} ms, via tsx)` },
      { label: 'import the library', value: `+${library.importMs.toFixed(0)} ms over a bare node (${library.bareMs.toFixed(0)} ms; medians of 11)` },
      { label: 'first request (summary, cold)', value: `${firstRequestMs.toFixed(1)} ms` },
      { label: '5-parameter 90-day batch, cold', value: `${coldBatchMs.toFixed(1)} ms` },
      { label: '5-parameter 90-day batch, warm p50', value: `${warmBatch.p50.toFixed(1)} ms (p99 ${warmBatch.p99.toFixed(1)} ms, 50 sequential)` },
      {
        label: 'simulator RSS after the run',
        value: `${(residentMb(sim.child.pid) ?? 0).toFixed(0)} MB (limits off); ${(residentMb(manyKeys.child.pid) ?? 0).toFixed(0)} MB (${MANY_KEYS.toLocaleString('en')} keys, limits on)`,
      },
      {
        label: 'quota-key run, journal oracle',
        value: `${oracle.accuracy}% accuracy over ${oracle.checked} checks (${oracle.skipped} skipped), ${oracle.overAdmissions} over-, ${oracle.underAdmissions} under-admissions; ${journalInfo.size} decisions journaled, ${journalInfo.dropped} dropped`,
      },
      { label: 'quota-key throughput vs bare', value: `${(quotaRow.rps / baseline).toFixed(2)}x (${quotaRow.rps.toFixed(0)} req/s at ${oracle.accuracy}% accuracy)` },
    ],
  });
  sections.push(
    storeTable(storeRows, storeTableTitle(connections)),
  );
  sections.push(
    firstVsWarmTable([
      firstVsWarmRow('HTTP summary_metrics last_30d', firstRequestMs, warmSummary.p50),
      firstVsWarmRow('HTTP 5-parameter batch last_90d', coldBatchMs, warmBatch.p50),
    ]),
  );
} finally {
  bare.child.kill('SIGTERM');
  sim.child.kill('SIGTERM');
  limited.child.kill('SIGTERM');
  manyKeys.child.kill('SIGTERM');
  quota.child.kill('SIGTERM');
}

// Each in a process of its own: a cold process, or one run with --expose-gc.
for (const [script, flags] of [
  ['load/bench/admission.ts', ['--expose-gc']],
  ['load/bench/in-process.ts', []],
  ['load/bench/fresh-simulators.ts', []],
  ['load/bench/range-costs.ts', []],
  ['load/bench/long-ranges.ts', []],
] as const) {
  progress(script);
  for (const section of await runMeasurement(script, flags)) sections = addSection(sections, section);
}

const charts: BenchChartSpec[] = [
  { kind: 'lines', id: 'range-costs-chart', title: 'One parameter against its range in days', table: 'range-costs', xLabel: 'days of range', yLabel: 'ms', log: true },
  { kind: 'bars', id: 'first-vs-warm-chart', title: 'First request against warm', table: 'first-vs-warm', columns: ['cold', 'warm'], yLabel: 'ms', log: true },
  STORES_CHART,
];
const results: BenchResults = { title, sections, charts };
process.stdout.write(renderBenchText(results));
if (report !== undefined) {
  mkdirSync(dirname(report), { recursive: true });
  writeFileSync(report, renderBenchReport(results));
  process.stdout.write(`\nHTML report written to ${report}\n`);
}
