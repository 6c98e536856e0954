import { defineQueryType, type QueryTypeDefinition } from '../definition.js';

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
    run() {
      return []; // TODO(#12): rows from the world model
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
    run() {
      return []; // TODO(#12): rows from the world model
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
    run() {
      return []; // TODO(#12): rows from the world model
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
    run() {
      return []; // TODO(#12): rows from the world model
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
    run() {
      return []; // TODO(#12): rows from the world model
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
    run() {
      return []; // TODO(#12): rows from the world model
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
    run() {
      return []; // TODO(#12): rows from the world model
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
    run() {
      return []; // TODO(#12): rows from the world model
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
    run() {
      return []; // TODO(#12): rows from the world model
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
    run() {
      return []; // TODO(#12): rows from the world model
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
    run() {
      return []; // TODO(#12): rows from the world model
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
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
];
