import { errorDerivation, errorFilename, errorStack } from '../../../model/derived/errors.js';
import { anonymousIdOf, sessionIdOf } from '../../../model/identity.js';
import { scanSessionsSteps } from '../../readers/scan.js';
import { createFirstSelection } from '../../readers/select-first.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import { clientVersionsAt } from '../../readers/client-versions.js';
import { deviceDetailsOf } from '../../../model/derived/device-details.js';
import { revenueDerivation } from '../../../model/derived/revenue.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, defineQueryType, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import { formatDate } from '../../engine/dates.js';
import { continuationComparisonRow } from './error-continuation.js';
import { customerImpactRow } from './error-impact.js';
import { byCountThenName, formatDateTime64, scanErrors, tallyErrors, tallyErrorsBy, type ErrorRecord, type ErrorTally } from './error-stats.js';
import { deviceLabel } from '../../engine/labels.js';
import catalogue from './errors-catalogue.json' with { type: 'json' };

/**
 * The errors family: its types read analytics.error_spans, deriving errorDerivation on each day
 * of their range; their fields and meta are in errors-catalogue.json.
 */
const FAMILY: QueryFamilySpec = { name: 'errors', table: 'analytics.error_spans', derives: [errorDerivation], catalogue: readCatalogue('errors', catalogue) };

/** The limit /v1/query passes to custom SQL when the request names none (`body.limit || 100`); the SQL applies no offset. */
const ROUTE_DEFAULT_LIMIT = 100;

/** The session context recent_errors and error_segments show for an error. */
interface ErrorContext {
  readonly browser_name: string;
  readonly browser_version: string;
  readonly os_name: string;
  readonly os_version: string;
  readonly device_type: string;
  readonly country: string;
  readonly region: string;
}

/**
 * The context of an error: its session's dimensions for a generated error; for an error posted
 * to `POST /errors`, what its request's User-Agent named (country and region unknown: '').
 */
function contextOf(ctx: RunContext, e: ErrorRecord): ErrorContext {
  const { source } = e;
  if (source.kind === 'ingested') {
    const { span } = source;
    return {
      browser_name: span.browserName,
      browser_version: span.browserVersion,
      os_name: span.osName,
      os_version: span.osVersion,
      device_type: span.deviceType,
      country: '',
      region: '',
    };
  }
  const { values } = ctx.dictionaries;
  const dims = source.sessions.dims;
  const at = source.sample;
  const versions = clientVersionsAt(ctx, source.sessions, at);
  return {
    browser_name: values.browser_name[dims.browser_name[at] as number] ?? '',
    browser_version: versions.browser,
    os_name: values.os_name[dims.os_name[at] as number] ?? '',
    os_version: versions.os,
    device_type: values.device_type[dims.device_type[at] as number] ?? '',
    country: values.country[dims.country[at] as number] ?? '',
    region: values.region[dims.region[at] as number] ?? '',
  };
}

/** What an error says of itself: ids, script, place and stack ('' and null where it has none). */
interface ErrorDetails {
  readonly anonymousId: string;
  readonly sessionId: string;
  readonly stack: string;
  readonly filename: string;
  readonly lineno: number | null;
  readonly colno: number | null;
}

function detailsOf(e: ErrorRecord): ErrorDetails {
  const { source } = e;
  if (source.kind === 'ingested') {
    const { span } = source;
    return {
      anonymousId: span.anonymousId,
      sessionId: span.sessionId,
      stack: span.stack,
      filename: span.filename,
      lineno: span.lineno,
      colno: span.colno,
    };
  }
  const { error } = source;
  return {
    anonymousId: anonymousIdOf(e.website.id, source.sessions.visitor[source.sample] as number),
    sessionId: sessionIdOf(source.sessions, source.sample),
    stack: errorStack(error, e.website.domain),
    filename: errorFilename(error, e.website.domain),
    lineno: error.lineno,
    colno: error.colno,
  };
}

/** Whether an error comes with a stack (fingerprints prefer such a representative). */
function hasStack(e: ErrorRecord): boolean {
  return e.source.kind === 'ingested' ? e.source.span.stack !== '' : e.source.error.frames.length > 0;
}

/**
 * The filtered error occurrences, newest first, with their session's context (recent_errors):
 * the first `limit` kept as the scan goes, as a stable sort of them all would order them.
 */
function* recentErrorRows(ctx: RunContext): PassSteps<Row[]> {
  const limit = ctx.limit ?? ROUTE_DEFAULT_LIMIT;
  const newest = createFirstSelection<ErrorRecord>(limit, (a, b) => b.timeMs - a.timeMs || a.sessionKey - b.sessionKey || a.order - b.order);
  yield* scanErrors(ctx, (e) => newest.add(e));
  return newest.items().map((e) => {
    const c = contextOf(ctx, e);
    const d = detailsOf(e);
    const countryCode = ctx.dictionaries.values.country.indexOf(c.country);
    return {
      message: e.message,
      stack: d.stack.slice(0, 1500),
      path: e.path,
      anonymous_id: d.anonymousId,
      session_id: d.sessionId,
      timestamp: formatDateTime64(e.timeMs),
      filename: d.filename,
      lineno: d.lineno,
      colno: d.colno,
      error_type: e.type,
      browser_name: c.browser_name,
      browser_version: c.browser_version,
      os_name: c.os_name,
      os_version: c.os_version,
      device_type: c.device_type,
      country: c.country,
      region: c.region,
      country_code: c.country,
      country_name: ctx.dictionaries.countryNames[countryCode] ?? c.country,
    };
  });
}

/** One row per message ranked by affected users, with its latest occurrence that has a stack. */
function* fingerprintRows(ctx: RunContext): PassSteps<Row[]> {
  const groups = yield* tallyErrors(ctx, (e) => e.message);
  const representative = new Map<string, ErrorRecord>();
  yield* scanErrors(ctx, (e) => {
    const best = representative.get(e.message);
    const withStack = hasStack(e);
    const bestHasStack = best !== undefined && hasStack(best);
    if (!best || (withStack && !bestHasStack) || (withStack === bestHasStack && e.timeMs > best.timeMs)) {
      representative.set(e.message, e);
    }
  });
  const requested = Math.trunc(ctx.limit ?? ROUTE_DEFAULT_LIMIT);
  const limit = Math.min(50, Math.max(1, requested));
  const rows = [...groups].map(([name, t]) => ({ name, t, e: representative.get(name) as ErrorRecord }));
  rows.sort(
    (a, b) =>
      b.t.users - a.t.users || b.t.sessions - a.t.sessions || b.t.count - a.t.count || b.t.lastSeenMs - a.t.lastSeenMs || (a.name < b.name ? -1 : 1),
  );
  return rows.slice(0, limit).map(({ name, t, e }) => {
    const d = detailsOf(e);
    return {
      name,
      count: t.count,
      users: t.users,
      sessions: t.sessions,
      path: e.path,
      error_type: e.type,
      filename: d.filename,
      line: d.lineno === 0 ? null : d.lineno,
      stack: d.stack.slice(0, 1000),
      last_seen: formatDateTime64(t.lastSeenMs),
    };
  });
}

/** Errors per UTC day (the live toDate(timestamp) applies no time zone), days without errors absent. */
function* dailyRows(ctx: RunContext, row: (day: string, tally: ErrorTally) => Row): PassSteps<Row[]> {
  const days = yield* tallyErrors(ctx, (e) => formatDate(e.timeMs));
  return [...days].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, tally]) => row(day, tally));
}

/**
 * Totals of the filtered errors, with the share of all sessions (unfiltered) that had one: the
 * sessions' weights summed as `totalSessions` sums them, in pieces.
 */
function* summaryRow(ctx: RunContext): PassSteps<Row> {
  const messages = new Set<string>();
  const all = (yield* tallyErrors(ctx, (e) => {
    messages.add(e.message);
    return 0;
  })).get(0) ?? { count: 0, users: 0, sessions: 0, lastSeenMs: 0 };
  const unfiltered = { ...ctx, filters: { masks: new Map<string, Uint8Array>(), excludesAll: false, tests: [] } };
  let sessions = 0;
  yield* scanSessionsSteps(unfiltered, (batch) => {
    sessions += batch.weight;
  });
  return {
    totalErrors: all.count,
    uniqueErrorTypes: messages.size,
    affectedUsers: all.users,
    affectedSessions: all.sessions,
    errorRate: sessions > 0 ? Math.round((all.sessions / sessions) * 10000) / 100 : null,
  };
}

const SEGMENT_DIMENSIONS = ['browser', 'browser_version', 'os', 'device', 'country'] as const;

/** The value of segment dimension `d` for an error's context (traffic_segments' expressions). */
function segmentValue(c: ErrorContext, d: number): string {
  switch (SEGMENT_DIMENSIONS[d]) {
    case 'browser':
      return c.browser_name;
    case 'browser_version':
      return c.browser_version === '' ? '' : `${c.browser_name} ${c.browser_version.split('.')[0] as string}`;
    case 'os':
      return c.os_name;
    case 'device':
      return deviceLabel(c.device_type);
    default:
      return c.country;
  }
}

/** Errors and error sessions per value of each session dimension, in the traffic_segments long form. */
/** The context field that segment dimension `dimension` reads, but for the browser version, which reads two. */
const SEGMENT_FIELDS = { browser: 'browser_name', os: 'os_name', device: 'device_type', country: 'country' } as const;

/**
 * {@link segmentValue} of dimension `d` as a key of errors: a dimension of one session field
 * reads that field alone, not the whole context (the client versions are the costly part).
 */
function segmentKeyOf(ctx: RunContext, d: number): (e: ErrorRecord) => string {
  const dimension = SEGMENT_DIMENSIONS[d] as (typeof SEGMENT_DIMENSIONS)[number];
  if (dimension === 'browser_version') return (e) => segmentValue(contextOf(ctx, e), d);
  const field = SEGMENT_FIELDS[dimension];
  const { values } = ctx.dictionaries;
  return (e) => {
    const { source } = e;
    let value: string;
    if (source.kind === 'ingested') {
      const { span } = source;
      value = field === 'browser_name' ? span.browserName : field === 'os_name' ? span.osName : field === 'device_type' ? span.deviceType : '';
    } else {
      value = values[field][source.sessions.dims[field][source.sample] as number] ?? '';
    }
    return dimension === 'device' ? deviceLabel(value) : value;
  };
}

function* segmentRows(ctx: RunContext): PassSteps<Row[]> {
  const rows: Row[] = [];
  // The browser versions read a day's device details: derived again, the day's scan counts them (scanActivitySteps).
  const tallies = yield* tallyErrorsBy(ctx, SEGMENT_DIMENSIONS.map((_, d) => segmentKeyOf(ctx, d)));
  SEGMENT_DIMENSIONS.forEach((dimension, d) => {
    const byValue = tallies[d] as Map<string, ErrorTally>;
    const ranked = [...byValue].sort(([a, x], [b, y]) => y.count - x.count || (a < b ? -1 : a > b ? 1 : 0));
    for (const [value, t] of ranked) rows.push({ dimension, value, errors: t.count, sessions: t.sessions });
  });
  return rows;
}

/** error_trends, error_frequency, error_chart_data: a row of the errors of each day (its fields and meta in errors-catalogue.json). */
function defineErrorSeries(spec: { name: string; row: (day: string, tally: ErrorTally) => Row }): QueryTypeDefinition {
  return defineQueryType({
    name: spec.name,
    family: FAMILY,
    olderPublicAccess: true,
    filters: ["message", "path", "error_type"],
    gate: 'error_tracking',
    steps: (ctx) => dailyRows(ctx, spec.row),
  });
}

/** What every errors declaration below shares. */
const defineErrorsType = declareUnder({ family: FAMILY });

/** What the error types on the older public list, gated by the error_tracking feature, share. */
const defineGatedErrorsType = declareUnder({
  family: FAMILY,
  olderPublicAccess: true,
  gate: 'error_tracking',
});

/** The live errors builders. */
export const errorsTypes: QueryTypeDefinition[] = [
  defineGatedErrorsType({
    name: 'recent_errors',
    derives: [errorDerivation, deviceDetailsOf],
    filters: ["path", "browser_name", "os_name", "country", "message", "device_type", "error_type"],
    customizable: true,
    paging: 'self',
    steps: recentErrorRows,
  }),
  defineGatedErrorsType({
    name: 'error_types',
    filters: ["message", "path", "error_type"],
    customizable: true,
    limit: 50,
    *steps(ctx) {
      const groups = yield* tallyErrors(ctx, (e) => e.message);
      return [...groups]
        .map(([name, t]) => ({ name, count: t.count, users: t.users, last_seen: formatDateTime64(t.lastSeenMs) }))
        .sort(byCountThenName((r) => r.count));
    },
  }),
  defineErrorsType({
    name: 'error_fingerprints',
    liveGate: 'error_tracking',
    filters: ["message", "path", "error_type"],
    customizable: true,
    paging: 'self',
    steps: fingerprintRows,
  }),
  defineErrorsType({
    name: 'error_customer_impact',
    derives: [errorDerivation, revenueDerivation],
    filters: ["message", "path"],
    customizable: false,
    paging: 'self',
    *steps(ctx) {
      return [yield* customerImpactRow(ctx)];
    },
  }),
  defineErrorsType({
    name: 'error_route_continuation_comparison',
    filters: ["message", "path"],
    customizable: false,
    paging: 'self',
    *steps(ctx) {
      return [yield* continuationComparisonRow(ctx)];
    },
  }),
  defineErrorSeries({
    name: 'error_trends',
    row: (day, t) => ({ date: day, errors: t.count, users: t.users }),
  }),
  defineGatedErrorsType({
    name: 'errors_by_page',
    filters: ["path", "message", "error_type"],
    customizable: true,
    limit: 20,
    *steps(ctx) {
      const groups = yield* tallyErrors(ctx, (e) => e.path || null);
      return [...groups]
        .map(([name, t]) => ({ name, errors: t.count, users: t.users }))
        .sort(byCountThenName((r) => r.errors));
    },
  }),
  defineErrorSeries({
    name: 'error_frequency',
    row: (day, t) => ({ date: day, count: t.count }),
  }),
  defineGatedErrorsType({
    name: 'error_summary',
    filters: ["message", "path", "error_type"],
    customizable: true,
    paging: 'self',
    *steps(ctx) {
      return [yield* summaryRow(ctx)];
    },
  }),
  defineErrorSeries({
    name: 'error_chart_data',
    row: (day, t) => ({ date: day, totalErrors: t.count, affectedUsers: t.users }),
  }),
  defineGatedErrorsType({
    name: 'errors_by_type',
    filters: ["path", "message", "error_type"],
    customizable: true,
    limit: 20,
    *steps(ctx) {
      const groups = yield* tallyErrors(ctx, (e) => e.type || null);
      return [...groups]
        .map(([name, t]) => ({ name, count: t.count, users: t.users, sessions: t.sessions }))
        .sort(byCountThenName((r) => r.count));
    },
  }),
  defineErrorsType({
    name: 'error_segments',
    derives: [errorDerivation, deviceDetailsOf],
    insightsOnly: true,
    // The live builder body of this insights-only type is not public: its meta is ours.
    steps: segmentRows,
  }),
];
