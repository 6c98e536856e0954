import { errorFilename, errorStack } from '../../model/derived/errors.js';
import { anonymousIdOf, sessionIdOf } from '../../model/identity.js';
import { totalSessions } from '../aggregate.js';
import { clientVersionsAt } from '../client-versions.js';
import { defineQueryType, type QueryTypeDefinition, type Row, type RunContext } from '../definition.js';
import { formatDate } from '../dates.js';
import { continuationComparisonRow } from '../error-continuation.js';
import { customerImpactRow } from '../error-impact.js';
import { byCountThenName, formatDateTime64, scanErrors, tallyErrors, type ErrorRecord, type ErrorTally } from '../error-stats.js';
import { deviceLabel } from '../labels.js';

/** The limit /v1/query passes to custom SQL when the request names none (`body.limit || 100`); the SQL applies no offset. */
const ROUTE_DEFAULT_LIMIT = 100;

/** A dimension value of the error's session. */
function sessionValue(ctx: RunContext, error: ErrorRecord, field: 'country' | 'region' | 'device_type' | 'browser_name' | 'os_name'): string {
  return ctx.dictionaries.values[field][error.sessions.dims[field][error.sample] as number] ?? '';
}

/** Every filtered error occurrence, newest first, with its session's context (recent_errors). */
function recentErrorRows(ctx: RunContext): Row[] {
  const errors: ErrorRecord[] = [];
  scanErrors(ctx, (e) => errors.push(e));
  errors.sort((a, b) => b.timeMs - a.timeMs || a.sessionKey - b.sessionKey || a.index - b.index);
  const limit = ctx.limit ?? ROUTE_DEFAULT_LIMIT;
  return errors.slice(0, limit).map((e) => {
    const country = sessionValue(ctx, e, 'country');
    const browser = sessionValue(ctx, e, 'browser_name');
    const os = sessionValue(ctx, e, 'os_name');
    const visitor = e.sessions.visitor[e.sample] as number;
    const countryCode = ctx.dictionaries.values.country.indexOf(country);
    return {
      message: e.kind.message,
      stack: errorStack(e.kind, e.website.domain).slice(0, 1500),
      path: ctx.dictionaries.values.path[e.activity.path[e.index] as number] ?? '',
      anonymous_id: anonymousIdOf(e.website.id, visitor),
      session_id: sessionIdOf(e.sessions, e.sample),
      timestamp: formatDateTime64(e.timeMs),
      filename: errorFilename(e.kind, e.website.domain),
      lineno: e.kind.lineno,
      colno: e.kind.colno,
      error_type: e.kind.type,
      browser_name: browser,
      browser_version: clientVersionsAt(ctx, e.sessions, e.sample).browser,
      os_name: os,
      os_version: clientVersionsAt(ctx, e.sessions, e.sample).os,
      device_type: sessionValue(ctx, e, 'device_type'),
      country,
      region: sessionValue(ctx, e, 'region'),
      country_code: country,
      country_name: ctx.dictionaries.countryNames[countryCode] ?? country,
    };
  });
}

/** One row per message ranked by affected users, with its latest occurrence that has a stack. */
function fingerprintRows(ctx: RunContext): Row[] {
  const groups = tallyErrors(ctx, (e) => e.kind.message);
  const representative = new Map<string, ErrorRecord>();
  scanErrors(ctx, (e) => {
    const best = representative.get(e.kind.message);
    const hasStack = e.kind.frames.length > 0;
    const bestHasStack = best !== undefined && best.kind.frames.length > 0;
    if (!best || (hasStack && !bestHasStack) || (hasStack === bestHasStack && e.timeMs > best.timeMs)) {
      representative.set(e.kind.message, e);
    }
  });
  const requested = Math.trunc(ctx.limit ?? ROUTE_DEFAULT_LIMIT);
  const limit = Math.min(50, Math.max(1, requested));
  const rows = [...groups].map(([name, t]) => ({ name, t, e: representative.get(name) as ErrorRecord }));
  rows.sort(
    (a, b) =>
      b.t.users - a.t.users || b.t.sessions - a.t.sessions || b.t.count - a.t.count || b.t.lastSeenMs - a.t.lastSeenMs || (a.name < b.name ? -1 : 1),
  );
  return rows.slice(0, limit).map(({ name, t, e }) => ({
    name,
    count: t.count,
    users: t.users,
    sessions: t.sessions,
    path: ctx.dictionaries.values.path[e.activity.path[e.index] as number] ?? '',
    error_type: e.kind.type,
    filename: errorFilename(e.kind, e.website.domain),
    line: e.kind.lineno === 0 ? null : e.kind.lineno,
    stack: errorStack(e.kind, e.website.domain).slice(0, 1000),
    last_seen: formatDateTime64(t.lastSeenMs),
  }));
}

/** Errors per UTC day (the live toDate(timestamp) applies no time zone), days without errors absent. */
function dailyRows(ctx: RunContext, row: (day: string, tally: ErrorTally) => Row): Row[] {
  const days = tallyErrors(ctx, (e) => formatDate(e.timeMs));
  return [...days].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, tally]) => row(day, tally));
}

/** Totals of the filtered errors, with the share of all sessions (unfiltered) that had one. */
function summaryRow(ctx: RunContext): Row {
  const messages = new Set<string>();
  const all = tallyErrors(ctx, (e) => {
    messages.add(e.kind.message);
    return 0;
  }).get(0) ?? { count: 0, users: 0, sessions: 0, lastSeenMs: 0 };
  const unfiltered = { ...ctx, filters: { masks: new Map<string, Uint8Array>(), excludesAll: false, tests: [] } };
  const sessions = totalSessions(unfiltered).sessions;
  return {
    totalErrors: all.count,
    uniqueErrorTypes: messages.size,
    affectedUsers: all.users,
    affectedSessions: all.sessions,
    errorRate: sessions > 0 ? Math.round((all.sessions / sessions) * 10000) / 100 : null,
  };
}

const SEGMENT_DIMENSIONS = ['browser', 'browser_version', 'os', 'device', 'country'] as const;

/** The value of segment dimension `d` for an error's session (traffic_segments' expressions). */
function segmentValue(ctx: RunContext, e: ErrorRecord, d: number): string {
  const browser = sessionValue(ctx, e, 'browser_name');
  switch (SEGMENT_DIMENSIONS[d]) {
    case 'browser':
      return browser;
    case 'browser_version': {
      const version = clientVersionsAt(ctx, e.sessions, e.sample).browser;
      return version === '' ? '' : `${browser} ${version.split('.')[0] as string}`;
    }
    case 'os':
      return sessionValue(ctx, e, 'os_name');
    case 'device':
      return deviceLabel(sessionValue(ctx, e, 'device_type'));
    default:
      return sessionValue(ctx, e, 'country');
  }
}

/** Errors and error sessions per value of each session dimension, in the traffic_segments long form. */
function segmentRows(ctx: RunContext): Row[] {
  const rows: Row[] = [];
  SEGMENT_DIMENSIONS.forEach((dimension, d) => {
    const byValue = tallyErrors(ctx, (e) => segmentValue(ctx, e, d));
    const ranked = [...byValue].sort(([a, x], [b, y]) => y.count - x.count || (a < b ? -1 : a > b ? 1 : 0));
    for (const [value, t] of ranked) rows.push({ dimension, value, errors: t.count, sessions: t.sessions });
  });
  return rows;
}

/** The live errors builders. */
export const errorsTypes: QueryTypeDefinition[] = [
  defineQueryType({
    name: 'recent_errors',
    family: 'errors',
    olderPublicAccess: true,
    filters: ["path", "browser_name", "os_name", "country", "message", "device_type", "error_type"],
    customizable: true,
    gate: 'error_tracking',
    paging: 'self',
    fields: {
      message: 'string',
      stack: 'string?',
      path: 'string',
      anonymous_id: 'string',
      session_id: 'string',
      timestamp: 'string',
      filename: 'string?',
      lineno: 'integer?',
      colno: 'integer?',
      error_type: 'string',
      browser_name: 'string?',
      browser_version: 'string?',
      os_name: 'string?',
      os_version: 'string?',
      device_type: 'string?',
      country: 'string?',
      region: 'string?',
      country_code: 'string',
      country_name: 'string',
    },
    meta: {
      default_order: "timestamp DESC",
      output_fields: [
        { name: "message", type: "string" },
        { name: "stack", type: "string" },
        { name: "path", type: "string" },
        { name: "anonymous_id", type: "string" },
        { name: "session_id", type: "string" },
        { name: "timestamp", type: "datetime" },
        { name: "filename", type: "string" },
        { name: "lineno", type: "number" },
        { name: "colno", type: "number" },
        { name: "error_type", type: "string" },
        { name: "browser_name", type: "string" },
        { name: "browser_version", type: "string" },
        { name: "os_name", type: "string" },
        { name: "os_version", type: "string" },
        { name: "device_type", type: "string" },
        { name: "country", type: "string" },
        { name: "region", type: "string" },
      ],
      description: "Recent JS errors with full context: message, stack (capped at 1500 chars), path, error_type, browser, OS, device, country. For aggregates use error_summary / errors_by_type / errors_by_page.",
      category: "Errors",
      tags: ["errors", "recent", "debugging"],
    },
    run(ctx) {
      return recentErrorRows(ctx);
    },
  }),
  defineQueryType({
    name: 'error_types',
    family: 'errors',
    olderPublicAccess: true,
    filters: ["message", "path", "error_type"],
    customizable: true,
    limit: 50,
    gate: 'error_tracking',
    fields: {
      name: 'string',
      count: 'integer',
      users: 'integer',
      last_seen: 'string',
    },
    meta: {
      description: "Top error MESSAGES with count, affected users, and last_seen. Group key is the message string. For grouping by JS class (TypeError, ReferenceError, …) use errors_by_type.",
      category: "Errors",
      tags: ["errors", "messages", "triage"],
    },
    run(ctx) {
      const groups = tallyErrors(ctx, (e) => e.kind.message);
      return [...groups]
        .map(([name, t]) => ({ name, count: t.count, users: t.users, last_seen: formatDateTime64(t.lastSeenMs) }))
        .sort(byCountThenName((r) => r.count));
    },
  }),
  defineQueryType({
    name: 'error_fingerprints',
    family: 'errors',
    filters: ["message", "path", "error_type"],
    customizable: true,
    paging: 'self',
    fields: {
      name: 'string',
      count: 'integer',
      users: 'integer',
      sessions: 'integer',
      path: 'string',
      error_type: 'string',
      filename: 'string',
      line: 'integer?',
      stack: 'string',
      last_seen: 'string',
    },
    meta: {
      description: "Exact error messages ranked by affected users and sessions, with one representative debugging context per message.",
      category: "Errors",
      tags: ["errors", "fingerprints", "debugging", "internal"],
    },
    run(ctx) {
      return fingerprintRows(ctx);
    },
  }),
  defineQueryType({
    name: 'error_customer_impact',
    family: 'errors',
    filters: ["message", "path"],
    customizable: false,
    paging: 'self',
    fields: {
      error_occurrences: 'integer',
      affected_sessions: 'integer',
      affected_visitor_identifiers: 'integer',
      linked_visitor_identifiers: 'integer',
      identified_profiles: 'integer',
      unlinked_visitor_identifiers: 'integer',
      ambiguous_profile_sessions: 'integer',
      identity_coverage_percent: 'number',
      identified_profiles_with_prior_attributed_completed_payment: 'integer',
      qualifying_profile_payment_history_observed: 'integer',
      payment_match_is_lower_bound: 'integer',
    },
    meta: {
      description: "Privacy-safe aggregate impact for one exact error fingerprint or canonical route. Returns counts and identity/payment coverage only; never visitor, profile, session, or transaction identifiers. Payment matches prove prior attributed completed payments, not active subscription status.",
      category: "Errors",
      tags: ["errors", "impact", "identity", "revenue", "internal"],
      output_fields: [
        { name: "error_occurrences", type: "number" },
        { name: "affected_sessions", type: "number" },
        { name: "affected_visitor_identifiers", type: "number" },
        { name: "linked_visitor_identifiers", type: "number" },
        { name: "identified_profiles", type: "number" },
        { name: "unlinked_visitor_identifiers", type: "number" },
        { name: "ambiguous_profile_sessions", type: "number" },
        { name: "identity_coverage_percent", type: "number", unit: "%" },
        { name: "identified_profiles_with_prior_attributed_completed_payment", type: "number" },
        { name: "qualifying_profile_payment_history_observed", type: "boolean" },
        { name: "payment_match_is_lower_bound", type: "boolean" },
      ],
    },
    run(ctx) {
      return [customerImpactRow(ctx)];
    },
  }),
  defineQueryType({
    name: 'error_route_continuation_comparison',
    family: 'errors',
    filters: ["message", "path"],
    customizable: false,
    paging: 'self',
    fields: {
      candidate_exposed_sessions: 'integer',
      candidate_control_sessions: 'integer',
      matched_exposed_sessions: 'integer',
      matched_control_sessions: 'integer',
      unmatched_exposed_sessions: 'integer',
      unmatched_control_sessions: 'integer',
      exposed_continued_sessions: 'integer',
      control_continued_sessions: 'integer',
      exposed_continuation_percent: 'number',
      control_continuation_percent: 'number',
    },
    meta: {
      description: "Privacy-safe aggregate continuation comparison for one exact error fingerprint or canonical route. It matches error-exposed sessions to same-route, day, device, and browser sessions without that exact error, then measures a different screen view within ten minutes. It is association evidence, never proof of causation.",
      category: "Errors",
      tags: ["errors", "behavior", "continuation", "internal"],
      output_fields: [
        { name: "candidate_exposed_sessions", type: "number" },
        { name: "candidate_control_sessions", type: "number" },
        { name: "matched_exposed_sessions", type: "number" },
        { name: "matched_control_sessions", type: "number" },
        { name: "unmatched_exposed_sessions", type: "number" },
        { name: "unmatched_control_sessions", type: "number" },
        { name: "exposed_continued_sessions", type: "number" },
        { name: "control_continued_sessions", type: "number" },
        { name: "exposed_continuation_percent", type: "number", unit: "%" },
        { name: "control_continuation_percent", type: "number", unit: "%" },
      ],
    },
    run(ctx) {
      return [continuationComparisonRow(ctx)];
    },
  }),
  defineQueryType({
    name: 'error_trends',
    family: 'errors',
    olderPublicAccess: true,
    filters: ["message", "path", "error_type"],
    gate: 'error_tracking',
    fields: {
      date: 'string',
      errors: 'integer',
      users: 'integer',
    },
    meta: {
      description: "Error counts over time to identify spikes and trends.",
      category: "Errors",
      tags: ["errors", "trends", "time-series"],
    },
    run(ctx) {
      return dailyRows(ctx, (day, t) => ({ date: day, errors: t.count, users: t.users }));
    },
  }),
  defineQueryType({
    name: 'errors_by_page',
    family: 'errors',
    olderPublicAccess: true,
    filters: ["path", "message", "error_type"],
    customizable: true,
    limit: 20,
    gate: 'error_tracking',
    fields: {
      name: 'string',
      errors: 'integer',
      users: 'integer',
    },
    meta: {
      description: "Error counts grouped by the page where they occurred.",
      category: "Errors",
      tags: ["errors", "pages"],
    },
    run(ctx) {
      const pages = ctx.dictionaries.values.path;
      const groups = tallyErrors(ctx, (e) => pages[e.activity.path[e.index] as number] || null);
      return [...groups]
        .map(([name, t]) => ({ name, errors: t.count, users: t.users }))
        .sort(byCountThenName((r) => r.errors));
    },
  }),
  defineQueryType({
    name: 'error_frequency',
    family: 'errors',
    olderPublicAccess: true,
    filters: ["message", "path", "error_type"],
    gate: 'error_tracking',
    fields: {
      date: 'string',
      count: 'integer',
    },
    meta: {
      description: "Error frequency and recurrence patterns.",
      category: "Errors",
      tags: ["errors", "frequency"],
    },
    run(ctx) {
      return dailyRows(ctx, (day, t) => ({ date: day, count: t.count }));
    },
  }),
  defineQueryType({
    name: 'error_summary',
    family: 'errors',
    olderPublicAccess: true,
    filters: ["message", "path", "error_type"],
    customizable: true,
    gate: 'error_tracking',
    paging: 'self',
    fields: {
      totalErrors: 'integer',
      uniqueErrorTypes: 'integer',
      affectedUsers: 'integer',
      affectedSessions: 'integer',
      errorRate: 'number?',
    },
    meta: {
      title: "Error Summary",
      description: "Overview of errors with calculated error rate",
      category: "Errors",
      tags: ["errors", "summary", "overview"],
    },
    run(ctx) {
      return [summaryRow(ctx)];
    },
  }),
  defineQueryType({
    name: 'error_chart_data',
    family: 'errors',
    olderPublicAccess: true,
    filters: ["message", "path", "error_type"],
    gate: 'error_tracking',
    fields: {
      date: 'string',
      totalErrors: 'integer',
      affectedUsers: 'integer',
    },
    meta: {
      description: "Error counts formatted for time-series chart display.",
      category: "Errors",
      tags: ["errors", "chart", "time-series"],
    },
    run(ctx) {
      return dailyRows(ctx, (day, t) => ({ date: day, totalErrors: t.count, affectedUsers: t.users }));
    },
  }),
  defineQueryType({
    name: 'errors_by_type',
    family: 'errors',
    olderPublicAccess: true,
    filters: ["path", "message", "error_type"],
    customizable: true,
    limit: 20,
    gate: 'error_tracking',
    fields: {
      name: 'string',
      count: 'integer',
      users: 'integer',
      sessions: 'integer',
    },
    meta: {
      description: "Errors grouped by JS error class (TypeError, ReferenceError, …) with count, affected users, and sessions. For grouping by error message use error_types.",
      category: "Errors",
      tags: ["errors", "class", "triage"],
    },
    run(ctx) {
      const groups = tallyErrors(ctx, (e) => e.kind.type || null);
      return [...groups]
        .map(([name, t]) => ({ name, count: t.count, users: t.users, sessions: t.sessions }))
        .sort(byCountThenName((r) => r.count));
    },
  }),
  defineQueryType({
    name: 'error_segments',
    family: 'errors',
    insightsOnly: true,
    fields: {
      dimension: 'string',
      value: 'string',
      errors: 'integer',
      sessions: 'integer',
    },
    // The live builder body of this insights-only type is not public: its meta is ours.
    meta: {
      description: "Errors broken down by one dimension (browser, browser version, OS, device, country): one row per dimension value.",
      category: "Errors",
      tags: ["segments", "insights"],
    },
    run(ctx) {
      return segmentRows(ctx);
    },
  }),
];
