import { legacyType } from '../legacy-type.js';
import { percentage, percentile, round2 } from '../aggregate.js';
import { bucketLabels, createBucketer, formatDateTime } from '../dates.js';
import type { QueryTypeDefinition, Row, RunContext } from '../definition.js';
import { scanChecks } from '../scan.js';

const UPTIME_FILTERS = ['probe_region'];
const UPTIME_TABLE = 'uptime.uptime_monitor';

interface CheckStats {
  total: number;
  up: number;
  down: number;
  times: number[];
  ttfb: number;
}

function emptyChecks(): CheckStats {
  return { total: 0, up: 0, down: 0, times: [], ttfb: 0 };
}

function collect(ctx: RunContext, keyOf: (time: number, region: number) => string): Map<string, CheckStats> {
  const groups = new Map<string, CheckStats>();
  scanChecks(ctx, (batch, i) => {
    const key = keyOf(batch.timeMs[i] as number, batch.region[i] as number);
    let s = groups.get(key);
    if (!s) {
      s = emptyChecks();
      groups.set(key, s);
    }
    s.total++;
    const status = batch.status[i] as number;
    if (status === 1) s.up++;
    if (status === 0) s.down++;
    s.times.push(batch.totalMs[i] as number);
    s.ttfb += batch.ttfbMs[i] as number;
  });
  return groups;
}

function uptimePct(s: CheckStats): number {
  return s.up + s.down > 0 ? percentage(s.up, s.up + s.down) : 100;
}

function avg(values: number[]): number {
  return values.length > 0 ? round2(values.reduce((a, b) => a + b, 0) / values.length) : 0;
}

function defineUptime(
  name: string,
  title: string,
  description: string,
  outputFields: string[],
  visualization: 'metric' | 'timeseries' | 'table' | 'bar',
  sql: { select: string[]; groupBy?: string[]; orderBy?: string },
  run: (ctx: RunContext) => Row[],
  limits: { defaultLimit?: number; maxRangeDays?: number } = {},
): QueryTypeDefinition {
  return legacyType({
    name,
    target: 'monitor',
    scope: 'read:monitors',
    publicAccess: false,
    commonFilters: false,
    extraFilters: UPTIME_FILTERS,
    customizable: false,
    defaultLimit: limits.defaultLimit ?? 100,
    ...(limits.maxRangeDays !== undefined ? { maxRangeDays: limits.maxRangeDays } : {}),
    meta: {
      title,
      description,
      category: 'Uptime',
      outputFields,
      defaultVisualization: visualization,
      ...(visualization === 'timeseries' ? { supportsGranularity: ['hour', 'day'] as ('hour' | 'day')[] } : {}),
    },
    sql: { table: UPTIME_TABLE, ...sql },
    run,
  });
}

export const uptimeTypes: QueryTypeDefinition[] = [
  defineUptime(
    'uptime_overview',
    'Uptime overview',
    'Availability of the monitor over the range, with response-time percentiles and TLS certificate state.',
    ['uptime_percentage', 'total_checks', 'successful_checks', 'avg_response_time', 'p50_response_time', 'p95_response_time', 'p99_response_time', 'max_response_time', 'avg_ttfb', 'ssl_days_left', 'ssl_valid'],
    'metric',
    { select: ['ROUND(countIf(status = 1) / countIf(status != 2) * 100, 2) AS uptime_percentage', 'COUNT(*) AS total_checks', 'countIf(status = 1) AS successful_checks', 'ROUND(avg(total_ms), 2) AS avg_response_time', 'quantile(0.5)(total_ms) AS p50_response_time', 'quantile(0.95)(total_ms) AS p95_response_time', 'quantile(0.99)(total_ms) AS p99_response_time', 'max(total_ms) AS max_response_time', 'ROUND(avg(ttfb_ms), 2) AS avg_ttfb', 'argMax(ssl_days_left, timestamp) AS ssl_days_left', 'argMax(ssl_valid, timestamp) AS ssl_valid'] },
    (ctx) => {
      const s = collect(ctx, () => '').get('') ?? emptyChecks();
      let lastSsl = 0;
      let lastTime = -1;
      scanChecks(ctx, (batch, i) => {
        if ((batch.timeMs[i] as number) > lastTime) {
          lastTime = batch.timeMs[i] as number;
          lastSsl = batch.sslDaysLeft[i] as number;
        }
      });
      const times = s.times;
      return [
        {
          uptime_percentage: uptimePct(s),
          total_checks: s.total,
          successful_checks: s.up,
          avg_response_time: avg(times),
          p50_response_time: round2(percentile(times, 50)),
          p95_response_time: round2(percentile(times, 95)),
          p99_response_time: round2(percentile(times, 99)),
          max_response_time: round2(percentile(times, 100)),
          avg_ttfb: s.total > 0 ? round2(s.ttfb / s.total) : 0,
          ssl_days_left: lastSsl,
          ssl_valid: lastTime >= 0 && lastSsl > 0,
        },
      ];
    },
  ),
  defineUptime(
    'uptime_time_series',
    'Uptime over time',
    'Availability, checks, downtime and response times per hour (default) or day, in the request time zone.',
    ['date', 'uptime_percentage', 'total_checks', 'successful_checks', 'downtime_seconds', 'avg_response_time', 'p95_response_time'],
    'timeseries',
    { select: ['toStartOfHour(toTimeZone(timestamp, {timezone:String})) AS date', 'ROUND(countIf(status = 1) / countIf(status != 2) * 100, 2) AS uptime_percentage', 'COUNT(*) AS total_checks', 'countIf(status = 1) AS successful_checks', 'countIf(status = 0) * {interval:UInt32} AS downtime_seconds', 'ROUND(avg(total_ms), 2) AS avg_response_time', 'quantile(0.95)(total_ms) AS p95_response_time'], groupBy: ['date'], orderBy: 'date ASC' },
    (ctx) => {
      const bucket = createBucketer(ctx.unit, ctx.timezone);
      const groups = collect(ctx, (t) => bucket(t));
      const interval = ctx.scope.kind === 'monitor' ? ctx.scope.monitor.intervalSeconds : 60;
      return bucketLabels(ctx.unit, ctx.timezone, ctx.fromMs, ctx.toMs).map((date) => {
        const s = groups.get(date) ?? emptyChecks();
        return {
          date,
          uptime_percentage: uptimePct(s),
          total_checks: s.total,
          successful_checks: s.up,
          downtime_seconds: s.down * interval,
          avg_response_time: avg(s.times),
          p95_response_time: round2(percentile(s.times, 95)),
        };
      });
    },
  ),
  defineUptime(
    'uptime_recent_checks',
    'Recent checks',
    'The individual checks of the range, newest first.',
    ['timestamp', 'url', 'status', 'http_code', 'ttfb_ms', 'total_ms', 'probe_region', 'error'],
    'table',
    { select: ['timestamp', 'url', 'status', 'http_code', 'ttfb_ms', 'total_ms', 'probe_region', 'error'], orderBy: 'timestamp DESC' },
    (ctx) => {
      const rows: Row[] = [];
      const url = ctx.scope.kind === 'monitor' ? ctx.scope.monitor.url : '';
      const { probe_region: regions, check_error: errors } = ctx.dictionaries.values;
      scanChecks(ctx, (batch, i) => {
        rows.push({
          timestamp: formatDateTime(batch.timeMs[i] as number),
          url,
          status: batch.status[i] as number,
          http_code: batch.httpCode[i] as number,
          ttfb_ms: round2(batch.ttfbMs[i] as number),
          total_ms: round2(batch.totalMs[i] as number),
          probe_region: regions[batch.region[i] as number] ?? '',
          error: errors[batch.error[i] as number] ?? '',
        });
      });
      return rows.reverse();
    },
    { defaultLimit: 50, maxRangeDays: 31 },
  ),
  defineUptime(
    'uptime_by_region',
    'Uptime by region',
    'Availability and mean response time per probe region.',
    ['probe_region', 'total_checks', 'uptime_percentage', 'avg_response_time'],
    'bar',
    { select: ['probe_region', 'COUNT(*) AS total_checks', 'ROUND(countIf(status = 1) / countIf(status != 2) * 100, 2) AS uptime_percentage', 'ROUND(avg(total_ms), 2) AS avg_response_time'], groupBy: ['probe_region'], orderBy: 'probe_region ASC' },
    (ctx) => {
      const regions = ctx.dictionaries.values.probe_region;
      const groups = collect(ctx, (_t, region) => regions[region] ?? '');
      return [...groups]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([probe_region, s]) => ({
          probe_region,
          total_checks: s.total,
          uptime_percentage: uptimePct(s),
          avg_response_time: avg(s.times),
        }));
    },
  ),
];
