import { z } from 'zod';

/**
 * Caps on the arrays a request body may carry, in one place. Each is far above what a
 * legitimate client sends; a body over one is refused with 400 VALIDATION_ERROR naming the cap
 * and the count sent, before any per-item work. The schemas carry them as `.max()`, so the
 * OpenAPI document shows them as `maxItems`. Caps the live service has are marked so; the others
 * are the simulator's own (the live service has none, or none that could be read).
 */
export const REQUEST_LIMITS = {
  /** Queries in one `POST /v1/query` batch (ours: the service has none; the `spec` profile still refuses over 50). */
  batchQueries: 1000,
  /** Parameters (query types) in one query (ours, as before: the route refused over 50). */
  queryParameters: 50,
  /** Filters in one query or one `/compile` request (ours). */
  filters: 100,
  /** Values in one filter's list (`in`, `not_in`) (ours). */
  filterValues: 1000,
  /** `groupBy` fields of one `/compile` request (ours). */
  groupBy: 20,
  /** Scopes named when a key is created or changed (ours). */
  keyScopes: 50,
  /** Events in one `/track` batch (live: `VALIDATION_LIMITS.BATCH_MAX_SIZE`). */
  trackEvents: 100,
  /**
   * Items of every list and fields of every object in one body together (ours): each cap alone
   * still lets lists multiply (a batch of queries of filters of values), and checking each item
   * costs time.
   */
  totalItems: 10_000,
  /**
   * Levels of nested arrays and objects in one JSON body (ours), checked before parsing: a 1 MB
   * body of 500,000 nested arrays takes `JSON.parse` over 100 ms; 10,000 levels a few.
   */
  jsonDepth: 10_000,
  /** Arrays, objects and object fields in one JSON body (ours), counted before parsing, for the same reason. */
  jsonNodes: 100_000,
  /** Fields of one JSON object (ours), counted before parsing: a 70,000-field object takes `JSON.parse` about 100 ms. */
  objectFields: 10_000,
} as const;

/** The most problems an error body lists in `details`; `detailsTotal` then says how many there were. */
export const MAX_ERROR_DETAILS = 20;

/**
 * An array schema capped at `max` items, whose message names the cap, what it counts and how
 * many were sent: "At most 100 filters are accepted in one query; got 45000".
 */
export function cappedArray<T extends z.ZodType>(element: T, max: number, what: string): z.ZodArray<T> {
  return z.array(element).max(max, {
    error: (issue) => `At most ${max} ${what}; got ${Array.isArray(issue.input) ? issue.input.length : 'more'}`,
  });
}
