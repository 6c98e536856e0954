import { bounceRate, createDistinct, createRunDistinct, round2 } from '../../readers/aggregate.js';
import { allowsDigests, foldDigestDay, walkDigestDaysSteps } from '../../readers/digest-days.js';
import { runToEnd, type PassSteps } from '../../engine/pass-steps.js';
import { createValueCounts, type ValueCounts } from '../../readers/value-counts.js';
import { createVisitorBits } from '../../readers/visitor-bits.js';
import { DAY_MS } from '../../../model/world.js';
import { SESSION_DAY_DIGEST, type SessionDayDigest } from './session-day-digest.js';
import { bucketLabels, createBucketer, localDayStart } from '../../engine/dates.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, type QueryTypeDefinition, type Row, type RunContext } from '../../engine/definition.js';
import { activeSecondsOf, customEventsOf, isLiveBounce, pagesOf, visitSessions, visitSessionsSteps, type SessionVisit } from '../../readers/session-visits.js';
import { countTrackedSteps } from '../../readers/tracked-events.js';
import catalogue from './summary-catalogue.json' with { type: 'json' };

/** Weighted totals of a group of sessions, under both bounce and duration definitions. */
interface SessionTotals {
  pageviews: number;
  visitors: number;
  sessions: number;
  /** Custom events of the sessions, weighted. */
  events: number;
  /** Live bounces: one pageview, under 10 s on it, no other event. */
  liveBounces: number;
  /** Single-page sessions (the SPEC.md shape's bounce). */
  singlePage: number;
  /** Seconds on pages per session sample, the last page included (live session duration). */
  readonly activeSeconds: ValueCounts;
  /** Durations of the multi-page samples, without the last page (the SPEC.md shape's). */
  readonly durations: ValueCounts;
}

/**
 * Totals of the filtered sessions starting in [fromMs, toMs], grouped by `keyOf` (a time
 * bucket, or one group). A session counts in one group, so groups add up to the totals.
 */
function* sessionTotals<K>(ctx: RunContext, keyOf: (startMs: number) => K, fromMs = ctx.fromMs, toMs = ctx.toMs): PassSteps<Map<K, SessionTotals>> {
  // Days whole in one bucket fold their per-day digest; one website's visitor keys are small,
  // so a bitmap per bucket counts them (not by the hour: a range has too many hours).
  if (allowsDigests(ctx) && ctx.unit !== 'hour') return yield* countSessionTotals(ctx, keyOf, fromMs, toMs, createVisitorBits(), true);
  // One website's sessions come in time order, so its time buckets come in runs: distinct
  // visitors are then counted a bucket at a time (memory of one bucket, not of the range).
  if (ctx.scope.kind === 'websites' && ctx.scope.websites.length === 1) {
    const runs = createRunDistinct();
    const groups = yield* countSessionTotals(ctx, keyOf, fromMs, toMs, (group, key) => runs.isNew(group, key));
    if (!runs.revisited) return groups;
  }
  return yield* countSessionTotals(ctx, keyOf, fromMs, toMs, createDistinct());
}

function* countSessionTotals<K>(
  ctx: RunContext,
  keyOf: (startMs: number) => K,
  fromMs: number,
  toMs: number,
  isNew: (groupIndex: number, key: number) => boolean,
  digests = false,
): PassSteps<Map<K, SessionTotals>> {
  const groups = new Map<K, SessionTotals>();
  const indexes = new Map<K, number>();
  const totalsOf = (key: K): SessionTotals => {
    let totals = groups.get(key);
    if (!totals) {
      totals = { pageviews: 0, visitors: 0, sessions: 0, events: 0, liveBounces: 0, singlePage: 0, activeSeconds: createValueCounts(), durations: createValueCounts() };
      groups.set(key, totals);
      indexes.set(key, indexes.size);
    }
    return totals;
  };
  const visit = ({ batch, index, matched, visitorKey }: SessionVisit): void => {
    const key = keyOf(batch.startMs[index] as number);
    const totals = totalsOf(key);
    const w = batch.weight;
    totals.pageviews += matched * w;
    totals.sessions += w;
    totals.events += customEventsOf(batch, index) * w;
    if (isLiveBounce(batch, index)) totals.liveBounces += w;
    if (pagesOf(batch, index) === 1) totals.singlePage += w;
    totals.activeSeconds.add(activeSecondsOf(batch, index));
    const duration = batch.durationS[index] as number;
    if (duration > 0) totals.durations.add(duration);
    if (isNew(indexes.get(key) as number, visitorKey)) totals.visitors += w;
  };
  // A day's digest folds in as its sessions would: sums of whole numbers, which no order
  // changes, the same visitors and the same seconds.
  const fold = (key: K, digest: SessionDayDigest): void => {
    const totals = totalsOf(key);
    const group = indexes.get(key) as number;
    const w = digest.weight;
    totals.pageviews += digest.pageviews * w;
    totals.sessions += digest.sessions * w;
    totals.events += digest.events * w;
    totals.liveBounces += digest.liveBounces * w;
    totals.singlePage += digest.singlePage * w;
    totals.activeSeconds.addCounts(digest.activeValues, digest.activeCounts);
    totals.durations.addCounts(digest.durationValues, digest.durationCounts);
    for (let v = 0; v < digest.visitors.length; v++) if (isNew(group, digest.visitors[v] as number)) totals.visitors += w;
  };
  const digested =
    digests &&
    (yield* walkDigestDaysSteps(
      ctx,
      {
        part: (from, to) => visitSessions(ctx, visit, from, to),
        whole(website, day, ingested) {
          const dayStart = day * DAY_MS;
          const key = keyOf(dayStart);
          if (key !== keyOf(dayStart + DAY_MS - 1)) return visitSessions(ctx, visit, dayStart, dayStart + DAY_MS - 1);
          const work = foldDigestDay(ctx, SESSION_DAY_DIGEST, website, day, (digest) => {
            if (digest.sessions > 0) fold(key, digest);
          });
          ingested(visit);
          return work;
        },
      },
      fromMs,
      toMs,
    ));
  if (!digested) yield* visitSessionsSteps(ctx, visit, fromMs, toMs);
  return groups;
}

/** The live session duration: median seconds on pages over the sessions, two decimals. */
function medianDuration(totals: SessionTotals): number {
  return round2(totals.activeSeconds.median());
}

/**
 * The live summary row. total_events counts every event of the sessions: one screen_view per
 * pageview, their custom events, and the events tracked through `POST /track`.
 */
function* summaryRow(ctx: RunContext): PassSteps<Row> {
  const totals = (yield* sessionTotals(ctx, () => 0)).get(0);
  const tracked = (yield* countTrackedSteps(ctx, () => 0)).get(0) ?? 0;
  return {
    pageviews: totals?.pageviews ?? 0,
    unique_visitors: totals?.visitors ?? 0,
    sessions: totals?.sessions ?? 0,
    bounce_rate: totals ? bounceRate({ bounces: totals.liveBounces, sessions: totals.sessions }) : null,
    median_session_duration: totals ? medianDuration(totals) : 0,
    total_events: (totals?.pageviews ?? 0) + (totals?.events ?? 0) + tracked,
  };
}

/**
 * The SPEC.md shape of summary_metrics: one row per day (or hour) of the range, empty buckets
 * included, with visitors, single-page bounce rate, median duration of multi-page sessions and
 * the custom plus tracked events.
 */
function* specSummaryRows(ctx: RunContext): PassSteps<Row[]> {
  const bucket = createBucketer(ctx.unit, ctx.timezone);
  const groups = yield* sessionTotals(ctx, bucket);
  const tracked = yield* countTrackedSteps(ctx, bucket);
  return bucketLabels(ctx.unit, ctx.timezone, ctx.fromMs, ctx.toMs).map((date) => {
    const s = groups.get(date);
    return {
      date,
      pageviews: s?.pageviews ?? 0,
      visitors: s?.visitors ?? 0,
      sessions: s?.sessions ?? 0,
      bounce_rate: s ? bounceRate({ bounces: s.singlePage, sessions: s.sessions }) : null,
      median_session_duration: s ? s.durations.median() : 0,
      total_events: (s?.events ?? 0) + (tracked.get(date) ?? 0),
    };
  });
}

/** events_by_date: one row per bucket that has sessions (no gap filling), in time order. */
function* seriesRows(ctx: RunContext): PassSteps<Row[]> {
  const bucket = createBucketer(ctx.unit, ctx.timezone);
  const groups = yield* sessionTotals(ctx, bucket);
  return [...groups.keys()].sort().map((date) => {
    const s = groups.get(date) as SessionTotals;
    return {
      date,
      pageviews: s.pageviews,
      visitors: s.visitors,
      sessions: s.sessions,
      bounce_rate: bounceRate({ bounces: s.liveBounces, sessions: s.sessions }),
      median_session_duration: medianDuration(s),
      pages_per_session: s.sessions > 0 ? round2(s.pageviews / s.sessions) : null,
    };
  });
}

/** The event totals the summary types select (the SQL `/v1/query/compile` shows). */
const TOTALS_SELECT = ['countIf(event_name = \'screen_view\') AS pageviews', 'uniqIf(anonymous_id, event_name = \'screen_view\') AS visitors', 'uniq(session_id) AS sessions'];

const SUMMARY_SQL = {
  table: 'analytics.events',
  select: [...TOTALS_SELECT, 'ROUND(bounces * 100 / sessions, 2) AS bounce_rate', 'ROUND(median(session_duration), 2) AS median_session_duration', 'COUNT(*) AS total_events'],
  where: ["session_id != ''"],
};

const SERIES_SQL = {
  table: 'analytics.events',
  select: ['toDate(toTimeZone(time, {timezone:String})) AS date', ...TOTALS_SELECT, 'ROUND(bounces * 100 / sessions, 2) AS bounce_rate', 'ROUND(median(session_duration), 2) AS median_session_duration', 'ROUND(pageviews / sessions, 2) AS pages_per_session'],
  where: ["session_id != ''"],
  groupBy: ['date'],
  orderBy: 'date ASC',
};

const ACTIVE_WINDOW_MS = 5 * 60_000;

/** Visitors and sessions active in the last five minutes of the clock: started before now and not ended before the window. */
function activeRow(ctx: RunContext): Row {
  const windowStart = ctx.now - ACTIVE_WINDOW_MS;
  const visitors = createDistinct();
  let users = 0;
  let sessions = 0;
  visitSessions(
    ctx,
    ({ batch, index, visitorKey }) => {
      const end = (batch.startMs[index] as number) + activeSecondsOf(batch, index) * 1000;
      if (end < windowStart) return;
      sessions += batch.weight;
      if (visitors(0, visitorKey)) users += batch.weight;
    },
    ctx.now - 86_400_000,
    ctx.now,
  );
  return { active_users: users, active_sessions: sessions };
}

/** What every summary declaration below shares; their fields and meta are in summary-catalogue.json. */
const defineSummaryType = declareUnder({
  family: { name: 'summary', catalogue: readCatalogue('summary', catalogue) },
  publicAccess: true,
  customizable: true,
});

/** The live summary builders. */
export const summaryTypes: QueryTypeDefinition[] = [
  defineSummaryType({
    name: 'summary_metrics',
    filters: ["profile_id", "anonymous_id"],
    derives: [SESSION_DAY_DIGEST],
    paging: 'self',
    readsTrackedEvents: true,
    spec: {
      fields: ['date', 'pageviews', 'visitors', 'sessions', 'bounce_rate', 'median_session_duration', 'total_events'],
      run: (ctx) => runToEnd(specSummaryRows(ctx)),
      steps: specSummaryRows,
    },
    sql: SUMMARY_SQL,
    *steps(ctx) {
      return [yield* summaryRow(ctx)];
    },
  }),
  defineSummaryType({
    name: 'today_metrics',
    sql: { table: 'analytics.events', select: TOTALS_SELECT, where: ["event_name = 'screen_view'", 'time >= toStartOfDay(now({timezone:String}))'] },
    run(ctx) {
      const from = Math.max(ctx.fromMs, localDayStart(ctx.now, ctx.timezone));
      const totals = runToEnd(sessionTotals(ctx, () => 0, from, Math.min(ctx.toMs, ctx.now))).get(0);
      return [{ pageviews: totals?.pageviews ?? 0, visitors: totals?.visitors ?? 0, sessions: totals?.sessions ?? 0 }];
    },
  }),
  defineSummaryType({
    name: 'events_by_date',
    paging: 'self',
    derives: [SESSION_DAY_DIGEST],
    sql: SERIES_SQL,
    steps: seriesRows,
  }),
  defineSummaryType({
    name: 'active_stats',
    customizable: false,
    skipDateRange: true,
    sql: { table: 'analytics.events', select: ['uniq(anonymous_id) AS active_users', 'uniq(session_id) AS active_sessions'], where: ["event_name = 'screen_view'", "session_id != ''", 'time >= now() - INTERVAL 5 MINUTE'] },
    run(ctx) {
      return [activeRow(ctx)];
    },
  }),
];
