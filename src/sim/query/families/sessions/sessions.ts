import { errorCountOfSession, errorDerivation, noErrors, type ErrorBatch } from '../../../model/derived/errors.js';
import { pageStayMs } from '../../../model/derived/pageview-times.js';
import { DAY_MS } from '../../../model/world.js';
import { parseSessionId, sessionIdOf } from '../../../model/identity.js';
import type { SessionBatch, SessionDimension } from '../../../model/traffic.js';
import { round2 } from '../../readers/aggregate.js';
import { formatDate } from '../../engine/dates.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, type QueryFamilySpec, type QueryTypeDefinition, type Row, type RunContext } from '../../engine/definition.js';
import { bySessions, createDistinctGroups, type DistinctCounts, type DistinctGroups } from '../../readers/distinct-groups.js';
import { allowsDigests, foldDigestDay, walkDigestDaysSteps } from '../../readers/digest-days.js';
import { groupVisitsByCodeSteps } from '../../readers/breakdown.js';
import { DIMENSION_DAY_DIGESTS } from '../../readers/dimension-day-digest.js';
import { createVisitorBits } from '../../readers/visitor-bits.js';
import { SESSION_SPREAD_DIGEST, type SessionSpreadDigest } from './session-spread-digest.js';
import { SESSION_FLOW_DIGEST, visitTransitions } from './session-flow-digest.js';
import { DURATION_RANGE_DIGEST, DURATION_RANGES, durationRange } from './duration-range-digest.js';
import { visitSessions, type SessionVisit } from '../../readers/session-visits.js';
import { withExtraWork, YIELD_RECORDS, type PassSteps } from '../../engine/pass-steps.js';
import { deviceLabel } from '../../engine/labels.js';
import { sessionEventsOf } from '../../readers/session-events.js';
import { formatDateTime64, scanIdentifiedAndIngestedSessions, scanIdentifiedSessionsSteps, sessionEndOf, visitorIdOf, type WeightedSessionVisitor } from '../../readers/session-identity.js';
import { countTrackedSteps, scanOwnerSteps } from '../../readers/tracked-events.js';
import { createFirstSelection } from '../../readers/select-first.js';
import { groupPageViewsSteps } from '../pages/pages.js';
import { PAGE_DAY_DIGESTS } from '../pages/page-day-digest.js';
import catalogue from './sessions-catalogue.json' with { type: 'json' };

/** {@link DistinctGroups} by UTC day that also folds a day's {@link SessionSpreadDigest}. */
interface DaySeries extends DistinctGroups<number> {
  /** Adds the sessions of `day` by the days they have pages on, up to `lastDay`. */
  fold(day: number, digest: SessionSpreadDigest, lastDay: number): void;
}

/**
 * A {@link DaySeries} for one website: its visitor keys are small, so a bitmap per day counts
 * them; a session's pages come together, so the last session counted per day dedupes them.
 */
function createDaySeries(): DaySeries {
  const groups = new Map<number, DistinctCounts & { readonly index: number; lastSession: number }>();
  const isNewVisitor = createVisitorBits();
  const groupOf = (day: number): DistinctCounts & { readonly index: number; lastSession: number } => {
    let group = groups.get(day);
    if (!group) groups.set(day, (group = { sessions: 0, visitors: 0, index: groups.size, lastSession: 0 }));
    return group;
  };
  return {
    add(day, session, visitorKey, weight) {
      const group = groupOf(day);
      if (group.lastSession === session) return;
      group.lastSession = session;
      group.sessions += weight;
      if (isNewVisitor(group.index, visitorKey)) group.visitors += weight;
    },
    fold(day, digest, lastDay) {
      const w = digest.weight;
      for (let k = 0; k < digest.sessions.length && day + k <= lastDay; k++) {
        if (digest.sessions[k] === 0) continue;
        const group = groupOf(day + k);
        group.sessions += (digest.sessions[k] as number) * w;
        for (let v = digest.visitorOffsets[k] as number; v < (digest.visitorOffsets[k + 1] as number); v++) {
          if (isNewVisitor(group.index, digest.visitors[v] as number)) group.visitors += w;
        }
      }
    },
    groups,
  };
}

/** Which pageviews of a session pass the request's path filter. */
function pathPasses(ctx: RunContext): (path: number) => boolean {
  const mask = ctx.filters.masks.get('path');
  return mask ? (path) => mask[path] === 1 : () => true;
}

/**
 * {@link scanIdentifiedAndIngestedSessions} in pieces: yields the session samples read
 * ({@link PassSteps}).
 */
function scanWithIngestedSteps(ctx: RunContext, visit: WeightedSessionVisitor, fromMs = ctx.fromMs, toMs = ctx.toMs): PassSteps<void> {
  return scanIdentifiedSessionsSteps(ctx, visit, fromMs, toMs, undefined, undefined, { ingested: true });
}

/**
 * Distinct sessions and visitors per key of the pageviews that pass the request's path filter:
 * `keyOf` gives a pageview's key, or null to leave it out. In pieces: the pageviews it reads
 * count besides the sessions ({@link PassSteps}).
 */
function* countPageviews(ctx: RunContext, keyOf: (batch: SessionBatch, page: number) => number | null): PassSteps<DistinctGroups<number>> {
  const mask = ctx.filters.masks.get('path');
  const counts = createDistinctGroups<number>();
  let serial = 0;
  let pageviews = 0;
  const scan = scanWithIngestedSteps(ctx, (batch, i, _matched, visitorKey, weight) => {
    serial++;
    const to = batch.pageOffsets[i + 1] as number;
    pageviews += to - (batch.pageOffsets[i] as number);
    for (let p = batch.pageOffsets[i] as number; p < to; p++) {
      if (mask && mask[batch.pagePaths[p] as number] !== 1) continue;
      const key = keyOf(batch, p);
      if (key !== null) counts.add(key, serial, visitorKey, weight);
    }
  });
  yield* withExtraWork(scan, () => {
    const work = pageviews;
    pageviews = 0;
    return work;
  });
  return counts;
}

/**
 * What {@link countPageviews} counts by range of time on page, for a run without filters on one
 * website: the days the range covers whole fold their {@link DURATION_RANGE_DIGEST} (sums of
 * whole numbers, the same visitors), the others are visited session by session.
 */
function* countDurationRangesByDay(ctx: RunContext): PassSteps<Map<number, DistinctCounts>> {
  const groups = new Map<number, DistinctCounts & { lastSession: number }>();
  const isNewVisitor = createVisitorBits();
  const groupOf = (range: number): DistinctCounts & { lastSession: number } => {
    let group = groups.get(range);
    if (!group) groups.set(range, (group = { sessions: 0, visitors: 0, lastSession: 0 }));
    return group;
  };
  let serial = 0;
  const visit = ({ batch, index, visitorKey }: SessionVisit): void => {
    serial++;
    const w = batch.weight;
    for (let p = batch.pageOffsets[index] as number; p < (batch.pageOffsets[index + 1] as number); p++) {
      const seconds = batch.pageTimeS[p] as number;
      if (!(seconds > 0)) continue;
      const range = durationRange(seconds);
      const group = groupOf(range);
      if (group.lastSession === serial) continue;
      group.lastSession = serial;
      group.sessions += w;
      if (isNewVisitor(range, visitorKey)) group.visitors += w;
    }
  };
  yield* walkDigestDaysSteps(ctx, {
    part: (fromMs, toMs) => visitSessions(ctx, visit, fromMs, toMs),
    whole(website, day, ingested) {
      const work = foldDigestDay(ctx, DURATION_RANGE_DIGEST, website, day, (digest) => {
        const w = digest.weight;
        for (let range = 0; range < digest.sessions.length; range++) {
          if (digest.sessions[range] === 0) continue;
          const group = groupOf(range);
          group.sessions += (digest.sessions[range] as number) * w;
          for (let v = digest.visitorOffsets[range] as number; v < (digest.visitorOffsets[range + 1] as number); v++) {
            if (isNewVisitor(range, digest.visitors[v] as number)) group.visitors += w;
          }
        }
      });
      ingested(visit);
      return work;
    },
  });
  return groups;
}

/** Distinct sessions and visitors per name of a session field's value (device, browser): null leaves the session out. */
function* sessionsBy(ctx: RunContext, dimension: SessionDimension, nameOfCode: (code: number) => string | null): PassSteps<Row[]> {
  if (allowsDigests(ctx)) {
    // Without filters on one website: whole days from their digest of visits by the field.
    const groups = yield* groupVisitsByCodeSteps(ctx, dimension, nameOfCode);
    return [...groups].map(([name, g]) => ({ name, sessions: g.sessions, visitors: g.visitors })).sort(bySessions);
  }
  const nameOf = (batch: SessionBatch, index: number): string | null => nameOfCode(batch.dims[dimension][index] as number);
  const counts = createDistinctGroups<string>();
  let serial = 0;
  yield* scanWithIngestedSteps(ctx, (batch, i, _matched, visitorKey, weight) => {
    const name = nameOf(batch, i);
    serial++;
    if (name !== null) counts.add(name, serial, visitorKey, weight);
  });
  return [...counts.groups].map(([name, c]) => ({ name, sessions: c.sessions, visitors: c.visitors })).sort(bySessions);
}

/** The geography and technology columns of a listed session. */
function sessionContext(ctx: RunContext, batch: SessionBatch, i: number) {
  const values = ctx.dictionaries.values;
  const countryCode = batch.dims.country[i] as number;
  const country = values.country[countryCode] ?? '';
  return {
    country,
    referrer: values.referrer[batch.dims.referrer[i] as number] ?? '',
    device_type: values.device_type[batch.dims.device_type[i] as number] ?? '',
    browser_name: values.browser_name[batch.dims.browser_name[i] as number] ?? '',
    os_name: values.os_name[batch.dims.os_name[i] as number] ?? '',
    country_code: country,
    country_name: ctx.dictionaries.countryNames[countryCode] ?? '',
  };
}

/** One listed session sample with what the per-session types rank and show. */
interface ListedSession {
  readonly batch: SessionBatch;
  readonly index: number;
  readonly id: string;
  readonly firstMs: number;
  readonly lastMs: number;
  readonly pageViews: number;
}

/**
 * The most recent `wanted` sessions of the range that pass the filters (fewer when there are
 * fewer), in no order, and maybe some older ones: days are read from the last one back, and a
 * day's sessions all start after the previous day's, so reading stops at the first day that
 * brings the count to `wanted`. Its cost follows the rows a page asks for, not the range. In
 * pieces: yields the session samples read, a few days at a time ({@link PassSteps}).
 */
function* listRecentSessions(ctx: RunContext, wanted: number): PassSteps<ListedSession[]> {
  const out: ListedSession[] = [];
  let unreported = 0;
  for (let day = Math.floor(ctx.toMs / DAY_MS); day >= Math.floor(ctx.fromMs / DAY_MS) && out.length < wanted; day--) {
    // The day's scan yields once at its end: gathered here, so that days are reported a few at a time.
    const scan = listSessions(ctx, out, Math.max(ctx.fromMs, day * DAY_MS), Math.min(ctx.toMs, (day + 1) * DAY_MS - 1));
    for (let step = scan.next(); step.done !== true; step = scan.next()) unreported += step.value;
    if (unreported >= YIELD_RECORDS) {
      yield unreported;
      unreported = 0;
    }
  }
  if (unreported > 0) yield unreported;
  return out;
}

/** Every session of [fromMs, toMs] (the range by default) that passes the filters, as individual sessions, added to `out` ({@link PassSteps}). */
function* listSessions(ctx: RunContext, out: ListedSession[] = [], fromMs = ctx.fromMs, toMs = ctx.toMs): PassSteps<ListedSession[]> {
  yield* scanWithIngestedSteps(ctx, (batch, index, matched) => {
    const lastEvent = (batch.eventOffsets[index + 1] as number) - 1;
    const end = sessionEndOf(batch, index);
    out.push({
      batch,
      index,
      id: sessionIdOf(batch, index),
      firstMs: batch.startMs[index] as number,
      // Events after the range's end are not read, as live.
      lastMs: Math.min(ctx.toMs, lastEvent >= (batch.eventOffsets[index] as number) ? Math.max(end, batch.eventTimeMs[lastEvent] as number) : end),
      pageViews: matched,
    });
  }, fromMs, toMs);
  return out;
}

/** Custom events (POST /track) of the listed websites' sessions, by session id, in pieces. */
function* trackedBySession(ctx: RunContext): PassSteps<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ctx.scope.kind !== 'websites') return out;
  for (const website of ctx.scope.websites) {
    yield* scanOwnerSteps(ctx, website.id, ctx.fromMs, ctx.toMs, (event) => {
      if (!event.sessionId) return;
      const names = out.get(event.sessionId) ?? [];
      names.push(event.name);
      out.set(event.sessionId, names);
    });
  }
  return out;
}

function websiteOf(ctx: RunContext, batch: SessionBatch) {
  if (ctx.scope.kind !== 'websites') throw new Error('sessions need a website');
  return ctx.scope.websites.find((w) => w.id === batch.websiteId) ?? (ctx.scope.websites[0] as (typeof ctx.scope.websites)[number]);
}

/** What interesting_sessions ranks a session by; the full row is built only for the requested page. */
interface RankedSession {
  readonly session: ListedSession;
  readonly score: number;
  readonly errors: number;
  readonly custom: readonly string[];
}

const NO_CUSTOM_EVENTS: readonly string[] = [];

/** Orders interesting sessions: score, then last activity (to the millisecond), then session id, each descending. */
function compareInteresting(a: RankedSession, b: RankedSession): number {
  return (
    b.score - a.score ||
    Math.floor(b.session.lastMs) - Math.floor(a.session.lastMs) ||
    (a.session.id < b.session.id ? 1 : a.session.id > b.session.id ? -1 : 0)
  );
}

/**
 * The first `count` sessions of the range by {@link compareInteresting} (ties in scan order, as a
 * stable sort of them all leaves them), errors read from `errorsOf` (one error batch per day
 * batch). A session that cannot enter is scored without building its row or its id. In pieces
 * ({@link PassSteps}).
 */
function* rankInterestingSessions(
  ctx: RunContext,
  tracked: Map<string, string[]>,
  errorsOf: (batch: SessionBatch) => ErrorBatch,
  count: number,
): PassSteps<RankedSession[]> {
  const selection = createFirstSelection(count, compareInteresting);
  yield* scanWithIngestedSteps(ctx, (batch, index, matched) => {
    const lastEvent = (batch.eventOffsets[index + 1] as number) - 1;
    const end = sessionEndOf(batch, index);
    const firstMs = batch.startMs[index] as number;
    // Events after the range's end are not read, as live.
    const lastMs = Math.min(ctx.toMs, lastEvent >= (batch.eventOffsets[index] as number) ? Math.max(end, batch.eventTimeMs[lastEvent] as number) : end);
    const engagement = (batch.eventOffsets[index + 1] as number) - (batch.eventOffsets[index] as number);
    const custom = tracked.size === 0 ? NO_CUSTOM_EVENTS : (tracked.get(sessionIdOf(batch, index)) ?? NO_CUSTOM_EVENTS);
    const errors = errorCountOfSession(errorsOf(batch), index);
    const duration = Math.floor((lastMs - firstMs) / 1000);
    const score =
      Math.min(matched, 10) * 2 +
      Math.min(countUniquePaths(ctx, batch, index), 8) * 3 +
      Math.min(engagement + custom.length, 20) +
      Math.min(errors, 10) * 2 +
      (duration >= 120 ? 5 : 0);
    const last = selection.last();
    if (last && (score < last.score || (score === last.score && Math.floor(lastMs) < Math.floor(last.session.lastMs)))) return;
    const session: ListedSession = { batch, index, id: sessionIdOf(batch, index), firstMs, lastMs, pageViews: matched };
    selection.add({ session, score, errors, custom });
  });
  return selection.items();
}

/** How many distinct non-empty paths a session visited: {@link uniquePaths}' length, without building them. */
function countUniquePaths(ctx: RunContext, batch: SessionBatch, index: number): number {
  const paths = ctx.dictionaries.values.path;
  const { pagePaths } = batch;
  const from = batch.pageOffsets[index] as number;
  const to = batch.pageOffsets[index + 1] as number;
  let count = 0;
  pages: for (let p = from; p < to; p++) {
    const code = pagePaths[p] as number;
    for (let q = from; q < p; q++) if (pagePaths[q] === code) continue pages;
    if ((paths[code] ?? '') !== '') count++;
  }
  return count;
}

/** Distinct non-empty paths of a session, in first-visit order. */
function uniquePaths(ctx: RunContext, s: ListedSession): string[] {
  const paths = ctx.dictionaries.values.path;
  const codes = new Set<number>();
  const to = s.batch.pageOffsets[s.index + 1] as number;
  for (let p = s.batch.pageOffsets[s.index] as number; p < to; p++) codes.add(s.batch.pagePaths[p] as number);
  return [...codes].map((code) => paths[code] ?? '').filter((name) => name !== '');
}

function interestingRow(ctx: RunContext, ranked: RankedSession): Row {
  const { session: s, score, errors, custom } = ranked;
  const { batch, index } = s;
  const distinct = uniquePaths(ctx, s);
  const geo = sessionContext(ctx, batch, index);
  return {
    session_id: s.id,
    visitor_id: visitorIdOf(batch, index),
    first_visit: formatDateTime64(s.firstMs),
    last_visit: formatDateTime64(s.lastMs),
    duration_seconds: Math.floor((s.lastMs - s.firstMs) / 1000),
    page_views: s.pageViews,
    unique_pages: distinct.length,
    analytics_engagement_events: (batch.eventOffsets[index + 1] as number) - (batch.eventOffsets[index] as number),
    custom_events: custom.length,
    errors,
    paths: distinct.slice(0, 12),
    custom_event_names: [...new Set(custom)].sort().slice(0, 8),
    country: geo.country,
    referrer: geo.referrer,
    device_type: geo.device_type,
    browser_name: geo.browser_name,
    os_name: geo.os_name,
    interesting_score: score,
    country_code: geo.country_code,
    country_name: geo.country_name,
  };
}

function sessionListRow(ctx: RunContext, s: ListedSession): Row {
  const { batch, index } = s;
  const paths = ctx.dictionaries.values.path;
  const geo = sessionContext(ctx, batch, index);
  const events = sessionEventsOf(ctx, websiteOf(ctx, batch), batch, index)
    .filter((e) => e.timeMs <= ctx.toMs)
    .map((e) => [e.id, formatDateTime64(e.timeMs), e.name, paths[e.path] ?? '', e.properties]);
  return {
    session_id: s.id,
    first_visit: formatDateTime64(s.firstMs),
    last_visit: formatDateTime64(s.lastMs),
    page_views: s.pageViews,
    visitor_id: visitorIdOf(batch, index),
    country: geo.country,
    referrer: geo.referrer,
    device_type: geo.device_type,
    browser_name: geo.browser_name,
    os_name: geo.os_name,
    events,
    country_code: geo.country_code,
    country_name: geo.country_name,
  };
}

/** The session a session_events request names, or null when no session of the scope has that id. */
function* sessionEventRows(ctx: RunContext): PassSteps<Row[]> {
  const test = ctx.filters.tests.find((t) => t.field === 'session_id');
  if (!test) throw new Error("Missing required filter: 'session_id'.");
  const parsed = test.op === 'eq' ? parseSessionId(test.values[0] ?? '') : null;
  const paths = ctx.dictionaries.values.path;
  const rows: Row[] = [];
  const collect = (batch: SessionBatch, i: number): void => {
    const id = sessionIdOf(batch, i);
    const geo = sessionContext(ctx, batch, i);
    for (const e of sessionEventsOf(ctx, websiteOf(ctx, batch), batch, i)) {
      if (e.timeMs < ctx.fromMs || e.timeMs > ctx.toMs) continue;
      rows.push({
        session_id: id,
        event_id: e.id,
        time: formatDateTime64(e.timeMs),
        event_name: e.name,
        path: paths[e.path] ?? '',
        properties: e.name === 'page_exit' ? JSON.stringify({ time_on_page: e.timeOnPage }) : (e.properties ?? '{}'),
        device_type: geo.device_type,
        browser_name: geo.browser_name,
        country: geo.country,
      });
    }
  };
  if (parsed) {
    const dayStart = parsed.day * 86_400_000;
    yield* scanWithIngestedSteps(ctx, (batch, i) => collect(batch, i), Math.max(ctx.fromMs, dayStart), Math.min(ctx.toMs, dayStart + 86_399_999));
  } else {
    yield* scanWithIngestedSteps(ctx, (batch, i) => collect(batch, i));
  }
  return rows.sort((a, b) => (a.time as string).localeCompare(b.time as string) || (a.session_id as string).localeCompare(b.session_id as string));
}

/** The fields of the sessions and visitors per group (device, browser, page). */
const GROUP_FIELDS = { name: 'string', sessions: 'integer', visitors: 'integer' } as const;

/**
 * The sessions family: its types' fields and meta are in sessions-catalogue.json, but for the
 * {@link GROUP_FIELDS} of the groupings, whose live meta lists none.
 */
const FAMILY: QueryFamilySpec = { name: 'sessions', catalogue: readCatalogue('sessions', catalogue) };

/** What every sessions declaration below shares. */
const defineSessionsType = declareUnder({
  family: FAMILY,
  filters: ["profile_id", "anonymous_id"],
});

/** The live sessions builders. */
export const sessionTypes: QueryTypeDefinition[] = [
  defineSessionsType({
    name: 'session_metrics',
    customizable: true,
    paging: 'self',
    readsTrackedEvents: true,
    *steps(ctx) {
      const passes = pathPasses(ctx);
      let sessions = 0;
      let timed = 0;
      let timeTotal = 0;
      let bounces = 0;
      let events = 0;
      yield* scanWithIngestedSteps(ctx, (batch, i, matched, _visitor, weight) => {
        const from = batch.pageOffsets[i] as number;
        const to = batch.pageOffsets[i + 1] as number;
        let seconds = 0;
        for (let p = from; p < to; p++) if (passes(batch.pagePaths[p] as number)) seconds += batch.pageTimeS[p] as number;
        const custom = (batch.eventOffsets[i + 1] as number) - (batch.eventOffsets[i] as number);
        sessions += weight;
        if (seconds > 0) {
          timed += weight;
          timeTotal += seconds * weight;
        }
        if (matched === 1 && seconds < 10 && custom === 0) bounces += weight;
        events += (2 * matched + custom) * weight;
      });
      events += (yield* countTrackedSteps(ctx, () => 0)).get(0) ?? 0;
      return [
        {
          total_sessions: sessions,
          avg_session_duration: timed > 0 ? round2(timeTotal / timed) : null,
          bounce_rate: sessions > 0 ? round2((bounces / sessions) * 100) : null,
          total_events: events,
        },
      ];
    },
  }),
  defineSessionsType({
    name: 'session_duration_distribution',
    derives: [DURATION_RANGE_DIGEST],
    customizable: true,
    *steps(ctx) {
      const groups = allowsDigests(ctx)
        ? yield* countDurationRangesByDay(ctx)
        : (yield* countPageviews(ctx, (batch, p) => {
            const seconds = batch.pageTimeS[p] as number;
            return seconds > 0 ? durationRange(seconds) : null;
          })).groups;
      return DURATION_RANGES.flatMap(([label], k) => {
        const c = groups.get(k);
        return c ? [{ duration_range: label, sessions: c.sessions, visitors: c.visitors }] : [];
      }).sort((a, b) => b.sessions - a.sessions);
    },
  }),
  defineSessionsType({
    name: 'sessions_by_device',
    customizable: true,
    fields: GROUP_FIELDS,
    derives: [DIMENSION_DAY_DIGESTS.device_type],
    steps(ctx) {
      const devices = ctx.dictionaries.values.device_type;
      return sessionsBy(ctx, 'device_type', (code) => deviceLabel(devices[code]));
    },
  }),
  defineSessionsType({
    name: 'sessions_by_browser',
    customizable: true,
    limit: 100,
    fields: GROUP_FIELDS,
    derives: [DIMENSION_DAY_DIGESTS.browser_name],
    steps(ctx) {
      const browsers = ctx.dictionaries.values.browser_name;
      return sessionsBy(ctx, 'browser_name', (code) => browsers[code] || null);
    },
  }),
  defineSessionsType({
    name: 'sessions_time_series',
    customizable: true,
    derives: [SESSION_SPREAD_DIGEST],
    *steps(ctx) {
      const passes = pathPasses(ctx);
      const digests = allowsDigests(ctx);
      const counts: DistinctGroups<number> = digests ? createDaySeries() : createDistinctGroups<number>();
      let serial = 0;
      const visit = (batch: SessionBatch, i: number, visitorKey: number, weight: number): void => {
        serial++;
        let at = batch.startMs[i] as number;
        const to = batch.pageOffsets[i + 1] as number;
        // A session that runs past midnight (UTC) counts on both days, as live.
        for (let p = batch.pageOffsets[i] as number; p < to; p++) {
          if (at > ctx.toMs) break;
          if (passes(batch.pagePaths[p] as number)) counts.add(Math.floor(at / DAY_MS), serial, visitorKey, weight);
          at += pageStayMs(batch, p);
        }
      };
      const lastDay = Math.floor(ctx.toMs / DAY_MS);
      const lastWhole = ctx.toMs >= (lastDay + 1) * DAY_MS - 1;
      const digested =
        digests &&
        (yield* walkDigestDaysSteps(ctx, {
          part: (fromMs, toMs) => scanIdentifiedAndIngestedSessions(ctx, (batch, i, _matched, visitorKey, weight) => visit(batch, i, visitorKey, weight), fromMs, toMs),
          whole(website, day, ingested) {
            let cut = false;
            const work = foldDigestDay(ctx, SESSION_SPREAD_DIGEST, website, day, (digest) => {
              // Pages on a last day the range cuts are counted up to its end only: such a day's sessions are visited.
              cut = !lastWhole && day + digest.sessions.length - 1 >= lastDay;
              if (!cut) (counts as DaySeries).fold(day, digest, lastDay);
            });
            if (cut) {
              scanIdentifiedAndIngestedSessions(ctx, (batch, i, _matched, visitorKey, weight) => visit(batch, i, visitorKey, weight), day * DAY_MS, (day + 1) * DAY_MS - 1);
              return work + ctx.traffic.sessions(website, day).count;
            }
            ingested((session) => visit(session.batch, session.index, session.visitorKey, session.batch.weight));
            return work;
          },
        }));
      if (!digested) yield* scanWithIngestedSteps(ctx, (batch, i, _matched, visitorKey, weight) => visit(batch, i, visitorKey, weight));
      return [...counts.groups]
        .sort(([a], [b]) => a - b)
        .map(([day, c]) => ({ date: formatDate(day * DAY_MS), sessions: c.sessions, visitors: c.visitors }));
    },
  }),
  defineSessionsType({
    name: 'session_flow',
    derives: [SESSION_FLOW_DIGEST],
    customizable: true,
    paging: 'self',
    *steps(ctx) {
      const passes = pathPasses(ctx);
      const paths = ctx.dictionaries.values.path;
      // By transition key, in the order first seen; a session's moves come together, so the last session counted dedupes them.
      const flows = new Map<number, { transitions: number; sessions: number; lastSession: number }>();
      const flowOf = (key: number): { transitions: number; sessions: number; lastSession: number } => {
        let flow = flows.get(key);
        if (!flow) flows.set(key, (flow = { transitions: 0, sessions: 0, lastSession: 0 }));
        return flow;
      };
      let serial = 0;
      const visit = (batch: SessionBatch, i: number, weight: number): void => {
        serial++;
        visitTransitions(batch, i, passes, (key) => {
          const flow = flowOf(key);
          flow.transitions += weight;
          if (flow.lastSession === serial) return;
          flow.lastSession = serial;
          flow.sessions += weight;
        });
      };
      // Without filters on one website: whole days from their digest of moves, sums of whole numbers in the same order of keys.
      const digested = yield* walkDigestDaysSteps(ctx, {
        part: (fromMs, toMs) => scanIdentifiedAndIngestedSessions(ctx, (batch, i, _matched, _visitor, weight) => visit(batch, i, weight), fromMs, toMs),
        whole(website, day, ingested) {
          const work = foldDigestDay(ctx, SESSION_FLOW_DIGEST, website, day, (digest) => {
            const w = digest.weight;
            for (let k = 0; k < digest.keys.length; k++) {
              const flow = flowOf(digest.keys[k] as number);
              flow.transitions += (digest.transitions[k] as number) * w;
              flow.sessions += (digest.sessions[k] as number) * w;
            }
          });
          ingested((session) => visit(session.batch, session.index, session.batch.weight));
          return work;
        },
      });
      if (!digested) yield* scanWithIngestedSteps(ctx, (batch, i, _matched, _visitor, weight) => visit(batch, i, weight));
      return [...flows]
        .map(([key, flow]) => {
          const from = paths[Math.floor(key / 65_536)] ?? '';
          const next = paths[key % 65_536] ?? '';
          return { from_path: from, to_path: next, name: `${from} → ${next}`, transitions: flow.transitions, sessions: flow.sessions };
        })
        .sort((a, b) => b.transitions - a.transitions || (a.name < b.name ? -1 : 1))
        .slice(0, 100);
    },
  }),
  defineSessionsType({
    name: 'session_pages',
    derives: [PAGE_DAY_DIGESTS.all],
    customizable: true,
    limit: 100,
    fields: GROUP_FIELDS,
    *steps(ctx) {
      const paths = ctx.dictionaries.values.path;
      // Without filters on one website: whole days from their digest of page views, as top_pages reads them.
      const counts = allowsDigests(ctx) ? yield* groupPageViewsSteps(ctx, 'all') : (yield* countPageviews(ctx, (batch, p) => batch.pagePaths[p] as number)).groups;
      return [...counts]
        .map(([path, c]) => ({ name: paths[path] ?? '', sessions: c.sessions, visitors: c.visitors }))
        .filter((row) => row.name !== '')
        .sort(bySessions);
    },
  }),
  defineSessionsType({
    name: 'interesting_sessions',
    derives: [errorDerivation],
    paging: 'self',
    readsTrackedEvents: true,
    *steps(ctx) {
      const tracked = yield* trackedBySession(ctx);
      const errorBatches = new Map<SessionBatch, ErrorBatch>();
      // A day's errors derived again count as the day's scan counts them (scanSessionsSteps).
      const errorsOf = (batch: SessionBatch): ErrorBatch => {
        let errors = errorBatches.get(batch);
        if (!errors) {
          errors = batch.ingested ? noErrors(batch) : ctx.traffic.derived(errorDerivation, websiteOf(ctx, batch), batch.day);
          errorBatches.set(batch, errors);
        }
        return errors;
      };
      const limit = ctx.limit ?? 10;
      const top = yield* rankInterestingSessions(ctx, tracked, errorsOf, ctx.offset + limit);
      return top.slice(ctx.offset, ctx.offset + limit).map((r) => interestingRow(ctx, r));
    },
  }),
  defineSessionsType({
    name: 'session_list',
    paging: 'self',
    *steps(ctx) {
      const limit = ctx.limit ?? 25;
      const sessions = (yield* listRecentSessions(ctx, ctx.offset + limit)).sort((a, b) => b.firstMs - a.firstMs || (a.id < b.id ? 1 : -1));
      return sessions.slice(ctx.offset, ctx.offset + limit).map((s) => sessionListRow(ctx, s));
    },
  }),
  defineSessionsType({
    name: 'session_events',
    filters: ["session_id"],
    customizable: true,
    limit: 500,
    steps: sessionEventRows,
  }),
];

/** The same list under the skeleton's name. */
export const sessionsTypes = sessionTypes;
