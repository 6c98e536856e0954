import type { QueryTypeDefinition } from './definition.js';
import { GLOBAL_FILTER_FIELDS } from './filters.js';
import { customEventTypes } from './types/custom-events.js';
import { deviceTypes } from './types/devices.js';
import { geoTypes } from './types/geo.js';
import { linkTypes } from './types/links.js';
import { pageTypes } from './types/pages.js';
import { sessionTypes } from './types/sessions.js';
import { summaryTypes } from './types/summary.js';
import { trafficTypes } from './types/traffic.js';
import { uptimeTypes } from './types/uptime.js';

/** Every query type, in the order `GET /v1/query/types` lists them (the service's builder order). */
export const QUERY_TYPES: readonly QueryTypeDefinition[] = [
  ...summaryTypes,
  ...pageTypes,
  ...trafficTypes,
  ...deviceTypes,
  ...geoTypes,
  ...sessionTypes,
  ...customEventTypes,
  ...linkTypes,
  ...uptimeTypes,
];

const byName = new Map(QUERY_TYPES.map((t) => [t.name, t]));

/** The query type called `name`, if there is one. */
export function findQueryType(name: string): QueryTypeDefinition | undefined {
  return byName.get(name);
}

/** Every query type name, in listing order. */
export const QUERY_TYPE_NAMES: readonly string[] = QUERY_TYPES.map((t) => t.name);

const allowedCache = new Map<string, readonly string[]>();

/**
 * The filter fields a type accepts: the global list followed by the type's own, without
 * duplicates; only its own when it opts out of the common filters.
 */
export function allowedFilters(type: QueryTypeDefinition): readonly string[] {
  let fields = allowedCache.get(type.name);
  if (!fields) {
    const base = type.target === 'website' && type.commonFilters !== false ? GLOBAL_FILTER_FIELDS : [];
    fields = [...new Set([...base, ...(type.extraFilters ?? [])])];
    allowedCache.set(type.name, fields);
  }
  return fields;
}
