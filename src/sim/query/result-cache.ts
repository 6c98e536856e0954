import type { Filter } from '../../contract/query-request.js';
import type { QueryScope, QueryTypeDefinition, Row } from './definition.js';

/** Full (unpaged) rows of recent parameters, by everything that decides them. */
export interface ResultCache {
  /** The rows for `key`, computing and remembering them on a miss. */
  rows(key: string, compute: () => Row[]): Row[];
  /** Forgets everything (after data changes). */
  clear(): void;
}

/** Entries kept by default. */
export const DEFAULT_RESULT_CACHE_ENTRIES = 512;

/**
 * A bounded LRU of computed rows. Rows are never mutated after they are computed, so a cached
 * list can be paged and serialized by any number of requests.
 */
export function createResultCache(capacity = DEFAULT_RESULT_CACHE_ENTRIES): ResultCache {
  const entries = new Map<string, Row[]>();
  return {
    rows(key, compute) {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const rows = compute();
      entries.set(key, rows);
      if (entries.size > capacity) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      return rows;
    },
    clear: () => entries.clear(),
  };
}

function scopeKey(scope: QueryScope): string {
  switch (scope.kind) {
    case 'websites':
      return `w:${scope.websites.map((w) => w.id).join(',')}`;
    case 'link':
      return `l:${scope.link.id}`;
    case 'monitor':
      return `m:${scope.monitor.id}`;
  }
}

/**
 * The cache key of one parameter's rows. Types that read "now" include the instant, so they
 * are recomputed whenever the clock moves.
 */
export function resultKey(
  type: QueryTypeDefinition,
  scope: QueryScope,
  range: { fromMs: number; toMs: number; unit: string },
  timezone: string,
  filters: readonly Filter[],
  now: number,
): string {
  const time = type.skipDateRange ? `now=${now}` : `${range.fromMs}-${range.toMs}-${range.unit}`;
  return `${type.name}|${scopeKey(scope)}|${time}|${timezone}|${filters.length > 0 ? JSON.stringify(filters) : ''}`;
}
