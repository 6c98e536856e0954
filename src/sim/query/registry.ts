import type { QueryTypeMeta } from '../../contract/query-response.js';
import { followsLive, type Profile } from '../profile.js';
import { rowFields, type QueryTypeDefinition } from './engine/definition.js';
import { GLOBAL_FILTER_FIELDS } from './engine/filters.js';
import { errorsTypes } from './families/errors/errors.js';
import { performanceTypes } from './families/performance/performance.js';
import { profilesTypes } from './families/profiles/profiles.js';
import { linksTypes } from './families/links/links.js';
import { engagementTypes } from './families/engagement/engagement.js';
import { vitalsTypes } from './families/vitals/vitals.js';
import { aiAgentsTypes } from './families/ai-agents/ai-agents.js';
import { mcpTypes } from './families/mcp/mcp.js';
import { revenueTypes } from './families/revenue/revenue.js';
import { realtimeTypes } from './families/realtime/realtime.js';
import { retentionTypes } from './families/retention/retention.js';
import { customEventTypes } from './families/custom-events/custom-events.js';
import { deviceTypes } from './families/devices/devices.js';
import { geoTypes } from './families/geo/geo.js';
import { linkShortenerTypes } from './families/link-shortener/link-shortener.js';
import { pageTypes } from './families/pages/pages.js';
import { sessionTypes } from './families/sessions/sessions.js';
import { summaryTypes } from './families/summary/summary.js';
import { trafficTypes } from './families/traffic/traffic.js';
import { uptimeTypes } from './families/uptime/uptime.js';

/** Every query type, in the order `GET /v1/query/types` lists them (the service's builder order). */
export const QUERY_TYPES: readonly QueryTypeDefinition[] = [
  ...summaryTypes,
  ...pageTypes,
  ...trafficTypes,
  ...deviceTypes,
  ...geoTypes,
  ...errorsTypes,
  ...performanceTypes,
  ...sessionTypes,
  ...customEventTypes,
  ...profilesTypes,
  ...linksTypes,
  ...linkShortenerTypes,
  ...engagementTypes,
  ...vitalsTypes,
  ...aiAgentsTypes,
  ...mcpTypes,
  ...uptimeTypes,
  ...revenueTypes,
  ...realtimeTypes,
  ...retentionTypes,
];

const byName = new Map(QUERY_TYPES.map((t) => [t.name, t]));

/** The query type called `name`, if there is one. */
export function findQueryType(name: string): QueryTypeDefinition | undefined {
  return byName.get(name);
}

/** Every query type name, in listing order. */
export const QUERY_TYPE_NAMES: readonly string[] = QUERY_TYPES.map((t) => t.name);

/**
 * Whether a type is readable without a credential on a public website under `profile`: the
 * live service's current list, or the older broader one under the spec profile.
 */
export function isPublicType(type: QueryTypeDefinition, profile: Profile): boolean {
  return followsLive(profile, 'public-types') ? type.publicAccess : type.olderPublicAccess;
}

const specMetaCache = new Map<string, QueryTypeMeta>();

/**
 * A type's meta under the spec profile (SPEC 2.3): the live description and hints in camelCase,
 * and `outputFields` as the names of the row fields the spec profile answers with.
 */
export function specMeta(type: QueryTypeDefinition): QueryTypeMeta {
  let meta = specMetaCache.get(type.name);
  if (!meta) {
    const live = type.meta;
    const granularity = (live.supports_granularity ?? []).filter((g): g is 'hour' | 'day' => g === 'hour' || g === 'day');
    meta = {
      title: live.title ?? titleOf(type.name),
      description: live.description,
      category: live.category,
      tags: live.tags,
      outputFields: [...rowFields(type, 'spec')],
      ...(live.default_visualization === undefined ? {} : { defaultVisualization: live.default_visualization }),
      ...(granularity.length > 0 ? { supportsGranularity: granularity } : {}),
    };
    specMetaCache.set(type.name, meta);
  }
  return meta;
}

/** `top_pages` → `Top pages`: a title for the types whose live meta has none. */
function titleOf(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const allowedCache = new Map<string, readonly string[]>();

/**
 * The filter fields a type accepts, as `allowedFilterFields` of the service: the 14 global
 * fields followed by the builder's own, without duplicates (only its own for link and monitor types).
 */
export function allowedFilters(type: QueryTypeDefinition): readonly string[] {
  let fields = allowedCache.get(type.name);
  if (!fields) {
    const base = type.commonFilters ? GLOBAL_FILTER_FIELDS : [];
    fields = [...new Set([...base, ...type.extraFilters])];
    allowedCache.set(type.name, fields);
  }
  return fields;
}
