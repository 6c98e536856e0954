import { bounceRate, groupSessions, median, round2, type TrafficStats } from '../aggregate.js';
import { bucketLabels, createBucketer, localDayStart } from '../dates.js';
import { type QueryTypeDefinition, type Row, type RunContext } from '../definition.js';
import { defineWebsiteType } from '../legacy-type.js';
import { scanTracked } from '../tracked-events.js';

const EVENTS_WHERE = ["event_name = 'screen_view'"];

/** Per-bucket session stats over the range, with empty buckets filled so series have no gaps. */
export function seriesByTime(ctx: RunContext, options: { durations?: boolean } = {}): [string, TrafficStats | undefined][] {
  const bucket = createBucketer(ctx.unit, ctx.timezone);
  const groups = groupSessions(ctx, (batch, i) => bucket(batch.startMs[i] as number), options);
  return bucketLabels(ctx.unit, ctx.timezone, ctx.fromMs, ctx.toMs).map((label) => [label, groups.get(label)]);
}

/** The session totals of a bucket, as the SQL of the summary types selects them. */
const SESSION_TOTALS = [
  'COUNT(*) AS pageviews',
  'uniq(anonymous_id) AS visitors',
  'uniq(session_id) AS sessions',
  'ROUND(countIf(page_count = 1) / uniq(session_id) * 100, 2) AS bounce_rate',
];

/** The SQL of a per-date series of the session totals and `extra` columns. */
function seriesSql(extra: readonly string[]) {
  return {
    table: 'analytics.events',
    select: ['toDate(toTimeZone(time, {timezone:String})) AS date', ...SESSION_TOTALS, ...extra],
    where: EVENTS_WHERE,
    groupBy: ['date'],
    orderBy: 'date ASC',
  };
}

export const summaryTypes: QueryTypeDefinition[] = [
  defineWebsiteType({
    name: 'summary_metrics',
    extraFilters: ['profile_id', 'anonymous_id'],
    meta: {
      title: 'Summary Metrics',
      description:
        'Overview of key website metrics including pageviews, visitors, sessions, bounce rate, and session duration.',
      category: 'Analytics',
      outputFields: ['date', 'pageviews', 'visitors', 'sessions', 'bounce_rate', 'median_session_duration', 'total_events'],
      defaultVisualization: 'metric',
      supportsGranularity: ['hour', 'day'],
    },
    sql: seriesSql(['median(session_duration) AS median_session_duration', 'sum(custom_event_count) AS total_events']),
    readsTrackedEvents: true,
    run(ctx) {
      const bucket = createBucketer(ctx.unit, ctx.timezone);
      const tracked = new Map<string, number>();
      scanTracked(ctx, (event) => {
        const label = bucket(event.timestamp);
        tracked.set(label, (tracked.get(label) ?? 0) + 1);
      });
      return seriesByTime(ctx, { durations: true }).map(([date, s]) => ({
        date,
        pageviews: s?.pageviews ?? 0,
        visitors: s?.visitors ?? 0,
        sessions: s?.sessions ?? 0,
        bounce_rate: s ? bounceRate(s) : null,
        median_session_duration: s ? median(s.durations) : 0,
        total_events: (s?.events ?? 0) + (tracked.get(date) ?? 0),
      }));
    },
  }),
  defineWebsiteType({
    name: 'today_metrics',
    skipDateRange: true,
    meta: {
      title: 'Today',
      description: "Today's pageviews, visitors, sessions and bounce rate so far, with today taken in the request time zone.",
      category: 'Analytics',
      outputFields: ['pageviews', 'visitors', 'sessions', 'bounce_rate'],
      defaultVisualization: 'metric',
    },
    sql: {
      table: 'analytics.events',
      select: SESSION_TOTALS,
      where: [...EVENTS_WHERE, 'toDate(toTimeZone(time, {timezone:String})) = today()'],
    },
    run(ctx) {
      const from = localDayStart(ctx.now, ctx.timezone);
      const stats = groupSessions({ ...ctx, fromMs: from, toMs: ctx.now }, () => 0).get(0);
      return [
        {
          pageviews: stats?.pageviews ?? 0,
          visitors: stats?.visitors ?? 0,
          sessions: stats?.sessions ?? 0,
          bounce_rate: stats ? bounceRate(stats) : null,
        },
      ];
    },
  }),
  defineWebsiteType({
    name: 'events_by_date',
    meta: {
      title: 'Traffic over time',
      description: 'Pageviews, visitors, sessions, bounce rate and session length per day or hour, in the request time zone.',
      category: 'Analytics',
      outputFields: ['date', 'pageviews', 'visitors', 'sessions', 'bounce_rate', 'median_session_duration', 'pages_per_session'],
      defaultVisualization: 'timeseries',
      supportsGranularity: ['hour', 'day'],
    },
    sql: seriesSql(['median(session_duration) AS median_session_duration', 'ROUND(COUNT(*) / uniq(session_id), 2) AS pages_per_session']),
    run(ctx) {
      return seriesByTime(ctx, { durations: true }).map(([date, s]): Row => ({
        date,
        pageviews: s?.pageviews ?? 0,
        visitors: s?.visitors ?? 0,
        sessions: s?.sessions ?? 0,
        bounce_rate: s ? bounceRate(s) : null,
        median_session_duration: s ? median(s.durations) : 0,
        pages_per_session: s && s.sessions > 0 ? round2(s.pageviews / s.sessions) : 0,
      }));
    },
  }),
  defineWebsiteType({
    name: 'active_stats',
    customizable: false,
    skipDateRange: true,
    meta: {
      title: 'Active now',
      description: 'Visitors and sessions active in the last five minutes of the simulator clock.',
      category: 'Realtime',
      outputFields: ['active_users', 'active_sessions'],
      defaultVisualization: 'metric',
    },
    sql: {
      table: 'analytics.events',
      select: ['uniq(anonymous_id) AS active_users', 'uniq(session_id) AS active_sessions'],
      where: ['time >= now() - INTERVAL 5 MINUTE'],
    },
    run(ctx) {
      const windowStart = ctx.now - 5 * 60_000;
      const active = groupSessions(
        { ...ctx, fromMs: ctx.now - 86_400_000, toMs: ctx.now },
        (batch, i) => ((batch.startMs[i] as number) + (batch.durationS[i] as number) * 1000 >= windowStart ? 1 : 0),
      ).get(1);
      return [{ active_users: active?.visitors ?? 0, active_sessions: active?.sessions ?? 0 }];
    },
  }),
];

