import { bounceRate, groupSessions, median, percentage, round2, totalSessions } from '../aggregate.js';
import { type QueryTypeDefinition } from '../definition.js';
import { defineWebsiteType } from '../legacy-type.js';
import { scanTracked } from '../tracked-events.js';

const DURATION_BUCKETS: readonly [string, number][] = [
  ['0s', 1],
  ['1-10s', 10],
  ['10-30s', 30],
  ['30s-1m', 60],
  ['1-5m', 300],
  ['5-15m', 900],
  ['15-30m', 1800],
  ['30m+', Number.POSITIVE_INFINITY],
];

function durationBucket(seconds: number): number {
  return DURATION_BUCKETS.findIndex(([, upper]) => seconds < upper);
}

export const sessionTypes: QueryTypeDefinition[] = [
  defineWebsiteType({
    name: 'session_metrics',
    publicAccess: false,
    extraFilters: ['profile_id', 'anonymous_id'],
    meta: {
      title: 'Session Metrics',
      description: 'Sessions over the range with their mean and median length, bounce rate, pages per session and custom events.',
      category: 'Sessions',
      outputFields: ['total_sessions', 'avg_session_duration', 'median_session_duration', 'bounce_rate', 'pages_per_session', 'total_events'],
      defaultVisualization: 'metric',
    },
    sql: {
      table: 'analytics.events',
      select: ['uniq(session_id) AS total_sessions', 'ROUND(avg(session_duration), 2) AS avg_session_duration', 'median(session_duration) AS median_session_duration', 'ROUND(countIf(page_count = 1) / uniq(session_id) * 100, 2) AS bounce_rate', 'ROUND(COUNT(*) / uniq(session_id), 2) AS pages_per_session', 'sum(custom_event_count) AS total_events'],
      where: ["event_name = 'screen_view'"],
    },
    readsTrackedEvents: true,
    run(ctx) {
      const s = totalSessions(ctx, { durations: true });
      let tracked = 0;
      scanTracked(ctx, () => {
        tracked++;
      });
      return [
        {
          total_sessions: s.sessions,
          avg_session_duration: s.sessions > 0 ? round2(s.durationTotal / s.sessions) : 0,
          median_session_duration: median(s.durations),
          bounce_rate: bounceRate(s),
          pages_per_session: s.sessions > 0 ? round2(s.pageviews / s.sessions) : 0,
          total_events: s.events + tracked,
        },
      ];
    },
  }),
  defineWebsiteType({
    name: 'session_duration_distribution',
    publicAccess: false,
    meta: {
      title: 'Session length',
      description: 'Sessions and visitors by session length range, shortest first.',
      category: 'Sessions',
      outputFields: ['duration_range', 'sessions', 'visitors', 'percentage'],
      defaultVisualization: 'bar',
    },
    sql: {
      table: 'analytics.events',
      select: ["multiIf(session_duration < 1, '0s', session_duration < 10, '1-10s', session_duration < 30, '10-30s', session_duration < 60, '30s-1m', session_duration < 300, '1-5m', session_duration < 900, '5-15m', session_duration < 1800, '15-30m', '30m+') AS duration_range", 'uniq(session_id) AS sessions', 'uniq(anonymous_id) AS visitors', 'ROUND(uniq(session_id) / SUM(uniq(session_id)) OVER () * 100, 2) AS percentage'],
      where: ["event_name = 'screen_view'"],
      groupBy: ['duration_range'],
      orderBy: 'min(session_duration) ASC',
    },
    run(ctx) {
      const groups = groupSessions(ctx, (batch, i) => durationBucket(batch.durationS[i] as number));
      let total = 0;
      for (const s of groups.values()) total += s.sessions;
      return DURATION_BUCKETS.flatMap(([label], index) => {
        const s = groups.get(index);
        return s ? [{ duration_range: label, sessions: s.sessions, visitors: s.visitors, percentage: percentage(s.sessions, total) }] : [];
      });
    },
  }),
];
