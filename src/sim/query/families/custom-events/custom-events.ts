import { round2 } from '../../readers/aggregate.js';
import type { EventCursor } from '../../../ingest/event-store.js';
import { createKeyDistinct, identityOf, scanCustomEvents, scanGeneratedEvents, scanTrackedOccurrences, type DistinctKey, type EventOccurrence } from './custom-event-scan.js';
import { createBucketer } from '../../engine/dates.js';
import { formatDateTime64 } from '../../readers/date-time64.js';
import { clientVersionsAt } from '../../readers/client-versions.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { defineQueryType, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import { customEventDetails } from '../../../model/derived/custom-event-details.js';
import { deviceDetailsOf } from '../../../model/derived/device-details.js';
import { collectPropertyStats, rankedValues, type PropertyStats } from './event-property-stats.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import { createFirstSelection } from '../../readers/select-first.js';
import { deviceLabel } from '../../engine/labels.js';
import catalogue from './custom-events-catalogue.json' with { type: 'json' };

/**
 * The custom-events family: its types read analytics.custom_events, deriving customEventDetails
 * on each day of their range; their fields and meta are in custom-events-catalogue.json.
 */
const FAMILY: QueryFamilySpec = { name: 'custom-events', table: 'analytics.custom_events', derives: [customEventDetails], catalogue: readCatalogue('custom-events', catalogue) };

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `part` of `whole` in percent, two decimals (`whole` > 0). */
const share = (part: number, whole: number): number => round2((part * 100) / whole);

/** Weighted totals and distinct counts of one group of custom events. */
interface EventGroup {
  readonly index: number;
  total: number;
  users: number;
  sessions: number;
  names: number;
  pages: number;
  withProperties: number;
  first: number;
  last: number;
}

/**
 * Counts of one group of custom events from one half (generated or tracked), with the names
 * and pages behind its distinct counts so that two halves merge exactly.
 */
interface HalfGroup {
  readonly index: number;
  total: number;
  users: number;
  sessions: number;
  withProperties: number;
  first: number;
  last: number;
  readonly names: Set<string>;
  readonly pages: Set<DistinctKey>;
}

/**
 * Groups occurrences by `keyOf`: a new user or session adds the weight of the occurrence that
 * first shows it, so generated samples count the real visitors they stand for.
 */
class GroupTally {
  readonly groups = new Map<string, HalfGroup>();
  private readonly isNewUser = createKeyDistinct();
  private readonly isNewSession = createKeyDistinct();
  /** Distinct users and sessions seen, a measure of the memory the tally holds. */
  distinct = 0;

  constructor(private readonly keyOf: (event: EventOccurrence) => string | null) {}

  add(event: EventOccurrence): void {
    const key = this.keyOf(event);
    if (key === null) return;
    let group = this.groups.get(key);
    if (!group) {
      group = { index: this.groups.size, total: 0, users: 0, sessions: 0, withProperties: 0, first: event.timeMs, last: event.timeMs, names: new Set(), pages: new Set() };
      this.groups.set(key, group);
    }
    const w = event.weight;
    group.total += w;
    if (event.hasProperties) group.withProperties += w;
    if (event.timeMs < group.first) group.first = event.timeMs;
    if (event.timeMs > group.last) group.last = event.timeMs;
    if (event.userKey !== null && this.isNewUser(group.index, event.userKey)) {
      group.users += w;
      this.distinct++;
    }
    if (event.sessionKey !== null && this.isNewSession(group.index, event.sessionKey)) {
      group.sessions += w;
      this.distinct++;
    }
    group.names.add(event.name);
    if (event.pathKey !== null) group.pages.add(event.pathKey);
  }
}

/** A tally of tracked events kept between runs, with where it stopped reading each owner. */
interface TrackedFold {
  tally: GroupTally | null;
  readonly cursors: Map<string, EventCursor>;
}

/** Distinct tracked users and sessions a kept fold may hold; past it, each run tallies afresh. */
const MAX_FOLD_DISTINCT = 100_000;

/** `union.size` of two sets without building it. */
function unionSize<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  let extra = 0;
  for (const value of b) if (!a.has(value)) extra++;
  return a.size + extra;
}

/**
 * Groups the filtered custom events by `keyOf` (null skips the event), counting events, distinct
 * users, sessions, event names and pages per group; a name or page counts once.
 *
 * The two halves are counted apart and merged: the generated events once per range (kept in
 * `ctx.memo` under `part`), the tracked ones by a fold the next run brings up to date with the
 * events appended since, so steady `POST /track` costs each run the new events, not all of
 * them. Merging is exact: generated users and sessions are numbers and tracked ones strings, so
 * their distinct counts add; names and pages are unions.
 */
function* groupEvents(ctx: RunContext, part: string, keyOf: (event: EventOccurrence) => string | null): PassSteps<Map<string, EventGroup>> {
  const generated = yield* ctx.memoSteps(`groups:${part}:generated`, function* () {
    const tally = new GroupTally(keyOf);
    yield* scanGeneratedEvents(ctx, (event) => tally.add(event));
    return tally.groups;
  });
  const fold = ctx.memo<TrackedFold>(`groups:${part}:tracked`, () => ({ tally: new GroupTally(keyOf), cursors: new Map() }));
  let tracked: GroupTally;
  // The kept tally as this pass found it: another pass may stop keeping it meanwhile (below),
  // and this one goes on with the events it claimed.
  const kept = fold.tally;
  if (kept) {
    yield* scanTrackedOccurrences(ctx, (event) => kept.add(event), fold.cursors);
    tracked = kept;
    if (tracked.distinct > MAX_FOLD_DISTINCT) fold.tally = null;
  } else {
    tracked = new GroupTally(keyOf);
    yield* scanTrackedOccurrences(ctx, (event) => tracked.add(event));
  }
  const groups = new Map<string, EventGroup>();
  for (const key of new Set([...generated.keys(), ...tracked.groups.keys()])) {
    const a = generated.get(key);
    const b = tracked.groups.get(key);
    const group: EventGroup = {
      index: groups.size,
      total: (a?.total ?? 0) + (b?.total ?? 0),
      users: (a?.users ?? 0) + (b?.users ?? 0),
      sessions: (a?.sessions ?? 0) + (b?.sessions ?? 0),
      names: a && b ? unionSize(a.names, b.names) : (a ?? b)?.names.size ?? 0,
      pages: a && b ? unionSize(a.pages, b.pages) : (a ?? b)?.pages.size ?? 0,
      withProperties: (a?.withProperties ?? 0) + (b?.withProperties ?? 0),
      first: Math.min(a?.first ?? Infinity, b?.first ?? Infinity),
      last: Math.max(a?.last ?? -Infinity, b?.last ?? -Infinity),
    };
    groups.set(key, group);
  }
  return groups;
}

/** The custom events per name, ordered by users then events, as the service lists them. */
function* customEventRows(ctx: RunContext): PassSteps<Row[]> {
  const groups = [...(yield* groupEvents(ctx, 'name', (e) => e.name))];
  groups.sort(([a, x], [b, y]) => y.users - x.users || y.total - x.total || compareText(a, b));
  const users = groups.reduce((sum, [, g]) => sum + g.users, 0);
  return groups.slice(0, ctx.limit ?? 10_000).map(([name, g]) => ({
    name,
    total_events: g.total,
    unique_users: g.users,
    unique_sessions: g.sessions,
    last_occurrence: formatDateTime64(g.last),
    first_occurrence: formatDateTime64(g.first),
    events_with_properties: g.withProperties,
    percentage: users > 0 ? share(g.users, users) : null,
  }));
}

/** One row per (event, key, value), most frequent first. */
function* propertyValueRows(ctx: RunContext): PassSteps<Row[]> {
  const rows: { name: string; property_key: string; property_value: string; count: number }[] = [];
  for (const stats of yield* collectPropertyStats(ctx)) {
    for (const [value, count] of stats.values) rows.push({ name: stats.event, property_key: stats.key, property_value: value, count });
  }
  rows.sort(
    (a, b) => b.count - a.count || compareText(a.name, b.name) || compareText(a.property_key, b.property_key) || compareText(a.property_value, b.property_value),
  );
  return rows.slice(0, ctx.limit ?? 10_000);
}

/** Events fired from a page, per path. */
function* byPathRows(ctx: RunContext): PassSteps<Row[]> {
  const groups = [...(yield* groupEvents(ctx, 'path', (e) => (e.path === null || e.path === '' ? null : e.path)))];
  groups.sort(([a, x], [b, y]) => y.total - x.total || compareText(a, b));
  return groups.slice(0, ctx.limit ?? 50).map(([name, g]) => ({
    name,
    total_events: g.total,
    unique_event_types: g.names,
    unique_users: g.users,
  }));
}

/** Daily totals in the request time zone (the service ignores the granularity here); no gap filling. */
function* trendRows(ctx: RunContext): PassSteps<Row[]> {
  const bucket = createBucketer('day', ctx.timezone);
  const groups = [...(yield* groupEvents(ctx, 'day', (e) => bucket(e.timeMs)))];
  groups.sort(([a], [b]) => compareText(a, b));
  return groups.slice(0, ctx.limit ?? 1000).map(([date, g]) => ({
    date,
    total_events: g.total,
    unique_event_types: g.names,
    unique_users: g.users,
    unique_sessions: g.sessions,
    unique_pages: g.pages,
  }));
}

/** Events per bucket (day, or hour when asked) and name: bucket ascending, then events descending. */
function* trendByEventRows(ctx: RunContext): PassSteps<Row[]> {
  const bucket = createBucketer(ctx.unit, ctx.timezone);
  const counts = new Map<string, { date: string; event_name: string; total_events: number }>();
  yield* scanCustomEvents(ctx, (event) => {
    const date = bucket(event.timeMs);
    const key = `${date}\u0000${event.name}`;
    const row = counts.get(key);
    if (row) row.total_events += event.weight;
    else counts.set(key, { date, event_name: event.name, total_events: event.weight });
  });
  return [...counts.values()]
    .sort((a, b) => compareText(a.date, b.date) || b.total_events - a.total_events || compareText(a.event_name, b.event_name))
    .slice(0, ctx.limit ?? 10_000);
}

/** One row of totals over every filtered event (zeros when none). */
function* summaryRows(ctx: RunContext): PassSteps<Row[]> {
  const g = (yield* groupEvents(ctx, 'all', () => '')).get('');
  return [
    {
      total_events: g?.total ?? 0,
      unique_event_types: g?.names ?? 0,
      unique_users: g?.users ?? 0,
      unique_sessions: g?.sessions ?? 0,
      unique_pages: g?.pages ?? 0,
    },
  ];
}

/** Distinct raw values and events per (event, key), most used first. */
function* cardinalityRows(ctx: RunContext): PassSteps<Row[]> {
  return (yield* collectPropertyStats(ctx))
    .sort((a, b) => b.total - a.total)
    .slice(0, ctx.limit ?? 100)
    .map((s) => ({ event_name: s.event, property_key: s.key, unique_values: s.raws.size, occurrences: s.total }));
}

/**
 * The latest events, newest first (ties by name, then as scanned), paged with the request's
 * limit and offset: only the events up to the page's end are kept, not every event of the range.
 */
function* recentRows(ctx: RunContext): PassSteps<Row[]> {
  const latest = createFirstSelection<EventOccurrence>(ctx.offset + (ctx.limit ?? 50), (a, b) => b.timeMs - a.timeMs || compareText(a.name, b.name));
  yield* scanCustomEvents(ctx, (event) => latest.add(event));
  return latest.items().slice(ctx.offset).map((event) => {
    const id = identityOf(event);
    return {
      event_name: event.name,
      namespace: id.namespace,
      path: event.path,
      source: id.source,
      properties: id.properties,
      anonymous_id: id.anonymousId,
      session_id: id.sessionId,
      timestamp: formatDateTime64(event.timeMs),
    };
  });
}

const NUMERIC = /^-?[0-9]+(\.[0-9]+)?$/;
const BOOLEAN = new Set(['true', 'false', '1', '0', 'yes', 'no']);
const DATE_LIKE = /^([0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{2}\/[0-9]{2}\/[0-9]{4}|[0-9]{10,13}$)/;

/** The service's schema guess for one property key: type flags, coverage and a rendering hint. */
function classify(stats: PropertyStats): Row {
  const ranked = rankedValues(stats);
  const top = ranked.slice(0, 10);
  const coverage = top.reduce((sum, [, c]) => sum + c, 0) / stats.total;
  let lengthSum = 0;
  let maxLength = 0;
  let numeric = 0;
  let boolean = 0;
  let dateLike = 0;
  let urlLike = 0;
  for (const [value, count] of ranked) {
    lengthSum += value.length * count;
    if (value.length > maxLength) maxLength = value.length;
    if (NUMERIC.test(value)) numeric += count;
    if (BOOLEAN.has(value.toLowerCase())) boolean += count;
    if (DATE_LIKE.test(value)) dateLike += count;
    if (value.startsWith('/') || value.startsWith('http')) urlLike += count;
  }
  const avgLength = lengthSum / stats.total;
  const flags = {
    is_numeric: numeric === stats.total ? 1 : 0,
    is_boolean: boolean === stats.total ? 1 : 0,
    is_date_like: dateLike > stats.total * 0.8 ? 1 : 0,
    is_url_like: urlLike > stats.total * 0.8 ? 1 : 0,
  };
  const cardinality = stats.values.size;
  const longText = avgLength > 50 || maxLength > 200;
  const inferred = flags.is_boolean
    ? 'boolean'
    : flags.is_numeric
      ? 'numeric'
      : flags.is_date_like
        ? 'datetime'
        : flags.is_url_like
          ? 'url'
          : cardinality <= 20
            ? 'categorical'
            : longText
              ? 'text'
              : coverage >= 0.6
                ? 'aggregatable'
                : 'high_cardinality';
  const render =
    flags.is_boolean || cardinality <= 5
      ? 'distribution_bar'
      : cardinality <= 20
        ? 'top_n_chart'
        : longText
          ? 'detail_only'
          : coverage >= 0.6
            ? 'top_n_with_other'
            : 'detail_only';
  return {
    event_name: stats.event,
    property_key: stats.key,
    cardinality,
    total_count: stats.total,
    coverage_ratio: Math.round(coverage * 10_000) / 10_000,
    avg_length: Math.round(avgLength * 10) / 10,
    max_length: maxLength,
    ...flags,
    inferred_type: inferred,
    render_strategy: render,
    sample_values: top.map(([value, count]) => [value, count]),
  };
}

function* classificationRows(ctx: RunContext): PassSteps<Row[]> {
  return (yield* collectPropertyStats(ctx))
    .sort((a, b) => b.total - a.total)
    .slice(0, ctx.limit ?? 500)
    .map(classify);
}

/** A value's row of a property key: its count and share of the key's total, then `last` (its rank, or the key's cardinality). */
function propertyValueRow(stats: PropertyStats, value: string, count: number, last: 'rank' | 'cardinality', lastValue: number): Row {
  return { event_name: stats.event, property_key: stats.key, property_value: value, count, total: stats.total, percentage: share(count, stats.total), [last]: lastValue };
}

/** The `limit` (default 10) most frequent values of every key, ranked within the key. */
function* topValueRows(ctx: RunContext): PassSteps<Row[]> {
  const cutoff = ctx.limit ?? 10;
  return (yield* collectPropertyStats(ctx)).flatMap((stats) =>
    rankedValues(stats)
      .slice(0, cutoff)
      .map(([value, count], k) => propertyValueRow(stats, value, count, 'rank', k + 1)),
  );
}

/** Every value of the keys with at most 20 distinct values. */
function* distributionRows(ctx: RunContext): PassSteps<Row[]> {
  return (yield* collectPropertyStats(ctx))
    .filter((stats) => stats.values.size <= 20)
    .flatMap((stats) =>
      rankedValues(stats).map(([value, count]) => propertyValueRow(stats, value, count, 'cardinality', stats.values.size)),
    )
    .slice(0, ctx.limit ?? 100);
}

/** One row per (event, key) with the event's totals and the key's top 5 values; one empty-key row for an event without properties. */
function* discoveryRows(ctx: RunContext): PassSteps<Row[]> {
  const events = yield* groupEvents(ctx, 'name', (e) => e.name);
  const byEvent = new Map<string, PropertyStats[]>();
  for (const stats of yield* collectPropertyStats(ctx)) {
    const list = byEvent.get(stats.event) ?? [];
    list.push(stats);
    byEvent.set(stats.event, list);
  }
  const rows: Row[] = [];
  const ordered = [...events].sort(([a, x], [b, y]) => y.total - x.total || compareText(a, b));
  for (const [name, g] of ordered) {
    const base = { event_name: name, total_events: g.total, unique_users: g.users, unique_sessions: g.sessions };
    const keys = (byEvent.get(name) ?? []).sort((a, b) => b.values.size - a.values.size || compareText(a.key, b.key));
    if (keys.length === 0) rows.push({ ...base, property_key: '', unique_values: 0, top_values: [] });
    for (const stats of keys) {
      rows.push({
        ...base,
        property_key: stats.key,
        unique_values: stats.values.size,
        top_values: rankedValues(stats)
          .slice(0, 5)
          .map(([value, count]) => [value, count]),
      });
    }
  }
  return rows.slice(0, ctx.limit ?? 200);
}

const SEGMENT_DIMENSIONS = ['browser', 'browser_version', 'os', 'device', 'country'] as const;

/**
 * Events and sessions per value of each session dimension (browser, browser major, OS, device,
 * country), for the generated events (they all carry a session); tracked events have no page
 * session to segment them by.
 */
function* segmentRows(ctx: RunContext): PassSteps<Row[]> {
  const counts = new Map<string, { dimension: string; value: string; events: number; sessions: number; index: number }>();
  const isNewSession = createKeyDistinct();
  const { values } = ctx.dictionaries;
  yield* scanCustomEvents(ctx, (event) => {
    const origin = event.origin;
    if (origin.kind !== 'generated') return;
    const { dims } = origin.batch;
    const i = origin.session;
    const browser = values.browser_name[dims.browser_name[i] as number] ?? '';
    const major = clientVersionsAt(ctx, origin.batch, i).browser.split('.')[0] ?? '';
    const segment: Record<(typeof SEGMENT_DIMENSIONS)[number], string> = {
      browser,
      browser_version: major === '' ? browser : `${browser} ${major}`,
      os: values.os_name[dims.os_name[i] as number] ?? '',
      device: deviceLabel(values.device_type[dims.device_type[i] as number]),
      country: values.country[dims.country[i] as number] ?? '',
    };
    for (const dimension of SEGMENT_DIMENSIONS) {
      const value = segment[dimension];
      const key = `${dimension}\u0000${value}`;
      let row = counts.get(key);
      if (!row) {
        row = { dimension, value, events: 0, sessions: 0, index: counts.size };
        counts.set(key, row);
      }
      row.events += event.weight;
      if (event.sessionKey !== null && isNewSession(row.index, event.sessionKey)) row.sessions += event.weight;
    }
  });
  const order = new Map<string, number>(SEGMENT_DIMENSIONS.map((d, k) => [d, k]));
  return [...counts.values()]
    .sort((a, b) => (order.get(a.dimension) as number) - (order.get(b.dimension) as number) || b.events - a.events || compareText(a.value, b.value))
    .map(({ dimension, value, events, sessions }) => ({ dimension, value, events, sessions }));
}

/** The filters of most custom-events builders. */
const EVENT_FILTERS = ["profile_id", "path", "event_name", "website_id"];

/** The fields of a property value's share, which the top-values and distribution builders start with. */

/** The filters of the property builders. */
const PROPERTY_FILTERS = [...EVENT_FILTERS, "property_key"];

/** A custom-events type: on the older public list, paged by itself, reading tracked events. */
function defineEventType(spec: { name: string; filters: string[]; customizable?: boolean; steps(ctx: RunContext): PassSteps<Row[]> }): QueryTypeDefinition {
  return defineQueryType({
    name: spec.name,
    family: FAMILY,
    olderPublicAccess: true,
    filters: spec.filters,
    ...(spec.customizable === undefined ? {} : { customizable: spec.customizable }),
    paging: 'self',
    readsTrackedEvents: true,
    steps: spec.steps,
  });
}

/** The live custom-events builders. */
export const customEventTypes: QueryTypeDefinition[] = [
  defineEventType({
    name: 'custom_events',
    filters: ["profile_id", "path", "namespace", "website_id", "anonymous_id", "session_id", "event_name", "source"],
    customizable: true,
    steps: customEventRows,
  }),
  defineEventType({
    name: 'custom_event_properties',
    filters: ["profile_id", "path", "namespace", "website_id", "anonymous_id", "session_id", "event_name", "source", "property_key"],
    customizable: true,
    steps: propertyValueRows,
  }),
  defineEventType({
    name: 'custom_events_by_path',
    filters: EVENT_FILTERS,
    customizable: true,
    steps: byPathRows,
  }),
  defineEventType({
    name: 'custom_events_trends',
    filters: EVENT_FILTERS,
    steps: trendRows,
  }),
  defineEventType({
    name: 'custom_events_trends_by_event',
    filters: EVENT_FILTERS,
    steps: trendByEventRows,
  }),
  defineEventType({
    name: 'custom_events_summary',
    filters: EVENT_FILTERS,
    steps: summaryRows,
  }),
  defineEventType({
    name: 'custom_events_property_cardinality',
    filters: PROPERTY_FILTERS,
    steps: cardinalityRows,
  }),
  defineEventType({
    name: 'custom_events_recent',
    filters: EVENT_FILTERS,
    steps: recentRows,
  }),
  defineEventType({
    name: 'custom_events_property_classification',
    filters: PROPERTY_FILTERS,
    steps: classificationRows,
  }),
  defineEventType({
    name: 'custom_events_property_top_values',
    filters: PROPERTY_FILTERS,
    steps: topValueRows,
  }),
  defineEventType({
    name: 'custom_events_property_distribution',
    filters: PROPERTY_FILTERS,
    steps: distributionRows,
  }),
  defineEventType({
    name: 'custom_events_discovery',
    filters: EVENT_FILTERS,
    steps: discoveryRows,
  }),
  defineQueryType({
    name: 'custom_event_segments',
    family: FAMILY,
    insightsOnly: true,
    // The live builder reads the rows of one event name; its filter list is not public.
    filters: ['event_name'],
    // Its segments name the browser's major version: the device details of each day too.
    derives: [customEventDetails, deviceDetailsOf],
    // The live builder body of this insights-only type is not public: its meta (in the catalogue) is ours.
    steps: segmentRows,
  }),
];
