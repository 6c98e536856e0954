/**
 * The bench rows of the shared store, measured in the same run on the same work
 * (load/bench/admission-work.ts): one simulator process on the memory store (the quota row the
 * bench already measures), one on a Redis store, and `serve --workers 2` on a Redis store. The
 * bench starts its own `redis-server` on a free port (with the tests' helper,
 * test/helpers/redis-server.ts) and stops it by process id; without `redis-server`, or when
 * the simulator cannot use the store, the Redis rows say why they were skipped (the bench is
 * not a test).
 */
import { startRedis, type RedisServer } from '../../test/helpers/redis-server.js';
import { startServer, type Server } from '../runner.js';
import { measureAdmissionWork, type AdmissionRequest, type AdmissionResult } from './admission-work.js';
import { RATE_COLUMNS, type BenchRow, type BenchTable } from './bench-results.js';

/** The Redis store reaches at least this share of the memory store's rate on the same work. */
export const TARGET_RATIO = 0.5;

/** One row: measured, or skipped with the reason. */
export interface StoreRow {
  readonly name: string;
  readonly result?: AdmissionResult;
  readonly skipped?: string;
}

interface RowPlan {
  readonly name: string;
  /** `serve` flags after the store's own (`--store`, `--store-prefix`). */
  readonly flags: readonly string[];
  /** Its own prefix, so no row sees another's windows or journal. */
  readonly prefix: string;
}

const REDIS_ROWS: readonly RowPlan[] = [
  { name: 'redis store, 1 process', flags: [], prefix: 'bench-redis' },
  { name: 'redis store, --workers 2', flags: ['--workers', '2'], prefix: 'bench-workers' },
];

const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).trim().split('\n').slice(0, 2).join(' ');

/**
 * Measures the Redis rows one after the other (one simulator at a time, so they do not
 * compete for the cores), each against a fresh prefix of one `redis-server` the function
 * starts and always stops. `memory` is the memory-store row already measured on the same work;
 * `serveFlags` are the flags every simulator gets (the seed).
 */
export async function measureStoreRows(
  memory: AdmissionResult,
  request: AdmissionRequest,
  connections: number,
  serveFlags: readonly string[],
  command?: readonly string[],
): Promise<StoreRow[]> {
  const rows: StoreRow[] = [{ name: 'memory store, 1 process', result: memory }];
  let redis: RedisServer;
  try {
    redis = await startRedis();
  } catch (error) {
    return [...rows, ...REDIS_ROWS.map((r) => ({ name: r.name, skipped: `skipped: no redis-server to measure with (${firstLine(error)})` }))];
  }
  try {
    for (const row of REDIS_ROWS) {
      let server: Server | undefined;
      try {
        server = await startServer(command, [...serveFlags, '--store', redis.url, '--store-prefix', row.prefix, ...row.flags]);
      } catch (error) {
        rows.push({ name: row.name, skipped: `skipped: the simulator did not start on the Redis store: ${firstLine(error)}` });
        continue;
      }
      try {
        rows.push({ name: row.name, result: await measureAdmissionWork(server.url, request, connections) });
      } catch (error) {
        rows.push({ name: row.name, skipped: `failed: ${firstLine(error)}` });
      } finally {
        await server.stop();
      }
    }
  } finally {
    await redis.stop();
  }
  return rows;
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
    notes.push(`redis store vs memory store, one process: ${ratio.toFixed(2)}x the rate (target ≥ ${TARGET_RATIO}x: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`);
  }
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
    ],
    rows: rows.map(({ name, result: r, skipped }): BenchRow =>
      r
        ? { name, cells: { rps: r.rps, p50: r.p50, p99: r.p99, accuracy: r.oracle.accuracy, checks: r.oracle.checked, over: r.oracle.overAdmissions, under: r.oracle.underAdmissions } }
        : { name, cells: {}, note: skipped ?? '' },
    ),
    notes,
  };
}
