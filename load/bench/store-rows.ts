/**
 * The bench rows of the shared store, measured in the same run on the same work
 * (load/bench/admission-work.ts): one simulator process on the memory store (the quota row the
 * bench already measures), one on a Redis store, and `serve --workers 2` on a Redis store,
 * unpinned; then the same two Redis rows with Redis on a core of its own (Linux, taskset, two
 * CPUs: redis-server and the load generator on CPU 0, the simulator's processes on CPU 1). Each
 * Redis row says the round trips a request cost (the script calls Redis counted, `INFO
 * commandstats` EVALSHA and EVAL, over the row's warm-up and measured requests: each call is
 * one round trip) and Redis's CPU time per request. The bench starts its own `redis-server` on
 * a free port (with the tests' helper, test/helpers/redis-server.ts) and stops it by process
 * id; without `redis-server`, or when the simulator cannot use the store, the Redis rows say
 * why they were skipped (the bench is not a test).
 */
import { Redis } from 'ioredis';
import { startRedis, type RedisServer } from '../../test/helpers/redis-server.js';
import { processCpuUs } from '../process-usage.js';
import { allowedCpus, cpusOf, pinProcess } from './cpu-pinning.js';
import { startServer, type Server } from '../runner.js';
import { measureAdmissionWork, MEASURED_REQUESTS, WARM_UP_REQUESTS, type AdmissionRequest, type AdmissionResult } from './admission-work.js';
import { RATE_COLUMNS, type BenchRow, type BenchTable } from './bench-results.js';
import { findLargestWebsite, type BenchFixtures } from './largest-website.js';

/** The Redis store reaches at least this share of the memory store's rate on the same work. */
export const TARGET_RATIO = 0.5;

/** One row: measured, or skipped with the reason. */
export interface StoreRow {
  readonly name: string;
  readonly result?: AdmissionResult;
  /** What Redis counted over the row's work, per request (warm-up and measured). */
  readonly redis?: { readonly roundTrips: number; readonly cpuUs: number };
  /** CPU time of the simulator's processes (a `--workers` primary and its workers together) per request, in µs (Linux). */
  readonly simCpuUs?: number;
  readonly skipped?: string;
}

interface RowPlan {
  readonly name: string;
  /** `serve` flags after the store's own (`--store`, `--store-prefix`). */
  readonly flags: readonly string[];
  /** Its own prefix, so no row sees another's windows or journal. */
  readonly prefix: string;
  /** Redis and the load generator on CPU 0, the simulator on CPU 1. */
  readonly pinned: boolean;
}

const REDIS_ROWS: readonly RowPlan[] = [
  { name: 'redis store, 1 process', flags: [], prefix: 'bench-redis', pinned: false },
  { name: 'redis store, --workers 2', flags: ['--workers', '2'], prefix: 'bench-workers', pinned: false },
  { name: 'redis CPU 0, 1 process CPU 1', flags: [], prefix: 'bench-redis-pinned', pinned: true },
  { name: 'redis CPU 0, --workers 2 CPU 1', flags: ['--workers', '2'], prefix: 'bench-workers-pinned', pinned: true },
];

/** The built CLI, as the simulator rows run it. */
const CLI: readonly string[] = [process.execPath, 'dist/cli/main.js'];

/** Script calls Redis answered (each one round trip of a client) and its CPU time, in µs, so far. */
async function redisCounts(client: Redis): Promise<{ calls: number; cpuUs: number }> {
  const info = await client.info('all');
  const calls = (command: string): number => Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  const seconds = (field: string): number => Number(new RegExp(`^${field}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return { calls: calls('evalsha') + calls('eval'), cpuUs: (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6 };
}

/**
 * The CPUs this process may use (given back after the pinned rows), or why the pinned rows
 * cannot run here: they put Redis and the load on CPU 0 and the simulator on CPU 1.
 */
function pinnable(): { readonly list: string } | { readonly problem: string } {
  const allowed = allowedCpus(process.pid);
  if ('problem' in allowed) return allowed;
  const cpus = cpusOf(allowed.list);
  return cpus.includes(0) && cpus.includes(1) ? allowed : { problem: `needs CPUs 0 and 1 (this process may use ${allowed.list})` };
}

const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).trim().split('\n').slice(0, 2).join(' ');

/**
 * Measures the Redis rows one after the other (one simulator at a time, so they do not
 * compete for the cores), each against a fresh prefix of one `redis-server` the function
 * starts and always stops. `memory` is the memory-store row already measured on the same work;
 * `serveFlags` are the flags every simulator gets (the seed); `options.memorySimCpuUs` is the
 * memory row's CPU time per request, when measured.
 */
export async function measureStoreRows(
  memory: AdmissionResult,
  request: AdmissionRequest,
  connections: number,
  serveFlags: readonly string[],
  options: { readonly command?: readonly string[]; readonly memorySimCpuUs?: number | undefined } = {},
): Promise<StoreRow[]> {
  const { command } = options;
  const rows: StoreRow[] = [{ name: 'memory store, 1 process', result: memory, ...(options.memorySimCpuUs === undefined ? {} : { simCpuUs: options.memorySimCpuUs }) }];
  let redis: RedisServer;
  try {
    redis = await startRedis();
  } catch (error) {
    return [...rows, ...REDIS_ROWS.map((r) => ({ name: r.name, skipped: `skipped: no redis-server to measure with (${firstLine(error)})` }))];
  }
  const counts = new Redis(redis.url);
  const cpus = pinnable();
  const pinning = 'problem' in cpus ? cpus.problem : null;
  try {
    for (const row of REDIS_ROWS) {
      if (row.pinned && pinning !== null) {
        rows.push({ name: row.name, skipped: `skipped: pinning ${pinning}` });
        continue;
      }
      if (row.pinned) {
        pinProcess(redis.pid, '0');
        pinProcess(process.pid, '0');
      }
      let server: Server | undefined;
      try {
        const cli = command ?? CLI;
        server = await startServer(row.pinned ? ['taskset', '-c', '1', ...cli] : cli, [...serveFlags, '--store', redis.url, '--store-prefix', row.prefix, ...row.flags]);
      } catch (error) {
        rows.push({ name: row.name, skipped: `skipped: the simulator did not start on the Redis store: ${firstLine(error)}` });
        continue;
      }
      try {
        const before = await redisCounts(counts);
        const simBefore = processCpuUs(server.child.pid, { children: true });
        const result = await measureAdmissionWork(server.url, request, connections);
        const simAfter = processCpuUs(server.child.pid, { children: true });
        const after = await redisCounts(counts);
        const requests = WARM_UP_REQUESTS + MEASURED_REQUESTS;
        const simCpu = simBefore !== undefined && simAfter !== undefined ? { simCpuUs: (simAfter - simBefore) / requests } : {};
        rows.push({ name: row.name, result, redis: { roundTrips: (after.calls - before.calls) / requests, cpuUs: (after.cpuUs - before.cpuUs) / requests }, ...simCpu });
      } catch (error) {
        rows.push({ name: row.name, skipped: `failed: ${firstLine(error)}` });
      } finally {
        await server.stop();
      }
    }
  } finally {
    if (!('problem' in cpus)) pinProcess(process.pid, cpus.list);
    counts.disconnect();
    await redis.stop();
  }
  return rows;
}

/** The title of the store table: the work every row runs. */
export function storeTableTitle(connections: number): string {
  return `the quota-key work on each store (${WARM_UP_REQUESTS.toLocaleString('en')} warm-up + ${MEASURED_REQUESTS.toLocaleString('en')} measured requests, ${connections} connections, limits on, real clock; accuracy: the oracle over the whole journal)`;
}

/**
 * The store table alone (`npm run bench -- --only stores`): the quota-key work on the memory
 * store, measured as the full bench measures it (load generator on CPU 0, simulator on CPU 1
 * where taskset can pin them), then the Redis rows.
 */
export async function measureStoreTable(connections: number): Promise<BenchTable> {
  const cpus = pinnable();
  const pinning = 'problem' in cpus ? cpus.problem : null;
  if (pinning === null) pinProcess(process.pid, '0');
  const serveFlags = ['--seed', '42'];
  const memoryServer = await startServer(pinning === null ? ['taskset', '-c', '1', ...CLI] : CLI, serveFlags);
  let memory: AdmissionResult;
  let request: AdmissionRequest;
  let memorySimCpuUs: number | undefined;
  try {
    const fixtures = (await (await fetch(`${memoryServer.url}/__sim/fixtures`)).json()) as BenchFixtures;
    const { websiteId, readKey } = findLargestWebsite(fixtures);
    const quotaSecret = fixtures.apiKeys.find((k) => k.id === 'key_acme_quota_default')?.secret ?? readKey;
    request = {
      path: `/v1/query?website_id=${websiteId}`,
      headers: { 'content-type': 'application/json', 'x-api-key': quotaSecret },
      body: JSON.stringify({ parameters: ['summary_metrics'], preset: 'today' }),
    };
    const simBefore = processCpuUs(memoryServer.child.pid, { children: true });
    memory = await measureAdmissionWork(memoryServer.url, request, connections);
    const simAfter = processCpuUs(memoryServer.child.pid, { children: true });
    if (simBefore !== undefined && simAfter !== undefined) memorySimCpuUs = (simAfter - simBefore) / (WARM_UP_REQUESTS + MEASURED_REQUESTS);
  } finally {
    await memoryServer.stop();
    if (!('problem' in cpus)) pinProcess(process.pid, cpus.list);
  }
  return storeTable(await measureStoreRows(memory, request, connections, serveFlags, { memorySimCpuUs }), storeTableTitle(connections));
}

/**
 * A ratio as the target line prints it: two decimals, or as many more (up to four) as it takes
 * not to round it onto the other side of {@link TARGET_RATIO} (0.498 is not "0.50x ... NOT
 * met"); closer still, four decimals rounded down (rounding never lifts a ratio at or above
 * the target below it).
 */
export function shownRatio(ratio: number): string {
  const met = ratio >= TARGET_RATIO;
  for (let digits = 2; digits <= 4; digits++) {
    const shown = ratio.toFixed(digits);
    if (Number(shown) >= TARGET_RATIO === met) return shown;
  }
  return (Math.floor(ratio * 10_000) / 10_000).toFixed(4);
}

/**
 * The rows as the bench's table (bench-results.ts), with the Redis/memory ratio against
 * {@link TARGET_RATIO} and any inexact row said under it.
 */
export function storeTable(rows: readonly StoreRow[], title: string): BenchTable {
  const notes: string[] = [];
  const memory = rows[0]?.result;
  const redis = rows[1]?.result;
  if (memory && redis) {
    const ratio = redis.rps / memory.rps;
    notes.push(`redis store vs memory store, one process: ${shownRatio(ratio)}x the rate (target ≥ ${TARGET_RATIO}x: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`);
  }
  const one = rows.find((row) => row.name === REDIS_ROWS[2]?.name)?.result;
  const two = rows.find((row) => row.name === REDIS_ROWS[3]?.name)?.result;
  if (memory && one) notes.push(`redis on a core of its own vs memory store (the memory row's layout: load on CPU 0, simulator on CPU 1): ${(one.rps / memory.rps).toFixed(2)}x the rate`);
  if (one && two) notes.push(`--workers 2 vs 1 process, both on CPU 1, Redis and the load on CPU 0: ${(two.rps / one.rps).toFixed(2)}x the rate`);
  notes.push('round trips/req: script calls Redis answered (INFO commandstats, EVALSHA + EVAL) over the warm-up and measured requests; sim cpu and redis cpu: CPU time (user + system) per request of the simulator processes and of redis-server (steadier than req/s on a shared machine)');
  const inexact = rows.filter((row) => row.result && (row.result.oracle.accuracy < 100 || row.result.oracle.overAdmissions > 0 || row.result.journal.dropped > 0));
  for (const row of inexact) {
    const r = row.result as AdmissionResult;
    notes.push(`${row.name}: ${r.oracle.accuracy}% accuracy, ${r.oracle.overAdmissions} over-admission(s), ${r.journal.dropped} decision(s) dropped from the journal`);
  }
  return {
    kind: 'table',
    id: 'stores',
    title,
    nameLabel: 'store',
    columns: [
      ...RATE_COLUMNS,
      { key: 'accuracy', label: 'accuracy', digits: 2, suffix: '%' },
      { key: 'checks', label: 'checks' },
      { key: 'over', label: 'over' },
      { key: 'under', label: 'under' },
      { key: 'trips', label: 'round trips/req', digits: 2 },
      { key: 'simCpu', label: 'sim cpu µs/req', digits: 1 },
      { key: 'redisCpu', label: 'redis cpu µs/req', digits: 1 },
    ],
    rows: rows.map(({ name, result: r, redis: counted, simCpuUs, skipped }): BenchRow =>
      r
        ? {
            name,
            cells: {
              rps: r.rps,
              p50: r.p50,
              p99: r.p99,
              accuracy: r.oracle.accuracy,
              checks: r.oracle.checked,
              over: r.oracle.overAdmissions,
              under: r.oracle.underAdmissions,
              trips: counted?.roundTrips ?? null,
              simCpu: simCpuUs ?? null,
              redisCpu: counted?.cpuUs ?? null,
            },
          }
        : { name, cells: {}, note: skipped ?? '' },
    ),
    notes,
  };
}
