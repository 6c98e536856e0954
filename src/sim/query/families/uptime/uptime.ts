import { hashString, mix } from '../../../model/hash.js';
import type { CheckBatch } from '../../../model/traffic.js';
import { DAY_MS } from '../../../model/world.js';
import { percentage, percentile, percentiles, round2 } from '../../readers/aggregate.js';
import { YIELD_RECORDS, type PassSteps } from '../../engine/pass-steps.js';
import { createBucketer } from '../../engine/dates.js';
import { formatDateTime64 } from '../../readers/date-time64.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import type { FilterPlan } from '../../engine/filters.js';
import { scanChecksSteps } from '../../readers/scan.js';
import catalogue from './uptime-catalogue.json' with { type: 'json' };

/** The uptime family: its types read uptime.uptime_monitor; their fields and meta are in uptime-catalogue.json. */
const FAMILY: QueryFamilySpec = { name: 'uptime', table: 'uptime.uptime_monitor', catalogue: readCatalogue('uptime', catalogue) };

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const NO_FILTERS: FilterPlan = { masks: new Map(), excludesAll: false, tests: [] };

/** One check of the monitor, with its times in whole milliseconds as the table stores them. */
interface Check {
  readonly timeMs: number;
  readonly status: number;
  readonly httpCode: number;
  readonly totalMs: number;
  readonly ttfbMs: number;
  readonly region: number;
  readonly error: number;
  readonly sslDaysLeft: number;
}

/**
 * Visits the monitor's checks in range, oldest first. The service accepts the global filters
 * for uptime types but its SQL reads none of them, so neither does this.
 */
function scanMonitorChecks(ctx: RunContext, visit: (check: Check) => void): PassSteps<void> {
  return scanChecksSteps({ ...ctx, filters: NO_FILTERS }, (batch: CheckBatch, i) => {
    visit({
      timeMs: batch.timeMs[i] as number,
      status: batch.status[i] as number,
      httpCode: batch.httpCode[i] as number,
      totalMs: Math.round(batch.totalMs[i] as number),
      ttfbMs: Math.round(batch.ttfbMs[i] as number),
      region: batch.region[i] as number,
      error: batch.error[i] as number,
      sslDaysLeft: batch.sslDaysLeft[i] as number,
    });
  });
}

/** The certificate expiry a check saw: the start of the UTC day it runs out, DateTime64(3) text. */
function sslExpiryOf(check: Check): string {
  return formatDateTime64(Math.floor((check.timeMs + check.sslDaysLeft * DAY_MS) / DAY_MS) * DAY_MS);
}

const sslValidOf = (check: Check): number => (check.sslDaysLeft > 0 ? 1 : 0);

/** Statistics of a group of checks. */
interface CheckGroup {
  /** Checks that are up or down (pending ones are not counted). */
  checks: number;
  up: number;
  down: number;
  downtimeS: number;
  readonly totals: number[];
  readonly ttfbs: number[];
}

function emptyGroup(): CheckGroup {
  return { checks: 0, up: 0, down: 0, downtimeS: 0, totals: [], ttfbs: [] };
}

function addCheck(group: CheckGroup, check: Check): void {
  if (check.status === 1) group.up++;
  if (check.status === 0) group.down++;
  if (check.status !== 2) group.checks++;
  group.totals.push(check.totalMs);
  group.ttfbs.push(check.ttfbMs);
}

/** The group of `key`, added empty (so groups stay in first-seen order) when there is none. */
function groupOf(groups: Map<string, CheckGroup>, key: string): CheckGroup {
  let group = groups.get(key);
  if (!group) {
    group = emptyGroup();
    groups.set(key, group);
  }
  return group;
}

/** Checks grouped by `keyOf`, in first-seen order (checks come oldest first). */
function* groupChecks(ctx: RunContext, keyOf: (check: Check) => string, only?: (check: Check) => boolean): PassSteps<Map<string, CheckGroup>> {
  const groups = new Map<string, CheckGroup>();
  yield* scanMonitorChecks(ctx, (check) => {
    if (only && !only(check)) return;
    addCheck(groupOf(groups, keyOf(check)), check);
  });
  return groups;
}

const mean = (values: readonly number[]): number => (values.length > 0 ? round2(values.reduce((a, b) => a + b, 0) / values.length) : 0);
const quantile = (values: readonly number[], p: number): number => round2(percentile(values, p));
const maxOf = (values: readonly number[]): number => values.reduce((a, b) => (b > a ? b : a), 0);
const minOf = (values: readonly number[]): number => (values.length > 0 ? values.reduce((a, b) => (b < a ? b : a)) : 0);

/** Up checks as a share of up and down checks, 0 when there are none. */
const uptimeOf = (group: CheckGroup): number => percentage(group.up, group.up + group.down);

/** One row over the range: availability, response-time statistics and the certificate state. */
function* overviewRows(ctx: RunContext): PassSteps<Row[]> {
  const group = emptyGroup();
  let sslExpiry: string | null = null;
  let sslValid = 1;
  yield* scanMonitorChecks(ctx, (check) => {
    addCheck(group, check);
    sslExpiry ??= sslExpiryOf(check);
    sslValid = Math.min(sslValid, sslValidOf(check));
  });
  const { totals } = group;
  // One copy of the response times, its ranks selected: a piece of its own.
  const [p50 = 0, p75 = 0, p95 = 0, p99 = 0] = percentiles(totals, [50, 75, 95, 99]).map(round2);
  yield totals.length;
  return [
    {
      total_checks: group.checks,
      uptime_percentage: uptimeOf(group),
      avg_response_time: mean(totals),
      p50_response_time: p50,
      p75_response_time: p75,
      p95_response_time: p95,
      p99_response_time: p99,
      max_response_time: maxOf(totals),
      min_response_time: minOf(totals),
      avg_ttfb: mean(group.ttfbs),
      ssl_expiry: sslExpiry,
      ssl_valid: totals.length > 0 ? sslValid : 0,
    },
  ];
}

/**
 * Availability per hour (UTC) or per day (request time zone), one row per bucket with checks.
 * A down check is down until the next check (the last one until now), at most a day; the
 * bucket's availability is the share of its window that was not down.
 */
function* timeSeriesRows(ctx: RunContext): PassSteps<Row[]> {
  const bucket = ctx.unit === 'hour' ? createBucketer('hour', 'UTC') : createBucketer('day', ctx.timezone);
  const windowS = ctx.unit === 'hour' ? 3600 : 86_400;
  const groups = new Map<string, CheckGroup>();
  let pendingDown: { group: CheckGroup; timeMs: number } | null = null;
  const settle = (nextMs: number): void => {
    if (pendingDown) pendingDown.group.downtimeS += Math.min(86_400, Math.max(0, Math.floor((nextMs - pendingDown.timeMs) / 1000)));
    pendingDown = null;
  };
  yield* scanMonitorChecks(ctx, (check) => {
    settle(check.timeMs);
    const group = groupOf(groups, bucket(check.timeMs));
    addCheck(group, check);
    if (check.status === 0) pendingDown = { group, timeMs: check.timeMs };
  });
  settle(ctx.now);
  return yield* bucketRows([...groups].sort(([a], [b]) => compareText(a, b)), (date, g) => ({
      date,
      uptime_percentage: round2(100 * (1 - Math.min(g.downtimeS, windowS) / windowS)),
      total_checks: g.checks,
      successful_checks: g.up,
      downtime_seconds: g.downtimeS,
      avg_response_time: mean(g.totals),
      p50_response_time: quantile(g.totals, 50),
      p95_response_time: quantile(g.totals, 95),
      max_response_time: maxOf(g.totals),
      avg_ttfb: mean(g.ttfbs),
      p50_ttfb: quantile(g.ttfbs, 50),
      p95_ttfb: quantile(g.ttfbs, 95),
    }));
}

/** A row per bucket, made by `rowOf` from its checks; yields each bucket's checks, which its percentiles read ({@link PassSteps}). */
function* bucketRows(buckets: readonly [string, CheckGroup][], rowOf: (date: string, group: CheckGroup) => Row): PassSteps<Row[]> {
  const rows: Row[] = [];
  let unreported = 0;
  for (const [date, group] of buckets) {
    rows.push(rowOf(date, group));
    unreported += group.totals.length;
    if (unreported >= YIELD_RECORDS) {
      yield unreported;
      unreported = 0;
    }
  }
  return rows;
}

/** Checks per (status, HTTP code), most first, with their share of all checks. */
function* statusRows(ctx: RunContext): PassSteps<Row[]> {
  const counts = new Map<string, { status: number; http_code: number; count: number }>();
  let total = 0;
  yield* scanMonitorChecks(ctx, (check) => {
    total++;
    const key = `${check.status}:${check.httpCode}`;
    const row = counts.get(key);
    if (row) row.count++;
    else counts.set(key, { status: check.status, http_code: check.httpCode, count: 1 });
  });
  return [...counts.values()]
    .sort((a, b) => b.count - a.count || a.status - b.status || a.http_code - b.http_code)
    .map((r) => ({ ...r, percentage: percentage(r.count, total) }));
}

/** The address a probe region checks from: fixed per monitor and region. */
function probeIpOf(seedHash: number, monitorId: string, region: number): string {
  const h = mix(seedHash, hashString(monitorId), region, 0x1b);
  return `${(h >>> 24) % 223 + 1}.${(h >>> 16) & 255}.${(h >>> 8) & 255}.${(h & 253) + 1}`;
}

/** Every check of the range, newest first. */
function* recentCheckRows(ctx: RunContext): PassSteps<Row[]> {
  if (ctx.scope.kind !== 'monitor') return [];
  const monitor = ctx.scope.monitor;
  const { probe_region: regions, check_error: errors } = ctx.dictionaries.values;
  const rows: Row[] = [];
  yield* scanMonitorChecks(ctx, (check) => {
    rows.push({
      timestamp: formatDateTime64(check.timeMs),
      url: monitor.url,
      status: check.status,
      http_code: check.httpCode,
      ttfb_ms: check.ttfbMs,
      total_ms: check.totalMs,
      probe_region: regions[check.region] ?? '',
      probe_ip: probeIpOf(ctx.traffic.seedHash, monitor.id, check.region),
      ssl_valid: sslValidOf(check),
      error: errors[check.error] ?? '',
    });
  });
  return rows.reverse();
}

/** Response times of the successful checks per hour or per day (both UTC), one row per bucket. */
function* responseTrendRows(ctx: RunContext): PassSteps<Row[]> {
  const bucket = createBucketer(ctx.unit === 'hour' ? 'hour' : 'day', 'UTC');
  const groups = yield* groupChecks(ctx, (check) => bucket(check.timeMs), (check) => check.status === 1);
  return yield* bucketRows([...groups].sort(([a], [b]) => compareText(a, b)), (date, g) => ({
      date,
      avg_response_time: mean(g.totals),
      p50_response_time: quantile(g.totals, 50),
      p75_response_time: quantile(g.totals, 75),
      p90_response_time: quantile(g.totals, 90),
      p95_response_time: quantile(g.totals, 95),
      p99_response_time: quantile(g.totals, 99),
      min_response_time: minOf(g.totals),
      max_response_time: maxOf(g.totals),
      avg_ttfb: mean(g.ttfbs),
    }));
}

/** The certificate on the latest check and the checks that saw an invalid one; no row without checks. */
function* sslRows(ctx: RunContext): PassSteps<Row[]> {
  let latest: Check | null = null;
  let invalid = 0;
  yield* scanMonitorChecks(ctx, (check) => {
    latest = check;
    if (sslValidOf(check) === 0) invalid++;
  });
  const last = latest as Check | null;
  return last ? [{ ssl_expiry: sslExpiryOf(last), ssl_valid: sslValidOf(last), invalid_ssl_checks: invalid }] : [];
}

/** Availability and response times per probe region, most available first. */
function* regionRows(ctx: RunContext): PassSteps<Row[]> {
  const regions = ctx.dictionaries.values.probe_region;
  return [...(yield* groupChecks(ctx, (check) => regions[check.region] ?? ''))]
    .map(([region, g]) => ({
      region,
      uptime_percentage: uptimeOf(g),
      avg_response_time: mean(g.totals),
      p95_response_time: quantile(g.totals, 95),
    }))
    .sort((a, b) => b.uptime_percentage - a.uptime_percentage || compareText(a.region, b.region));
}

/** What every uptime declaration below shares. */
const defineUptimeType = declareUnder({
  family: FAMILY,
  target: 'monitor',
  customizable: false,
});

/** The live uptime builders. */
export const uptimeTypes: QueryTypeDefinition[] = [
  defineUptimeType({
    name: 'uptime_overview',
    steps: overviewRows,
  }),
  defineUptimeType({
    name: 'uptime_time_series',
    customizable: true,
    // The builder buckets by the hour unless asked for minutes or days (/compile's timeUnit);
    // /v1/query always asks for hours or days.
    sql: {
      table: 'uptime.uptime_monitor',
      select: [
        'toStartOfInterval(toTimeZone(time, {timezone:String}), INTERVAL 1 HOUR) AS date',
        'round(countIf(status = 1) / count() * 100, 2) AS uptime_percentage',
        'count() AS total_checks',
        'countIf(status = 1) AS successful_checks',
        'sumIf(check_interval, status = 0) AS downtime_seconds',
        'round(avg(total_ms), 2) AS avg_response_time',
        'quantile(0.5)(total_ms) AS p50_response_time',
        'quantile(0.95)(total_ms) AS p95_response_time',
        'max(total_ms) AS max_response_time',
        'round(avg(ttfb_ms), 2) AS avg_ttfb',
        'quantile(0.5)(ttfb_ms) AS p50_ttfb',
        'quantile(0.95)(ttfb_ms) AS p95_ttfb',
      ],
      groupBy: ['date'],
      orderBy: 'date ASC',
    },
    steps: timeSeriesRows,
  }),
  defineUptimeType({
    name: 'uptime_status_breakdown',
    steps: statusRows,
  }),
  defineUptimeType({
    name: 'uptime_recent_checks',
    customizable: true,
    // A simulator cost bound (one row per check), not a live rule.
    maxRangeDays: 31,
    steps: recentCheckRows,
  }),
  defineUptimeType({
    name: 'uptime_response_time_trends',
    customizable: true,
    steps: responseTrendRows,
  }),
  defineUptimeType({
    name: 'uptime_ssl_status',
    steps: sslRows,
  }),
  defineUptimeType({
    name: 'uptime_by_region',
    steps: regionRows,
  }),
];
