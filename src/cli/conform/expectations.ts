import { liveQueryTypeMetaSchema } from '../../contract/query-response.js';
import type { FieldType, QueryTarget, QueryTypeDefinition } from '../../sim/query/engine/definition.js';
import { GLOBAL_FILTER_FIELDS } from '../../sim/query/engine/filters.js';
import { allowedFilters, QUERY_TYPES } from '../../sim/query/registry.js';

/**
 * The live service's facts the checks compare against: the registry's live declarations
 * (`src/sim/query/`), and the per-request behaviour of live-fidelity.md section 3 and
 * observed-service.md. Nothing here reads the simulator's profile: the expectation is always live.
 */

/** Every live query type, in the order the live `/types` lists them. */
export const LIVE_TYPES: readonly QueryTypeDefinition[] = QUERY_TYPES;

/** The live `X-Request-ID` (and `requestId`) format: `req_` and 16 characters. */
export const REQUEST_ID_FORMAT = /^req_[A-Za-z0-9]{16}$/;

/** The live per-endpoint limit of `POST /v1/query` for a key or a session (routes/query.ts). */
export const QUERY_LIMIT_PER_MINUTE = 120;

/** The most parameters the checks put in one request (SPEC's batch cap; live has none). */
export const PARAMETERS_PER_REQUEST = 50;

/** The range every shape check asks for. */
export const SHAPE_PRESET = 'last_7d';

/** Rows asked per type: enough to see the shape, small enough to stay light. */
export const SHAPE_LIMIT = 10;

/** How many global filter fields every type accepts. */
export const GLOBAL_FILTER_COUNT = GLOBAL_FILTER_FIELDS.length;

/** The number of types on the live public list (readable without a credential on a public website). */
export const LIVE_PUBLIC_COUNT = LIVE_TYPES.filter((t) => t.publicAccess).length;

/** One type's `configs` entry as the live `/types` sends it (absent keys are absent). */
export function liveConfig(type: QueryTypeDefinition): {
  allowedFilters: readonly string[];
  customizable?: boolean;
  defaultLimit?: number;
  publicAccess: boolean;
} {
  return {
    allowedFilters: allowedFilters(type),
    ...(type.liveCustomizable === undefined ? {} : { customizable: type.liveCustomizable }),
    ...(type.liveLimit === undefined ? {} : { defaultLimit: type.liveLimit }),
    publicAccess: type.publicAccess,
  };
}

/** The live meta's schema, refusing keys it does not have (a camelCase `outputFields` is a difference). */
export const LIVE_META_SHAPE = liveQueryTypeMetaSchema.strict();

/** The live row fields of a type, in row order, with their JSON types. */
export function liveFields(type: QueryTypeDefinition): readonly (readonly [string, FieldType])[] {
  return Object.entries(type.fields);
}

/** Whether a row value has a declared field type (`?` admits null). */
export function hasFieldType(value: unknown, type: FieldType): boolean {
  if (value === null) return type.endsWith('?');
  switch (type.replace('?', '')) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && !Array.isArray(value);
    default:
      return false;
  }
}

/** The JSON type of a value, as a difference names it (`string`, `number`, `null`, …). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The id a type needs, the flag that gives it and the query-string parameter that sends it. */
export const TARGET_IDS: Readonly<Record<QueryTarget, { readonly flag: string; readonly option: 'website' | 'link' | 'schedule'; readonly query: string }>> = {
  website: { flag: '--website', option: 'website', query: 'website_id' },
  link: { flag: '--link', option: 'link', query: 'link_id' },
  monitor: { flag: '--schedule', option: 'schedule', query: 'schedule_id' },
};

/**
 * A website type that is not public on either list (live's or the older one), so a request
 * without a credential is refused whether the website is public or not.
 */
export const PRIVATE_TYPE: string =
  LIVE_TYPES.find((t) => t.target === 'website' && !t.publicAccess && !t.olderPublicAccess && t.liveGate === undefined)?.name ?? 'summary_metrics';

/**
 * Live types that need a row filter no generic check can supply (live-catalogue.json,
 * `requiredFilters` / `requiredAnyFilter` / `requires`): without it live fails the parameter
 * ("Query execution failed"), so their row shape is only checked when they succeed.
 */
export const REQUIRED_FILTERS: Readonly<Record<string, string>> = {
  session_events: 'session_id',
  error_customer_impact: 'message or path',
  error_route_continuation_comparison: 'message or path',
  profile_detail: 'anonymous_id',
  profile_revenue: 'anonymous_id',
  profile_sessions: 'anonymous_id',
  identified_profile_retention: 'activation_event, return_event, horizon_days and observation_end',
};

/** A website id no deployment has. */
export const UNKNOWN_WEBSITE = 'web_conform_no_such_website';

/** A key of the right look that no deployment issued. */
export const MALFORMED_KEY = 'dbdy_not-a-valid-key';

/** Whether two JSON values are equal (object key order aside). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
